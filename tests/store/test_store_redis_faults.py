"""The Redis store under faults: a full pool, a dead worker's lock, a lost lock, a restart,
and retried turns with an idempotency key."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from dialogkit import Engine, Settings
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import DialogueState, Records, SessionConfig
from dialogkit.errors import LockLost, SessionBusy
from dialogkit.scenario.scenario import Scenario
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.store._base import SessionStore
from dialogkit.store._memory import MemoryStore
from dialogkit.store.redis import RedisStore
from tests.helpers import RecordingSkills, make_graph
from tests.store.conftest import RedisServer

SCENARIO = Scenario.from_dict(
    make_graph(
        [
            {
                "id": "a",
                "description": "A.",
                "responses": {"default": "Say anything."},
                "next_nodes": [{"action": "stay"}],
            }
        ]
    )
)


def prefix() -> str:
    return f"t{uuid.uuid4().hex[:8]}"


def config(session_id: str = "s") -> SessionConfig:
    return SessionConfig(session_id=session_id, scenario_key=SCENARIO.fingerprint)


async def save(store: RedisStore, session_id: str, turns: int, *, new: bool = False) -> None:
    state = DialogueState(current_node="a", turn_count=turns)
    await store.save(config(session_id), state, Records(), SCENARIO, new=new)


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def test_a_full_pool_waits_instead_of_failing(redis_url: str) -> None:
    store = RedisStore(redis_url, prefix=prefix(), max_connections=4, pool_timeout_s=30)
    try:
        await save(store, "s", 1, new=True)
        loaded = await asyncio.gather(*(store.load("s") for _ in range(300)))
        assert all(item is not None and item.state.turn_count == 1 for item in loaded)
    finally:
        await store.aclose()


async def test_a_dead_workers_lock_is_gone_within_the_lock_ttl(redis_url: str, raw: Redis) -> None:
    store = RedisStore(redis_url, prefix=prefix(), lock_ttl_s=0.5, lock_wait_s=10)
    try:
        # What a worker killed mid-turn leaves behind: its lock, never released.
        await raw.set(f"{store._prefix}:lock:s", b"dead-worker", px=500)
        started = time.monotonic()
        async with store.lock("s"):
            waited = time.monotonic() - started
        assert 0.2 < waited < 3
    finally:
        await store.aclose()


async def test_a_lock_is_renewed_while_its_turn_runs(redis_url: str) -> None:
    name = prefix()
    holder = RedisStore(redis_url, prefix=name, lock_ttl_s=0.3, lock_timeout_s=10)
    other = RedisStore(redis_url, prefix=name, lock_wait_s=1.0)
    try:
        async with holder.lock("s"):
            with pytest.raises(SessionBusy):
                async with other.lock("s"):
                    pass  # pragma: no cover - never entered
            await save(holder, "s", 1, new=True)  # still this turn's lock after 1 s
        async with other.lock("s"):
            pass
    finally:
        await holder.aclose()
        await other.aclose()


async def test_a_hung_turn_loses_its_lock_at_its_deadline_and_saves_nothing(
    redis_url: str,
) -> None:
    name = prefix()
    hung = RedisStore(redis_url, prefix=name, lock_ttl_s=0.3, lock_timeout_s=0.6)
    other = RedisStore(redis_url, prefix=name, lock_wait_s=10)
    try:
        await save(other, "s", 1, new=True)
        async with hung.lock("s"):
            started = time.monotonic()
            async with other.lock("s"):
                took_over = time.monotonic() - started
                await save(other, "s", 2)
            with pytest.raises(LockLost):
                await save(hung, "s", 99)
        assert took_over < 3
        stored = await other.load("s")
        assert stored is not None and stored.state.turn_count == 2
    finally:
        await hung.aclose()
        await other.aclose()


class SlowSkills(RecordingSkills):
    """A skill runtime that answers after ``delay_s``: an opening slower than a lock's life."""

    def __init__(self, delay_s: float) -> None:
        super().__init__()
        self.delay_s = delay_s

    async def run(self, call: SkillCall) -> SkillOutcome:
        await asyncio.sleep(self.delay_s)
        return await super().run(call)


async def test_an_opening_that_outlives_its_lock_still_creates_the_session(
    redis_url: str,
) -> None:
    # Under load (a thousand sessions opened at once on one worker) or behind a slow skill, an
    # opening turn can outlive the lock of its brand-new session; that used to raise LockLost
    # out of the save (a 500 from POST /v1/session), though nothing could have been overwritten.
    store = RedisStore(redis_url, prefix=prefix(), lock_ttl_s=0.2, lock_timeout_s=0.3)
    engine = Engine(Settings(), store=store, router=OfflineRouter(), skills=SlowSkills(0.8))
    opening = {
        "id": "a",
        "description": "Look something up first.",
        "params": {"skill": "lookup"},
        "responses": {"default": "Found it."},
        "next_nodes": [{"action": "stay"}],
    }
    try:
        session = await engine.astart(make_graph([opening], bot_first=True))
        assert session.initial_reply.error is False
        assert session.initial_reply.response == "Found it."
        assert (await engine.ainfo(session.id)).turn_count == session.initial_reply.turn_count
    finally:
        await engine.aclose()


async def test_a_turn_whose_lock_was_taken_over_saves_nothing(redis_url: str, raw: Redis) -> None:
    store = RedisStore(redis_url, prefix=prefix())
    try:
        await save(store, "s", 1, new=True)
        async with store.lock("s"):
            await raw.set(f"{store._prefix}:lock:s", b"another-worker")
            with pytest.raises(LockLost):
                await save(store, "s", 2)
        stored = await store.load("s")
        assert stored is not None and stored.state.turn_count == 1
    finally:
        await store.aclose()


async def test_a_redis_restart_costs_a_reconnect_not_an_error(redis_server: RedisServer) -> None:
    store = RedisStore(redis_server.url, prefix=prefix())
    try:
        await save(store, "s", 3, new=True)
        assert await store.load("s") is not None  # the pool now holds a connection
        redis_server.restart()
        stored = await store.load("s")  # the stale connection is replaced, not an error
        assert stored is not None and stored.state.turn_count == 3
        async with store.lock("s"):
            await save(store, "s", 4)
    finally:
        await store.aclose()


@pytest.fixture(params=["memory", "redis"])
async def engine(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Engine]:
    store: SessionStore = (
        MemoryStore() if request.param == "memory" else RedisStore(redis_url, prefix=prefix())
    )
    engine = Engine(Settings(), store=store, router=OfflineRouter(), skills=RecordingSkills())
    yield engine
    await engine.aclose()


async def test_a_retried_turn_gets_its_saved_reply_not_a_second_turn(engine: Engine) -> None:
    session = await engine.astart(SCENARIO)
    first = await engine.amessage(session.id, "hello", idempotency_key="turn-1")
    again = await engine.amessage(session.id, "hello", idempotency_key="turn-1")
    assert again.model_dump() == first.model_dump()
    assert (await engine.ainfo(session.id)).turn_count == first.turn_count
    second = await engine.amessage(session.id, "hello", idempotency_key="turn-2")
    assert second.turn_count == first.turn_count + 1
    plain = await engine.amessage(session.id, "hello")
    assert plain.turn_count == second.turn_count + 1
    assert len(await engine.atranscript(session.id)) == 3


async def test_concurrent_retries_of_one_turn_apply_it_once(engine: Engine) -> None:
    session = await engine.astart(SCENARIO)
    replies = await asyncio.gather(
        *(engine.amessage(session.id, "hi", idempotency_key="same") for _ in range(10))
    )
    assert {reply.turn_count for reply in replies} == {1}
    assert (await engine.ainfo(session.id)).turn_count == 1
