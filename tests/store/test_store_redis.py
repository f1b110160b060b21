"""The Redis store against a real Redis server: the memory store's semantics, shared."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from dialogkit import Engine, SessionNotFound, Settings
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import DialogueState, Records, SessionConfig, Visit
from dialogkit.errors import SessionBusy
from dialogkit.scenario.scenario import Scenario
from dialogkit.store._base import RecordLimits
from dialogkit.store.redis import RedisStore
from tests.helpers import RecordingSkills, make_graph
from tests.helpers import transcript_row as row

NODES = [
    {
        "id": "a",
        "description": "A.",
        "responses": {"default": "Say anything."},
        "next_nodes": [{"action": "stay"}],
    }
]
SCENARIO = Scenario.from_dict(make_graph(NODES))


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:8]}")
    yield store
    await store.aclose()


def config(session_id: str = "s", **fields: Any) -> SessionConfig:
    return SessionConfig(session_id=session_id, scenario_key=SCENARIO.fingerprint, **fields)


async def test_config_state_and_records_round_trip(store: RedisStore) -> None:
    session = config(user={"name": "김"})
    state = DialogueState(current_node="a", slots={"n": 1}, turn_count=2)
    first = Records(transcript=[row(1, None, "안녕")])
    await store.save(session, state, first, SCENARIO, new=True)
    turn = Records(transcript=[row(2, "x", "y")], visits=[Visit(node="a", source="a")])
    await store.save(session, state, turn, SCENARIO)
    stored = await store.load("s")
    assert stored is not None and stored.state == state and stored.config == session
    assert 3590 < stored.ttl_s <= 3600
    records = await store.records("s")
    assert [h.message for h in records.history] == ["안녕", "x", "y"]
    assert records.transcript == first.transcript + turn.transcript
    assert records.transitions == [("a", "a")]
    assert await store.load("other") is None


async def test_every_key_of_a_session_shares_the_state_ttl(store: RedisStore) -> None:
    turn = Records(transcript=[row(1, None, "y")], visits=[Visit(node="a")])
    await store.save(config(), DialogueState(current_node="a"), turn, SCENARIO, new=True)
    redis = store._redis
    for kind in ("config", "state", "transcript", "visits"):
        ttl = await redis.ttl(store._key(kind, "s"))
        assert 3590 < ttl <= 3600, kind
    assert await redis.ttl(store._key("scenario", SCENARIO.fingerprint)) > 24 * 3600 - 10


async def test_config_ttl_caps_every_renewal(store: RedisStore) -> None:
    nearly_a_day_ago = config(created_at=time.time() - 24 * 3600 + 100)
    await store.save(
        nearly_a_day_ago, DialogueState(current_node="a"), Records(), SCENARIO, new=True
    )
    ttl = await store._redis.ttl(store._key("state", "s"))
    assert 90 <= ttl <= 100


async def test_records_are_trimmed_to_the_limits(redis_url: str) -> None:
    store = RedisStore(
        redis_url, prefix=f"t{uuid.uuid4().hex[:8]}", limits=RecordLimits(history=4, transcript=2)
    )
    session = config()
    await store.save(session, DialogueState(current_node="a"), Records(), SCENARIO, new=True)
    for turn in range(10):
        appended = Records(transcript=[row(turn, f"u{turn}", f"r{turn}")])
        await store.save(session, DialogueState(current_node="a"), appended, SCENARIO)
    records = await store.records("s")
    assert [h.message for h in records.history] == ["u8", "r8", "u9", "r9"]
    assert [r.turn for r in records.transcript] == [8, 9]
    assert await store._redis.llen(store._key("transcript", "s")) == 4
    await store.aclose()


async def test_state_expires_in_redis(redis_url: str) -> None:
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:8]}", state_ttl_s=1)
    turn = Records(transcript=[row(1, None, "y")])
    await store.save(config(), DialogueState(current_node="a"), turn, SCENARIO, new=True)
    assert await store.load("s") is not None
    await asyncio.sleep(1.1)
    assert await store.load("s") is None
    assert await store._redis.exists(*(store._key(k, "s") for k in ("config", "transcript"))) == 0
    await store.aclose()


async def test_a_worker_without_the_scenario_loads_it_from_redis_once(redis_url: str) -> None:
    settings = Settings(DIALOGKIT_REDIS_URL=redis_url)
    one = Engine(settings, router=OfflineRouter(), skills=RecordingSkills())
    two = Engine(settings, router=OfflineRouter(), skills=RecordingSkills())
    session = await one.astart(make_graph(NODES), bot_first=True)
    assert len(two.scenarios) == 0
    await two.amessage(session.id, "hello")
    cached = two.scenarios.get(SCENARIO.fingerprint)
    assert cached is not None
    await two.amessage(session.id, "again")
    assert two.scenarios.get(SCENARIO.fingerprint) is cached
    await one.aclose()
    await two.aclose()


async def test_lock_serializes_across_store_instances(redis_url: str) -> None:
    prefix = f"t{uuid.uuid4().hex[:8]}"
    first, second = RedisStore(redis_url, prefix=prefix), RedisStore(redis_url, prefix=prefix)
    order: list[str] = []

    async def hold(store: RedisStore, name: str) -> None:
        async with store.lock("s"):
            order.append(f"{name}+")
            await asyncio.sleep(0.1)
            order.append(f"{name}-")

    await asyncio.gather(hold(first, "a"), hold(second, "b"))
    assert order in (["a+", "a-", "b+", "b-"], ["b+", "b-", "a+", "a-"])
    await first.aclose()
    await second.aclose()


async def test_busy_session_raises_after_the_wait(redis_url: str) -> None:
    prefix = f"t{uuid.uuid4().hex[:8]}"
    holder = RedisStore(redis_url, prefix=prefix)
    waiter = RedisStore(redis_url, prefix=prefix, lock_wait_s=0.2)
    async with holder.lock("s"):
        with pytest.raises(SessionBusy):
            async with waiter.lock("s"):
                pass
    await holder.aclose()
    await waiter.aclose()


async def test_waiting_turns_queue_in_their_worker_and_poll_redis_with_backoff(
    redis_url: str,
) -> None:
    """Two hundred turns waiting 1 s for a session held by another worker cost a few dozen
    Redis commands, not one per waiter every 10 ms (20,000); then all of them run in turn."""
    prefix = f"t{uuid.uuid4().hex[:8]}"
    holder = RedisStore(redis_url, prefix=prefix)
    waiter = RedisStore(redis_url, prefix=prefix, lock_wait_s=30)
    stats = Redis.from_url(redis_url)
    done: list[int] = []

    async def turn(number: int) -> None:
        async with waiter.lock("s"):
            done.append(number)

    try:
        async with holder.lock("s"):
            before = (await stats.info("stats"))["total_commands_processed"]
            waiting = [asyncio.ensure_future(turn(n)) for n in range(200)]
            await asyncio.sleep(1.0)
            during = (await stats.info("stats"))["total_commands_processed"] - before
        await asyncio.wait_for(asyncio.gather(*waiting), 30)
    finally:
        await holder.aclose()
        await waiter.aclose()
        await stats.aclose()
    assert during < 100, during
    assert done == list(range(200))  # first come, first served inside the worker


async def test_two_engines_share_sessions_through_redis(redis_url: str) -> None:
    settings = Settings(DIALOGKIT_REDIS_URL=redis_url)
    one = Engine(settings, router=OfflineRouter(), skills=RecordingSkills())
    two = Engine(settings, router=OfflineRouter(), skills=RecordingSkills())
    assert isinstance(one.store, RedisStore)
    session = await one.astart(make_graph(NODES), bot_first=True)
    replies = await asyncio.gather(
        *(engine.amessage(session.id, f"m{i}") for i, engine in enumerate([one, two] * 5))
    )
    assert sorted(r.turn_count for r in replies) == list(range(2, 12))
    info = await two.ainfo(session.id)
    assert info.turn_count == 11
    with pytest.raises(SessionNotFound):
        await two.amessage("missing", "hi")
    await one.aclose()
    await two.aclose()


async def test_a_turn_saved_after_its_config_vanished_writes_it_again(store: RedisStore) -> None:
    session = config()
    await store.save(session, DialogueState(current_node="a"), Records(), SCENARIO, new=True)
    await store._redis.delete(
        store._key("config", "s"), store._key("scenario", SCENARIO.fingerprint)
    )
    await store.save(session, DialogueState(current_node="a", turn_count=5), Records(), SCENARIO)
    stored = await store.load("s")
    assert stored is not None and stored.state.turn_count == 5
    assert await store.scenario(SCENARIO.fingerprint) is not None
