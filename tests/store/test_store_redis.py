"""The Redis store against a real Redis server: the memory store's semantics, shared."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from dialogkit import Engine, SessionNotFound, Settings
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import DialogueState, SessionConfig
from dialogkit.store.redis import RedisStore, SessionBusy
from tests.helpers import RecordingSkills, make_graph

NODES = [
    {
        "id": "a",
        "description": "A.",
        "responses": {"default": "Say anything."},
        "next_nodes": [{"action": "stay"}],
    }
]


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:8]}")
    yield store
    await store.aclose()


async def test_config_and_state_round_trip(store: RedisStore) -> None:
    config = SessionConfig(session_id="s", scenario={"x": 1}, scenario_key="k", user={"name": "김"})
    await store.put_config(config)
    assert await store.get_config("s") == config
    state = DialogueState(current_node="a", slots={"n": 1}, turn_count=2)
    await store.put_state("s", state)
    stored = await store.get_state("s")
    assert stored is not None and stored.state == state
    assert 3590 < stored.ttl_s <= 3600
    assert await store.get_state("other") is None


async def test_state_expires_in_redis(redis_url: str) -> None:
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:8]}", state_ttl_s=1)
    await store.put_state("s", DialogueState(current_node="a"))
    assert await store.get_state("s") is not None
    await asyncio.sleep(1.1)
    assert await store.get_state("s") is None
    await store.aclose()


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
