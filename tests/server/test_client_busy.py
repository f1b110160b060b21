"""A busy session through the Python clients: a real server's 429 is ``SessionBusy``.

The server's memory store waits only a moment for a session's lock, and the gated skill holds
one turn of the session inside its lock, so the next request to that session is answered 429
with ``Retry-After`` exactly as in production; the clients must raise ``SessionBusy`` (with
``retry_after_s`` read from the header), not a generic ``APIError``, and the held turn must
still complete once released.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from dialogkit.client import AsyncClient, Client
from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.errors import APIError, SessionBusy
from dialogkit.settings import Settings
from dialogkit.store._memory import MemoryStore
from tests.server.conftest import FakeClock, GatedSkills, Live, running

LOCK_WAIT_S = 0.3


@pytest.fixture(scope="module")
def busy_server() -> Iterator[Live]:
    clock, skills = FakeClock(), GatedSkills()
    store = MemoryStore(clock=clock, lock_wait_s=LOCK_WAIT_S)
    engine = Engine(Settings(), store=store, router=OfflineRouter(), skills=skills)
    with running(engine) as live:
        live.skills = skills  # the gate this engine runs, not running()'s own
        yield live


def _hold_a_turn(live: Live, session_id: str) -> threading.Thread:
    """Start a turn that sits in the gated skill, inside the session's lock."""
    live.skills.release.clear()
    live.skills.entered.clear()

    def lookup() -> None:
        with Client(live.base_url, timeout=10) as client:
            client.message(session_id, "lookup")

    held = threading.Thread(target=lookup)
    held.start()
    assert live.skills.entered.wait(5)
    return held


def test_a_busy_session_raises_session_busy_with_retry_after(busy_server: Live) -> None:
    with Client(busy_server.base_url, timeout=10) as client:
        session = client.start("demo")
        session.send("tea")
        held = _hold_a_turn(busy_server, session.id)
        try:
            with pytest.raises(SessionBusy) as busy:
                client.message(session.id, "finish", idempotency_key="finish-1")
            with pytest.raises(SessionBusy):
                session.info()
        finally:
            busy_server.skills.release.set()
            held.join(10)
        error = busy.value
        assert not isinstance(error, APIError)
        assert error.status_code == 429
        assert error.retry_after_s == 1
        assert error.waited_s is None
        assert isinstance(error.body, dict) and "busy" in error.body["detail"]
        assert "/v1/message" in str(error) and "Retry-After" in str(error)
        # Nothing of the refused turn was applied: the held turn is the only one that counted.
        after = session.info()
        assert after.turn_count == 3
        # The refused message is sent again after Retry-After, with its key: applied once.
        done = client.message(session.id, "finish", idempotency_key="finish-1")
        assert done.session_complete and done.turn_count == 4
        assert client.message(session.id, "finish", idempotency_key="finish-1") == done


async def test_the_async_client_raises_session_busy_too(busy_server: Live) -> None:
    async with AsyncClient(busy_server.base_url, timeout=10) as client:
        session = await client.start("demo")
        await session.asend("tea")
        held = await asyncio.to_thread(_hold_a_turn, busy_server, session.id)
        try:
            with pytest.raises(SessionBusy) as busy:
                await session.asend("finish")
        finally:
            busy_server.skills.release.set()
            await asyncio.to_thread(held.join, 10)
        assert busy.value.retry_after_s == 1


@pytest.mark.parametrize(("header", "seconds"), [("7", 7), ("soon", 1), (None, 1)])
def test_retry_after_is_read_from_the_header(header: str | None, seconds: int) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"retry-after": header} if header is not None else {}
        return httpx.Response(429, json={"detail": "Session is busy: ..."}, headers=headers)

    transport = httpx.MockTransport(answer)
    with (
        Client("http://service.test", transport=transport) as client,
        pytest.raises(SessionBusy) as busy,
    ):
        client.message("s1", "hello")
    assert busy.value.retry_after_s == seconds


def test_retry_after_may_be_an_http_date() -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, json={"detail": "busy"}, headers={"retry-after": when})

    transport = httpx.MockTransport(answer)
    with (
        Client("http://service.test", transport=transport) as client,
        pytest.raises(SessionBusy) as busy,
    ):
        client.message("s1", "hello")
    assert 28 <= busy.value.retry_after_s <= 31
