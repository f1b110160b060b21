"""Plain data inside, pydantic at the edges: the memory store keeps each session's parsed
config and live state (no JSON round trip per turn), yet a turn still works on a private copy;
a scenario is validated once; the store's codecs carry the plain records across."""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import DialogueState, Records, SessionConfig, TurnRecord, Visit
from dialogkit.scenario import scenario as scenario_module
from dialogkit.store import _base as store_base
from dialogkit.store._base import STATE, TURN_RECORD, VISIT, decode_records, encode_records
from dialogkit.store._memory import MemoryStore
from dialogkit.usage import Usage
from dialogkit.wire import HistoryEntry
from tests.helpers import COFFEE, RecordingSkills


def busy_state() -> DialogueState:
    usage = Usage()
    usage.record("nlu", "m", prompt_tokens=3)
    return DialogueState(
        current_node="a",
        slots={"size": "large", "toppings": ["milk", {"extra": ["foam"]}]},
        context={"skill": {"items": [1, 2]}, "n": 1},
        history=[HistoryEntry(role="user", message="hi")],
        said=["hello"],
        visits=["a"],
        usage=usage,
    )


def test_a_state_copy_shares_nothing_a_turn_can_change() -> None:
    state = busy_state()
    copy = state.copy()
    assert copy == state
    copy.slots["toppings"][1]["extra"].append("ice")
    copy.context["skill"]["items"].append(3)
    copy.history.append(HistoryEntry(role="assistant", message="x"))
    copy.said.append("x")
    copy.visits.append("b")
    copy.usage.record("nlu", "m")
    assert state == busy_state()


def test_the_state_codec_round_trips_plain_data() -> None:
    state = busy_state()
    assert STATE.decode(STATE.encode(state)) == state
    row = TurnRecord(turn=1, user_text="a\ud800", node_before="a", node_after="b", reply="r")
    # Text UTF-8 cannot carry is repaired, never a failed save.
    assert TURN_RECORD.decode(TURN_RECORD.encode(row)).user_text == "a\ufffd"
    records = Records(transcript=[row], visits=[Visit(node="b", source="a")])
    raw = {kind: items for kind, items in encode_records(records)}
    decoded = decode_records(raw, (), store_base.RecordLimits())
    assert decoded.visits == records.visits and decoded.transcript[0].node_after == "b"
    assert VISIT.encode(Visit(node="b")) == b'{"node":"b","source":null}'


async def test_the_memory_store_keeps_parsed_objects_and_hands_out_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_json(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the memory store parsed JSON")

    monkeypatch.setattr(SessionConfig, "model_validate_json", no_json)
    monkeypatch.setattr(STATE, "decode", no_json)
    monkeypatch.setattr(STATE, "encode", no_json)
    engine = Engine(router=OfflineRouter(), skills=RecordingSkills(), store=MemoryStore())
    scenario = Scenario.from_file(COFFEE)
    session = await engine.astart(scenario)
    await session.asend("a latte please")
    first = await engine.store.load(session.id)
    second = await engine.store.load(session.id)
    assert first is not None and second is not None
    assert first.config is second.config  # never changes: shared, not validated again
    assert first.state == second.state and first.state is not second.state
    first.state.slots["drink"] = "tea"
    first.state.history.clear()
    again = await engine.store.load(session.id)
    assert again is not None and again.state.slots["drink"] == "latte" and again.state.history
    with pytest.raises(Exception, match="frozen"):
        first.config.llm_choice = "x"  # type: ignore[misc]
    await engine.aclose()


def test_a_scenario_from_a_dict_is_validated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    validate = scenario_module.validate_document

    def counting(data: Any) -> Any:
        calls.append(data)
        return validate(data)

    monkeypatch.setattr(scenario_module, "validate_document", counting)
    scenario = Scenario.from_dict(json.loads(COFFEE.read_text(encoding="utf-8")))
    scenario.ensure_valid()
    assert scenario.validate() is scenario.validate()
    assert len(calls) == 1


# Collecting may finalize what earlier tests leaked; that is not this test's business.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_frozen_state_thaws_equal_and_leaves_the_collector_alone() -> None:
    state = busy_state()
    state.usage = Usage()  # counters would make the snapshot hold a (tracked) model
    frozen = state.freeze()
    assert DialogueState.thaw(frozen) == state
    # Each collection untracks one more level of nested tuples.
    for _ in range(8):
        gc.collect()
    assert not gc.is_tracked(frozen)


async def test_the_memory_store_reads_back_the_records_it_was_given() -> None:
    store = MemoryStore()
    scenario = Scenario.from_file(COFFEE)
    config = SessionConfig(session_id="s", scenario_key=scenario.fingerprint)
    row = TurnRecord(
        turn=1,
        user_text="a latte",
        confidence=0.5,
        intent="order",
        entities={"drink": "latte", "extras": ["foam"]},
        node_before="welcome",
        node_after="take_order",
        reply="Which size?",
        latency_ms=0.25,
    )
    visits = [Visit(node="take_order", source="welcome")]
    records = Records(transcript=[row], visits=visits)
    await store.save(config, DialogueState(current_node="a"), records, scenario, new=True)
    row.entities["extras"].append("ice")  # the caller's row (a reply's trace) is its own
    read = await store.records("s")
    assert read.transcript == [
        TurnRecord(**{**row.as_dict(), "entities": {"drink": "latte", "extras": ["foam"]}})
    ]
    assert read.visits == visits
    assert [(h.role, h.message) for h in read.history] == [
        ("user", "a latte"),
        ("assistant", "Which size?"),
    ]
