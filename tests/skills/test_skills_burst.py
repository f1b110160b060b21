"""Bursts of skill timeouts leave a pool that still works, and a failing runtime is loud.

The runtime here is a raw asyncio server on 127.0.0.1 that reads each request and then hangs
until the test lets it answer: the shape of a runtime that stalls under load and recovers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from dialogkit.settings import Settings
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.skills._client import FAILING_AFTER, HTTPSkillRunner
from dialogkit.skills._result import SkillErrorCode
from tests.skills.conftest import build_call

BURSTS = 3
BURST_SIZE = 300
ANSWER = json.dumps({"success": True, "result": {"response": "Back."}, "metadata": {}}).encode()


class HangingRuntime:
    """Reads a request, then waits until ``released`` is set before answering it (or, with
    ``answer_after_s``, answers each request that long after reading it)."""

    def __init__(self, answer_after_s: float | None = None) -> None:
        self.answer_after_s = answer_after_s
        self.released = asyncio.Event()
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.Server | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0, backlog=64)

    async def recover(self) -> None:
        """Answer from now on, and drop every connection that hung."""
        self.released.set()
        for writer in self._writers:
            writer.close()
        self._writers.clear()

    async def close(self) -> None:
        await self.recover()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                if lines[0].startswith("GET "):
                    # The front still answers (a probe sees it up); only skill calls hang.
                    writer.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                    await writer.drain()
                    continue
                length = next(
                    int(line.split(":", 1)[1])
                    for line in lines
                    if line.lower().startswith("content-length:")
                )
                await reader.readexactly(length)
                if self.answer_after_s is None:
                    await self.released.wait()
                else:
                    await asyncio.sleep(self.answer_after_s)
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\n\r\n%s" % (len(ANSWER), ANSWER)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            writer.close()


@pytest.fixture
async def runtime() -> AsyncIterator[HangingRuntime]:
    server = HangingRuntime()
    await server.start()
    yield server
    await server.close()


IN_FLIGHT = 32
HANGING_CALL_S = 1.0
"""How long a call to the hanging runtime lives: its turn's deadline."""


def hanging_call() -> SkillCall:
    """A call whose turn ends in ``HANGING_CALL_S``: against the hanging runtime it times out
    then, while the runner's own limit stays long enough for healthy calls on a slow machine
    (a healthy call judges whether the pool serves, not how fast a starved loop is)."""
    return replace(build_call(), deadline=time.monotonic() + HANGING_CALL_S)


@pytest.fixture
async def runner(runtime: HangingRuntime) -> AsyncIterator[HTTPSkillRunner]:
    settings = Settings(
        SKILL_RUNTIME_BASE_URL=runtime.base_url,
        SKILL_RUNTIME_TIMEOUT_S=5,
        SKILL_RUNTIME_MAX_IN_FLIGHT=IN_FLIGHT,
    )
    async with HTTPSkillRunner(settings) as skill_runner:
        yield skill_runner


async def healthy_calls_succeed(runner: HTTPSkillRunner, runtime: HangingRuntime) -> None:
    """Once every abandoned call has ended by its own timeout, the pool serves new calls.

    Waiting for them first is the point: calls sent while hundreds of abandoned ones still
    queue for the 32 slots would only measure that queue, not whether a slot leaked.
    """
    await asyncio.wait_for(runner.settled(), 10)
    assert runner.calls_in_flight == 0
    await runtime.recover()
    call = build_call()
    outcomes = await asyncio.gather(*(runner.run(call) for _ in range(10)))
    assert [o.status for o in outcomes] == ["success"] * 10, [o.error_detail for o in outcomes]
    assert outcomes[0].reply == "Back."


async def test_three_bursts_of_timeouts_then_healthy_calls_succeed(
    runtime: HangingRuntime, runner: HTTPSkillRunner
) -> None:
    for _ in range(BURSTS):
        call = hanging_call()
        outcomes = await asyncio.gather(*(runner.run(call) for _ in range(BURST_SIZE)))
        assert {o.error_code for o in outcomes} == {SkillErrorCode.TIMEOUT}
    await healthy_calls_succeed(runner, runtime)


async def test_callers_cancelled_mid_call_do_not_poison_the_pool(
    runtime: HangingRuntime, runner: HTTPSkillRunner, caplog: pytest.LogCaptureFixture
) -> None:
    """The old failure: a timeout around the call cancelled httpcore and leaked its slots.

    No pool is replaced either: a replacement would mean connections were lost on the way.
    """
    with caplog.at_level(logging.ERROR, logger="dialogkit.skills"):
        for _ in range(BURSTS):
            call = hanging_call()
            results = await asyncio.gather(
                *(asyncio.wait_for(runner.run(call), 0.05) for _ in range(BURST_SIZE)),
                return_exceptions=True,
            )
            cancelled = [r for r in results if isinstance(r, TimeoutError)]
            # On a starved machine a call may start after its turn's deadline and end before
            # its caller gives up; every call that got a slot had its caller cancelled.
            ended = [r for r in results if not isinstance(r, TimeoutError)]
            assert all(
                isinstance(r, SkillOutcome) and r.error_code == SkillErrorCode.TIMEOUT
                for r in ended
            ), ended[:3]
            assert len(cancelled) >= IN_FLIGHT, len(cancelled)
        await healthy_calls_succeed(runner, runtime)
    assert not [r for r in caplog.records if "lost connections" in r.getMessage()]


async def test_a_failing_runtime_is_logged_and_not_ready_until_it_recovers(
    runtime: HangingRuntime, runner: HTTPSkillRunner, caplog: pytest.LogCaptureFixture
) -> None:
    assert await runner.health() == (True, f"{runtime.base_url} reachable")
    with caplog.at_level(logging.WARNING, logger="dialogkit.skills"):
        await asyncio.gather(*(runner.run(hanging_call()) for _ in range(FAILING_AFTER)))
    failing = [r for r in caplog.records if "is failing" in r.getMessage()]
    assert len(failing) == 1 and failing[0].levelno == logging.ERROR
    ready, detail = await runner.health()
    assert not ready and "in a row failed" in detail

    await healthy_calls_succeed(runner, runtime)
    assert (await runner.health())[0]
    assert any("recovered" in r.getMessage() for r in caplog.records)


async def test_an_unreachable_runtime_is_not_ready() -> None:
    runner = HTTPSkillRunner(Settings(SKILL_RUNTIME_BASE_URL="http://127.0.0.1:9"))
    try:
        ready, detail = await runner.health()
        assert not ready and "unreachable" in detail
    finally:
        await runner.aclose()


async def test_a_call_never_outlives_the_turn_deadline(runtime: HangingRuntime) -> None:
    runner = HTTPSkillRunner(
        Settings(SKILL_RUNTIME_BASE_URL=runtime.base_url, SKILL_RUNTIME_TIMEOUT_S=30)
    )
    loop = asyncio.get_running_loop()
    try:
        started = loop.time()
        outcome = await runner.run(replace(build_call(), deadline=time.monotonic() + 0.3))
        assert outcome.error_code == SkillErrorCode.TIMEOUT
        assert loop.time() - started < 10  # far below the 30 s skill timeout
        late = await runner.run(replace(build_call(), deadline=time.monotonic() - 1))
        assert late.error_code == SkillErrorCode.TIMEOUT
        assert "deadline" in (late.error_detail or "")
    finally:
        await runner.aclose()


async def test_the_timeout_covers_waiting_for_a_call_slot() -> None:
    """With one slot, the second call queues 0.6 s behind the first: its 1 s limit leaves
    it 0.4 s, so it times out at 1 s instead of succeeding at 1.2 s (the old sum)."""
    slow = HangingRuntime(answer_after_s=0.6)
    await slow.start()
    settings = Settings(
        SKILL_RUNTIME_BASE_URL=slow.base_url,
        SKILL_RUNTIME_TIMEOUT_S=1.0,
        SKILL_RUNTIME_MAX_IN_FLIGHT=1,
    )
    loop = asyncio.get_running_loop()

    async def timed(runner: HTTPSkillRunner) -> tuple[str | None, float]:
        started = loop.time()
        outcome = await runner.run(build_call())
        return outcome.error_code, loop.time() - started

    try:
        async with HTTPSkillRunner(settings) as runner:
            first, second = await asyncio.gather(timed(runner), timed(runner))
    finally:
        await slow.close()
    assert first[0] is None
    assert second[0] == SkillErrorCode.TIMEOUT
    assert second[1] < 1.15, second
