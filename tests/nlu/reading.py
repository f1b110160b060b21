"""What the rule NLU reads at a node of a whole scenario, as the turn would ask it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialogkit import Scenario
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU
from tests.helpers import make_graph


def analyse(
    scenario: Scenario,
    node_id: str,
    text: str,
    expected: str | None,
    filled: dict[str, Any] | None = None,
    user: dict[str, Any] | None = None,
) -> NLUResult:
    """What the rules NLU reads in ``text`` at ``node_id`` asking for ``expected``, with the
    intents and slots the scenario's index gives that node (and the session's ``user``, whose
    clock relative dates count from)."""
    return RuleNLU().analyse(request_at(scenario, node_id, text, expected, filled, user))


def request_at(
    scenario: Scenario,
    node_id: str,
    text: str,
    expected: str | None = None,
    filled: dict[str, Any] | None = None,
    user: dict[str, Any] | None = None,
) -> NLURequest:
    """The request a turn makes of the NLU at ``node_id`` (see ``analyse``)."""
    node = scenario.node(node_id)
    return NLURequest(
        scenario=scenario,
        node=node,
        text=text,
        intents=scenario.index.intents,
        slots=scenario.index.node(node.id).slots,
        expected_slot=expected,
        filled_slots=filled or {},
        user=user or {},
    )


def nothing_to_add(scenario: Callable[..., Scenario], text: str) -> tuple[NLUResult, NLUResult]:
    """What the rules read in ``text`` at the note step of ``scenario(note_denies=...)``,
    checked to be "nothing to add": a no where a no moves on (the note left empty), and the
    note itself where nothing takes a no."""
    denied = analyse(scenario(note_denies=True), "ask_note", text, "note")
    assert denied.intent == "deny" and "note" not in denied.entities, denied
    noted = analyse(scenario(), "ask_note", text, "note")
    assert noted.intent is None and noted.entities.get("note"), noted
    return denied, noted


def _on(intent: str, target: str) -> dict[str, Any]:
    return {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
        "target": target,
    }


def read_back_scenario(
    language: str, questions: tuple[str, str, str], *, note_denies: bool = False
) -> Scenario:
    """A note step, a name step, a time step that also takes the date, and a read-back
    taking a yes and a no, in ``language`` (``questions``: how the note, the name and the
    time are asked). Goodbye ends it anywhere; help and repeat go back to the name step.
    With ``note_denies`` a no at the note step moves on, so "nothing to add" is a no there
    rather than the note."""
    note, name, time = questions
    nodes: list[dict[str, Any]] = [
        {
            "id": "ask_note",
            "description": "Ask for a note.",
            "collect_slots": ["note"],
            "next_nodes": [_on("deny", "ask_name")] if note_denies else [],
            "default_next": "ask_name",
        },
        {
            "id": "ask_name",
            "description": "Ask the name.",
            "collect_slots": ["name"],
            "default_next": "ask_time",
        },
        {
            "id": "ask_time",
            "description": "Ask the time.",
            "collect_slots": ["time"],
            "accept_slots": ["date"],
            "default_next": "confirm",
        },
        {
            "id": "confirm",
            "description": "Read back.",
            "accept_slots": ["date", "time", "name"],
            "next_nodes": [_on("affirm", "end"), _on("deny", "ask_time")],
        },
        {"id": "end", "description": "End.", "terminal": True},
    ]
    slots = {
        "note": {"type": "text", "prompt": note},
        "name": {"type": "text", "kind": "person_name", "prompt": name},
        "date": {"type": "date", "prompt": "?"},
        "time": {"type": "time", "prompt": time},
    }
    return Scenario.from_dict(
        make_graph(
            nodes,
            language=language,
            slots=slots,
            global_transitions=[
                _on("goodbye", "end"),
                _on("help", "ask_name"),
                _on("repeat", "ask_name"),
            ],
        )
    )


def intent_step(language: str, intents: dict[str, Any], after: dict[str, Any]) -> Scenario:
    """A first step, ``start``, that goes to the node ``after`` on each of ``intents``."""
    on = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": name},
            "target": after["id"],
        }
        for name in intents
    ]
    nodes = [{"id": "start", "next_nodes": on}, after]
    return Scenario.from_dict(make_graph(nodes, language=language, intents=intents))


CANCEL: dict[str, list[str]] = {
    "en": ["cancel the booking", "never mind, forget it", "I don't want to book anymore"],
    "ja": ["予約をキャンセルしたい", "やっぱりやめておきます", "なしにしてください"],
    "ko": ["예약 취소할게요", "그냥 안 할래요", "없던 걸로 해 주세요"],
}


def note_scenario(language: str, *, note_denies: bool) -> Scenario:
    """A name step, an optional note step (a no moves on with ``note_denies``), a read-back,
    and a cancel intent usable everywhere, in ``language``."""
    nodes: list[dict[str, Any]] = [
        {"id": "ask_name", "collect_slots": ["name"], "default_next": "ask_note"},
        {
            "id": "ask_note",
            "collect_slots": ["note"],
            "next_nodes": [_on("deny", "confirm")] if note_denies else [],
            "default_next": "confirm",
        },
        {
            "id": "confirm",
            "accept_slots": ["name", "note"],
            "next_nodes": [_on("affirm", "end"), _on("deny", "ask_name")],
        },
        {"id": "end", "terminal": True},
        {"id": "cancelled", "terminal": True},
    ]
    slots = {
        "name": {"type": "text", "kind": "person_name", "prompt": "Your name?"},
        "note": {"type": "text", "prompt": "Any requests?"},
    }
    intents = {
        "cancel": {"description": "The user calls the booking off.", "examples": CANCEL[language]}
    }
    return Scenario.from_dict(
        make_graph(
            nodes,
            language=language,
            slots=slots,
            intents=intents,
            global_transitions=[_on("cancel", "cancelled")],
        )
    )
