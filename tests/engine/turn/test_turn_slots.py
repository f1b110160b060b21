"""Accepting slot values: the one policy, on a hand-built node and NLU result."""

from __future__ import annotations

from typing import Any

from dialogkit.engine.turn.slots import (
    accept_values,
    expected_slot,
    missing_slots,
    own_phrases,
    skill_values,
)
from dialogkit.nlu._result import NLUResult
from tests.engine.turn.parts import node, scenario, when

SLOTS = {
    "size": {"type": "enum", "values": ["small", "large"]},
    "cups": {"type": "integer", "validation": {"min": 1, "max": 9}},
    "note": {"type": "text"},
    "code": {"type": "pattern", "pattern": "[A-Z]{2}[0-9]{2}"},
}
ORDER = node(
    "order",
    collect_slots=["size", "cups"],
    accept_slots=["note", "code"],
    next_nodes=[when("nlu.intent", "equals", "deny", target="done")],
)
GRAPH = scenario([ORDER, node("done")], slots=SLOTS)


def accept(
    entities: dict[str, Any],
    *,
    text: str = "",
    intent: str | None = None,
    slots: dict[str, Any] | None = None,
    context: dict[str, Any] | None = None,
    distinctive_only: bool = False,
) -> dict[str, Any]:
    return accept_values(
        GRAPH,
        GRAPH.node("order"),
        NLUResult(intent=intent, entities=entities),
        slots or {},
        context or {},
        text=text,
        today=None,
        distinctive_only=distinctive_only,
    )


def test_only_slots_the_node_collects_or_accepts_and_only_valid_values() -> None:
    assert accept({"size": "large", "cups": 2, "other": "x"}, text="two large") == {
        "size": "large",
        "cups": 2,
    }
    assert accept({"cups": 40}, text="forty") == {}


def test_before_global_transitions_only_distinctive_values_count() -> None:
    entities = {"size": "small", "cups": 2, "note": "no sugar"}
    assert accept(entities, text="two small, no sugar", distinctive_only=True) == {"size": "small"}


def test_open_values_do_not_count_when_the_node_reads_its_own_intent() -> None:
    entities = {"note": "no thanks"}
    assert accept(entities, text="no thanks", intent="deny") == {}
    assert accept(entities, text="no thanks") == entities


def test_an_unasked_text_value_does_not_ride_along_with_a_typed_one() -> None:
    entities = {"size": "small", "note": "no thanks"}
    assert accept(entities, text="no thanks, small") == {"size": "small"}


def test_a_question_is_no_text_value() -> None:
    assert accept({"note": "is it hot"}, text="is it hot?") == {}


def test_a_phrase_the_bot_holds_is_no_identifier() -> None:
    context = {"voucher": "AB12"}
    assert accept({"code": "AB12"}, text="AB12", context=context) == {}
    assert accept({"code": "CD34"}, text="CD34", context=context) == {"code": "CD34"}


def test_own_phrases_are_the_persona_then_lettered_context_and_slot_values() -> None:
    context = {"bot_name": "Dana", "count": 3}
    slots = {"note": "x1", "cups": 2}
    persona = GRAPH.document.prompts.bot
    assert own_phrases(persona, (context, slots)) == (persona, "Dana", "x1")
    assert own_phrases(persona, (context, slots), "note") == (persona, "Dana")


def test_missing_and_expected_slots_follow_the_node_order() -> None:
    order = GRAPH.node("order")
    assert missing_slots(order, {"cups": 2, "size": ""}) == ["size"]
    assert expected_slot(order, {"size": "small"}) == "cups"
    assert expected_slot(order, {"size": "small", "cups": 1}) is None


def test_skill_values_are_typed_as_their_slot_or_dropped() -> None:
    updates = {"cups": "3", "size": "huge", "unknown": 1, "note": None}
    assert skill_values(GRAPH, GRAPH.node("order"), updates) == {"cups": 3, "note": None}


def test_a_question_offering_a_value_gives_its_typed_values_only() -> None:
    assert accept({"cups": 2}, text="is 2 ok?") == {"cups": 2}
    assert accept({"size": "large"}, text="large, is that possible?") == {"size": "large"}
    assert accept({"cups": 2, "note": "is 2 ok?"}, text="is 2 ok?") == {"cups": 2}
    assert accept({"cups": 2}, text="how much are 2 cups?") == {}
    assert accept({"cups": 2}, text="are 2 cups enough for four people?") == {}
