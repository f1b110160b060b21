"""The memory store: TTLs, expiry on access, bounded growth, per-session locks."""

from __future__ import annotations

import asyncio

import pytest

from dialogkit import Engine, SessionNotFound
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import DialogueState, SessionConfig
from dialogkit.store.memory import SWEEP_EVERY, MemoryStore
from tests.helpers import RecordingSkills, make_graph


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def config(session_id: str) -> SessionConfig:
    return SessionConfig(session_id=session_id, scenario={}, scenario_key="k")


async def test_state_expires_after_its_ttl_and_save_renews_it() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    await store.put_state("s", DialogueState(current_node="a"))
    clock.now += 3599
    assert await store.get_state("s") is not None
    await store.put_state("s", DialogueState(current_node="b"))
    clock.now += 3599
    stored = await store.get_state("s")
    assert stored is not None and stored.state.current_node == "b"
    assert stored.expires_at == pytest.approx(clock.now + 1)
    clock.now += 1
    assert await store.get_state("s") is None


async def test_config_lives_24_hours_independently() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    await store.put_config(config("s"))
    clock.now += 24 * 3600 - 1
    assert await store.get_config("s") is not None
    clock.now += 1
    assert await store.get_config("s") is None


async def test_get_state_returns_a_copy() -> None:
    store = MemoryStore()
    await store.put_state("s", DialogueState(current_node="a"))
    stored = await store.get_state("s")
    assert stored is not None
    stored.state.slots["x"] = 1
    again = await store.get_state("s")
    assert again is not None and again.state.slots == {}


async def test_expired_entries_do_not_accumulate() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    for index in range(SWEEP_EVERY):
        await store.put_state(f"old{index}", DialogueState(current_node="a"))
    clock.now += 4000
    for index in range(SWEEP_EVERY):
        await store.put_state(f"new{index}", DialogueState(current_node="a"))
    assert store.size[1] == SWEEP_EVERY


async def test_lock_serializes_one_session_and_not_others() -> None:
    store = MemoryStore()
    order: list[str] = []

    async def hold(session_id: str, name: str) -> None:
        async with store.lock(session_id):
            order.append(f"{name}+")
            await asyncio.sleep(0.02)
            order.append(f"{name}-")

    await asyncio.gather(hold("s", "a"), hold("s", "b"), hold("t", "c"))
    assert order.index("a-") < order.index("b+")
    assert order.index("c+") < order.index("a-")
    assert store.size[2] == 0


def make_engine(clock: Clock) -> Engine:
    return Engine(router=OfflineRouter(), skills=RecordingSkills(), store=MemoryStore(clock=clock))


NODES = [
    {
        "id": "a",
        "description": "A.",
        "responses": {"default": "Say anything."},
        "next_nodes": [{"action": "stay"}],
    }
]


async def test_expired_session_is_not_found_on_message_and_info() -> None:
    clock = Clock()
    engine = make_engine(clock)
    session = await engine.astart(make_graph(NODES), bot_first=True)
    clock.now += 3601
    with pytest.raises(SessionNotFound):
        await session.asend("hi")
    with pytest.raises(SessionNotFound):
        await session.ainfo()


async def test_every_save_renews_the_session(engine: Engine) -> None:
    clock = Clock()
    engine = make_engine(clock)
    session = await engine.astart(make_graph(NODES), bot_first=True)
    for _ in range(3):
        clock.now += 3000
        await session.asend("still here")
    info = await session.ainfo()
    assert info.ttl_seconds == 3600


async def test_unknown_and_empty_ids_are_not_found(engine: Engine) -> None:
    for session_id in ("", "no-such-session"):
        with pytest.raises(SessionNotFound):
            await engine.amessage(session_id, "hi")
        with pytest.raises(SessionNotFound):
            await engine.ainfo(session_id)


async def test_concurrent_messages_to_one_session_lose_no_turn(engine: Engine) -> None:
    session = await engine.astart(make_graph(NODES), bot_first=True)
    replies = await asyncio.gather(*(session.asend(f"message {i}") for i in range(20)))
    assert sorted(r.turn_count for r in replies) == list(range(2, 22))
    state = await engine.astate(session.id)
    users = [h.message for h in state.history if h.role == "user"]
    assert sorted(users) == sorted(f"message {i}" for i in range(20))
    assert state.turn_count == 21
