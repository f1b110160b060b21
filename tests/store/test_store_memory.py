"""The memory store: TTLs, expiry on access, records and their limits, bounded growth under
churn, per-session locks."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from dialogkit import Engine, SessionNotFound
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import DialogueState, Records, SessionConfig, Visit
from dialogkit.errors import SessionBusy
from dialogkit.scenario.scenario import Scenario
from dialogkit.store._base import RecordLimits
from dialogkit.store._memory import MemoryStore
from tests.helpers import RecordingSkills, make_graph
from tests.helpers import transcript_row as row


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


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


def config(session_id: str, clock: Clock | None = None) -> SessionConfig:
    created = clock() if clock is not None else time.time()
    return SessionConfig(
        session_id=session_id, scenario_key=SCENARIO.fingerprint, created_at=created
    )


async def save(
    store: MemoryStore, session_id: str, node: str = "a", *, new: bool = False, **records: Any
) -> float:
    clock = store._clock  # the store's own (fake) clock
    state = DialogueState(current_node=node)
    return await store.save(
        config(session_id, clock),  # type: ignore[arg-type]
        state,
        Records(**records),
        SCENARIO,
        new=new,
    )


async def test_state_expires_after_its_ttl_and_save_renews_it() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    await save(store, "s", new=True)
    clock.now += 3599
    assert await store.load("s") is not None
    await save(store, "s", "b")
    clock.now += 3599
    stored = await store.load("s")
    assert stored is not None and stored.state.current_node == "b"
    assert stored.expires_at == pytest.approx(clock.now + 1)
    clock.now += 1
    assert await store.load("s") is None


async def test_config_lives_24_hours_at_most() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    session = config("s", clock)
    await store.save(session, DialogueState(current_node="a"), Records(), SCENARIO, new=True)
    for _ in range(24):
        clock.now += 3599
        await store.save(session, DialogueState(current_node="a"), Records(), SCENARIO)
    assert clock.now < session.created_at + 24 * 3600
    assert await store.load("s") is not None
    clock.now = session.created_at + 24 * 3600
    assert await store.load("s") is None


async def test_load_returns_a_copy() -> None:
    store = MemoryStore()
    await save(store, "s", new=True)
    stored = await store.load("s")
    assert stored is not None
    stored.state.slots["x"] = 1
    again = await store.load("s")
    assert again is not None and again.state.slots == {}


async def test_records_are_appended_and_read_back_in_order() -> None:
    store = MemoryStore()
    await save(store, "s", new=True, transcript=[row(1, None, "hi")], visits=[Visit(node="a")])
    await save(store, "s", transcript=[row(2, "x\ny", "z")], visits=[Visit(node="b", source="a")])
    records = await store.records("s")
    assert [(h.role, h.message) for h in records.history] == [
        ("assistant", "hi"),
        ("user", "x\ny"),
        ("assistant", "z"),
    ]
    assert [r.turn for r in records.transcript] == [1, 2]
    assert records.transitions == [("a", "b")] and records.path == ["a", "b"]
    only_visits = await store.records("s", "visits")
    assert only_visits.history == [] and only_visits.transcript == []
    assert await store.records("missing") == Records()


async def test_records_keep_the_most_recent_entries_at_the_limit() -> None:
    store = MemoryStore(limits=RecordLimits(history=5, transcript=3))
    await save(store, "s", new=True)
    for turn in range(40):
        await save(store, "s", transcript=[row(turn, f"u{turn}", f"r{turn}")])
        records = await store.records("s")
        everything = [m for t in range(turn + 1) for m in (f"u{t}", f"r{t}")]
        assert [h.message for h in records.history] == everything[-5:]
        assert [r.turn for r in records.transcript] == list(range(turn + 1))[-3:]
    assert store._sessions["s"].transcript.count <= 5 + 1


async def test_expired_sessions_are_freed_with_their_scenario() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    for index in range(300):
        await save(store, f"old{index}", new=True)
    assert store.size[:2] == (300, 1)
    clock.now += 3601
    await save(store, "new", new=True)
    assert store.size[:2] == (1, 1)
    clock.now += 3601
    store.sweep()
    assert store.size[:2] == (0, 0)


async def test_memory_stays_flat_under_steady_churn() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock, state_ttl_s=60)
    sizes = []
    for second in range(1200):
        clock.now += 1
        for index in range(5):
            await save(store, f"s{second}-{index}", new=True)
        if second % 100 == 99:
            sizes.append(store.size[0] + len(store._expiry))
    # 5 new sessions a second that live 60 s: about 300 alive, never more than 310.
    assert all(300 <= size <= 2 * 310 for size in sizes), sizes
    assert max(len(store._sessions), len(store._expiry)) <= 310


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
    records = await engine.arecords(session.id)
    users = [h.message for h in records.history if h.role == "user"]
    assert sorted(users) == sorted(f"message {i}" for i in range(20))
    assert (await engine.astate(session.id)).turn_count == 21


async def test_a_turn_that_waits_past_the_lock_wait_is_busy_and_applies_nothing() -> None:
    store = MemoryStore(lock_wait_s=0.2)
    engine = Engine(store=store, router=OfflineRouter(), skills=RecordingSkills())
    graph = make_graph(
        [
            {
                "id": "talk",
                "description": "Talk.",
                "responses": {"default": "Go on."},
                "next_nodes": [{"action": "stay"}],
            }
        ]
    )
    session = await engine.astart(graph, bot_first=True)
    async with store.lock(session.id):  # a long turn holds the session
        with pytest.raises(SessionBusy) as busy:
            await engine.amessage(session.id, "hello")
    assert busy.value.retry_after_s == 1 and "DIALOGKIT_LOCK_WAIT_S" in str(busy.value)
    assert (await engine.ainfo(session.id)).turn_count == 1
    assert store.size[2] == 0  # no waiting line is left behind
    assert (await engine.amessage(session.id, "hello")).turn_count == 2
