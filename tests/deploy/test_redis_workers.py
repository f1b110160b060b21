"""Two ``dialogkit serve`` workers on one real Redis, under load and under faults.

- 1,000 concurrent turns spread over both workers: no error, every turn count exact. Each
  session's ten turns queue behind each other; on this 2-core machine under other load, the last
  of them waited more than the default 30 s ``DIALOGKIT_LOCK_WAIT_S`` and was rightly answered
  429, so these workers wait as long as a turn's deadline (60 s).
- 1,000 concurrent turns on one session: each is applied (counts exact) or answered 429 busy
  with ``Retry-After`` once it waited ``DIALOGKIT_LOCK_WAIT_S``; never a 200 with an error.
- A worker killed with SIGKILL mid-load: clients retry on the other worker with the same
  ``Idempotency-Key``; every turn is applied exactly once, and the dead worker's locks do not
  hold the sessions up.
- A Redis restart: the next turn answers 200 (a reconnect), never 500.

The load generator is aiohttp. Under this load on a starved loop, httpx's pool (httpcore 1.0)
now and then closes a connection under a request it has just handed it to (a ``ReadError``
from a ``ClosedResourceError`` of the client's own socket, encode/httpcore#1110): a fault of
the client, which these tests must not mistake for the server's.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dialogkit.testing.processes import free_port
from tests.deploy.conftest import ServerProcess, running
from tests.helpers import make_graph
from tests.store.conftest import RedisServer

GRAPH = make_graph(
    [
        {
            "id": "talk",
            "description": "Say anything, forever.",
            "responses": {"default": "Go on."},
            "next_nodes": [{"action": "stay"}],
        }
    ],
    bot_first=True,
)
LOCK_TTL_S = "1"
"""The kill test's lock TTL: how long a dead worker's locks hold its sessions up."""


def client(timeout_s: float) -> aiohttp.ClientSession:
    """A load generator's session: up to 1,000 connections at once."""
    connector = aiohttp.TCPConnector(limit=1000)
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(timeout_s))


def workers(
    stack: ExitStack,
    redis_url: str,
    tmp_path: Path,
    count: int = 2,
    extra: dict[str, str] | None = None,
) -> list[ServerProcess]:
    env = {"DIALOGKIT_REDIS_URL": redis_url, **(extra or {})}
    started = []
    for _ in range(count):
        port = free_port()
        command = ["dialogkit", "serve", "--host", "127.0.0.1", "--port", str(port)]
        started.append(stack.enter_context(running(command, port, tmp_path, env)))
    return started


@pytest.fixture
def two_workers(redis_url: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    with ExitStack() as stack:
        yield workers(stack, redis_url, tmp_path, extra={"DIALOGKIT_LOCK_WAIT_S": "60"})


@pytest.fixture
def doomed_and_survivor(redis_url: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    with ExitStack() as stack:
        yield workers(stack, redis_url, tmp_path, extra={"DIALOGKIT_REDIS_LOCK_TTL_S": LOCK_TTL_S})


async def answer(response: aiohttp.ClientResponse, status: int = 200) -> Any:
    """The JSON body of ``response``, which must have ``status``."""
    async with response:
        assert response.status == status, await response.text()
        return await response.json()


async def open_session(http: aiohttp.ClientSession, url: str) -> str:
    opened = await answer(await http.post(f"{url}/v1/session/json", json={"scenario_graph": GRAPH}))
    session_id: str = opened["session_id"]
    return session_id


async def send(
    http: aiohttp.ClientSession, url: str, session_id: str, text: str, key: str | None = None
) -> dict[str, Any]:
    headers = {"Idempotency-Key": key} if key else {}
    body = {"session_id": session_id, "message_input": {"text": text}}
    reply: dict[str, Any] = await answer(
        await http.post(f"{url}/v1/message", json=body, headers=headers)
    )
    assert reply["error"] is False, reply
    return reply


async def turn_count(http: aiohttp.ClientSession, url: str, session_id: str) -> int:
    count: int = (await answer(await http.get(f"{url}/v1/session/{session_id}")))["turn_count"]
    return count


@pytest.mark.timeout(240)
def test_a_thousand_concurrent_turns_over_two_workers(two_workers: list[ServerProcess]) -> None:
    urls = [server.base_url for server in two_workers]
    sessions, per_session = 100, 10

    async def drive() -> None:
        async with client(120) as http:
            ids = await asyncio.gather(*(open_session(http, urls[n % 2]) for n in range(sessions)))
            replies = await asyncio.gather(
                *(
                    send(http, urls[(n + turn) % 2], session_id, f"turn {turn}")
                    for n, session_id in enumerate(ids)
                    for turn in range(per_session)
                )
            )
            counts: dict[str, list[int]] = {}
            for reply in replies:
                counts.setdefault(reply["session_id"], []).append(reply["turn_count"])
            assert len(replies) == sessions * per_session
            for session_id in ids:
                assert sorted(counts[session_id]) == list(range(2, 2 + per_session))
                assert await turn_count(http, urls[1], session_id) == 1 + per_session

    asyncio.run(drive())


LOCK_WAIT_S = 3.0


@pytest.mark.timeout(240)
def test_a_thousand_turns_on_one_session_are_applied_or_answered_busy(
    redis_url: str, tmp_path: Path
) -> None:
    turns = 1000
    with ExitStack() as stack:
        urls = [
            server.base_url
            for server in workers(
                stack, redis_url, tmp_path, extra={"DIALOGKIT_LOCK_WAIT_S": str(LOCK_WAIT_S)}
            )
        ]

        async def one(http: aiohttp.ClientSession, url: str, session_id: str, n: int) -> Any:
            started = time.monotonic()
            body = {"session_id": session_id, "message_input": {"text": f"turn {n}"}}
            response = await http.post(f"{url}/v1/message", json=body)
            waited = time.monotonic() - started
            if response.status == 429:
                assert response.headers["retry-after"] == "1"
                assert "busy" in (await answer(response, 429))["detail"]
                return None, waited
            reply = await answer(response)
            assert reply["error"] is False, reply
            return reply["turn_count"], waited

        async def drive() -> tuple[list[int], list[float]]:
            async with client(120) as http:
                session_id = await open_session(http, urls[0])
                answers = await asyncio.gather(
                    *(one(http, urls[n % 2], session_id, n) for n in range(turns))
                )
                applied = sorted(count for count, _ in answers if count is not None)
                # Exactly the applied turns happened, each once, in some order.
                assert applied == list(range(2, 2 + len(applied)))
                assert await turn_count(http, urls[1], session_id) == 1 + len(applied)
                return applied, [waited for _, waited in answers]

        applied, waits = asyncio.run(drive())
    busy = turns - len(applied)
    assert applied, "some turns must get through"
    # Nobody waits much past the lock wait: a busy answer comes when it runs out.
    assert max(waits) < LOCK_WAIT_S + 15, (max(waits), len(applied), busy)


@pytest.mark.timeout(240)
def test_a_worker_killed_mid_load_loses_no_turn_and_applies_none_twice(
    doomed_and_survivor: list[ServerProcess],
) -> None:
    doomed, survivor = doomed_and_survivor
    sessions, steps = 20, 8
    retried: list[str] = []

    async def turn(http: aiohttp.ClientSession, session_id: str, step: int, first: str) -> int:
        """One turn, retried with the same key on the other worker when a worker fails."""
        key = f"{session_id}:{step}"
        order = [first, survivor.base_url]
        for attempt in range(40):
            url = order[min(attempt, 1)]
            try:
                reply = await send(http, url, session_id, f"step {step}", key)
                count: int = reply["turn_count"]
                return count
            except aiohttp.ClientConnectionError:
                retried.append(key)
                await asyncio.sleep(0.05)
        raise AssertionError(f"turn {key} never got through")

    async def drive() -> None:
        async with client(30) as http:
            ids = [await open_session(http, survivor.base_url) for _ in range(sessions)]
            halfway = asyncio.Event()
            done = 0

            async def converse(index: int, session_id: str) -> list[int]:
                nonlocal done
                counts = []
                for step in range(steps):
                    first = doomed.base_url if (index + step) % 2 else survivor.base_url
                    counts.append(await turn(http, session_id, step, first))
                    done += 1
                    if done >= sessions * steps // 3:
                        halfway.set()
                return counts

            async def kill() -> None:
                await halfway.wait()
                os.kill(doomed.process.pid, signal.SIGKILL)

            results = await asyncio.gather(
                kill(), *(converse(n, session_id) for n, session_id in enumerate(ids))
            )
            for session_id, counts in zip(ids, results[1:], strict=True):
                # Each step applied once: the opening is turn 1, step k is turn k + 2.
                assert counts == list(range(2, 2 + steps)), (session_id, counts)
                assert await turn_count(http, survivor.base_url, session_id) == 1 + steps

    asyncio.run(drive())
    assert doomed.process.wait(timeout=10) == -signal.SIGKILL
    assert retried, "the kill should have interrupted some turns"


@pytest.mark.timeout(120)
def test_a_redis_restart_answers_the_next_turn_not_a_500(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    with ExitStack() as stack:
        (server,) = workers(stack, redis_server.url, tmp_path, count=1)

        async def drive() -> None:
            async with client(30) as http:
                session_id = await open_session(http, server.base_url)
                assert (await send(http, server.base_url, session_id, "one"))["turn_count"] == 2
                redis_server.restart()  # the append-only file keeps the session
                after = await send(http, server.base_url, session_id, "two")
                assert after["turn_count"] == 3

        asyncio.run(drive())
