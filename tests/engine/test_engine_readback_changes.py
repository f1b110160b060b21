"""A read-back whose only transitions are yes and no still takes a changed value: the turn
used the input, so the node stays and reads the corrected values back (no fallback, no
silently dropped change)."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine
from tests.helpers import make_graph

SLOTS: dict[str, Any] = {
    "party": {"type": "integer", "kind": "count", "unit": "people", "prompt": "How many?"},
    "at": {"type": "time", "prompt": "What time?"},
}


def when_intent(intent: str, target: str) -> dict[str, Any]:
    return {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
        "target": target,
    }


def readback(language: str) -> dict[str, Any]:
    nodes = [
        {
            "id": "ask",
            "description": "Ask.",
            "collect_slots": ["party", "at"],
            "default_next": "confirm",
        },
        {
            "id": "confirm",
            "description": "Read back.",
            "responses": {"default": "{party} / {at} ?"},
            "accept_slots": ["party", "at"],
            "next_nodes": [when_intent("affirm", "done"), when_intent("deny", "fix")],
        },
        {"id": "fix", "description": "Fix.", "terminal": True},
        {"id": "done", "description": "Done.", "terminal": True},
    ]
    return make_graph(nodes, slots=SLOTS, language=language)


@pytest.mark.parametrize(
    ("language", "first", "change", "slot", "value", "yes"),
    [
        ("en", ["2 people", "4 pm"], "no, make it 5 pm instead", "at", "17:00", "yes"),
        ("en", ["2 people", "4 pm"], "change it to 4 people", "party", 4, "yes"),
        ("ko", ["2명이요", "오후 4시요"], "아니요, 시간은 10시로 바꿔 주세요", "at", "10:00", "네"),
        ("ja", ["2名です", "16時です"], "いいえ、3名です", "party", 3, "はい"),
    ],
)
def test_a_changed_value_at_a_yes_no_readback_stays_and_reads_back(
    engine: Engine,
    language: str,
    first: list[str],
    change: str,
    slot: str,
    value: Any,
    yes: str,
) -> None:
    session = engine.start(readback(language), bot_first=True)
    for text in first:
        session.send(text)
    assert session.info().current_node == "confirm"
    reply = session.send(change)
    assert reply.current_node == "confirm"
    assert session.info().slots[slot] == value
    assert str(value) in reply.response
    assert session.send(yes).current_node == "done"


def test_the_same_value_again_at_a_readback_is_no_change(engine: Engine) -> None:
    session = engine.start(readback("en"), bot_first=True)
    for text in ("2 people", "4 pm"):
        session.send(text)
    before = session.info().slots
    reply = session.send("4 pm")
    assert session.info().slots == before
    assert reply.current_node == "confirm"
