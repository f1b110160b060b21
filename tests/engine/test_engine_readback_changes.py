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


DAY: dict[str, Any] = {
    "day": {"type": "date", "prompt": "Which day?"},
    "note": {"type": "text", "prompt": "Any note?"},
}


@pytest.mark.parametrize(
    ("language", "day", "chat"),
    [
        ("en", "November 30", "nice weather today"),
        ("ko", "11월 30일이요", "오늘 날씨 진짜 좋네요"),
        ("ja", "11月30日です", "今日はいい天気ですね"),
        ("ja", "11月30日です", "今日はすごい雨ですね"),
        ("ja", "11月30日です", "今日はずいぶん冷えますね"),
        ("ja", "11月30日です", "今日は寒くてたまりません"),
        ("ko", "11월 30일이요", "오늘 비가 엄청 오네요"),
        ("en", "November 30", "it's freezing today"),
    ],
)
def test_small_talk_with_a_day_word_leaves_a_filled_date(
    engine: Engine, language: str, day: str, chat: str
) -> None:
    nodes = [
        {
            "id": "ask_day",
            "description": "Day.",
            "collect_slots": ["day"],
            "default_next": "ask_note",
        },
        {
            "id": "ask_note",
            "description": "Note.",
            "collect_slots": ["note"],
            "accept_slots": ["day"],
            "default_next": "end",
        },
        {"id": "end", "description": "End.", "terminal": True},
    ]
    graph = make_graph(nodes, slots=DAY, language=language)
    session = engine.start(graph, bot_first=True, user={"date_time": "2026-11-25T10:00:00"})
    session.send(day)
    assert session.info().slots["day"] == "2026-11-30"
    session.send(chat)
    assert session.info().slots["day"] == "2026-11-30"


@pytest.mark.parametrize(
    ("language", "chat", "booking"),
    [
        ("en", "it's freezing today", "I'd like to book for November 30"),
        ("ko", "오늘 날씨 진짜 춥네요.", "11월 30일로 예약하고 싶어요"),
        ("ja", "いやー、今日はすごい雨ですね。", "11月30日に予約したいです"),
    ],
)
def test_a_value_refused_at_a_greeting_starts_nothing(
    engine: Engine, language: str, chat: str, booking: str
) -> None:
    """A transition on "nlu.entities.day exists" reads what the turn accepted: small talk
    that names today is no booking date, so the greeting does not move on."""
    nodes = [
        {
            "id": "welcome",
            "description": "Greet.",
            "accept_slots": ["day"],
            "next_nodes": [
                {
                    "condition": {"field": "nlu.entities.day", "operator": "exists"},
                    "target": "ask_note",
                }
            ],
        },
        {"id": "ask_note", "description": "Note.", "collect_slots": ["note"]},
    ]
    graph = make_graph(nodes, slots=DAY, language=language)
    session = engine.start(graph, bot_first=True, user={"date_time": "2026-11-25T10:00:00"})
    assert session.send(chat).current_node == "welcome"
    assert "day" not in session.info().slots
    assert session.send(booking).current_node == "ask_note"
    assert session.info().slots["day"] == "2026-11-30"


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("2026-11-30, 12:45", None),
        ("555-201-3344", "5552013344"),
        ("010 2345 6789", "010-2345-6789"),
    ],
)
def test_digits_of_a_date_or_a_time_are_no_phone(text: str, phone: str | None) -> None:
    from dialogkit.nlu._entities import INVALID, extract_phone

    found = extract_phone(text)
    assert (None if found is INVALID else found) == phone


@pytest.mark.parametrize(
    ("language", "asks", "prompt", "answer"),
    [
        ("en", "How many packs of metformin?", "How many packs?", "Maria"),
        ("ko", "몇 시에 작업을 시작할까요?", "몇 시에 시작할까요?", "김지훈이요"),
        ("ja", "到着は何時ごろになりますか？", "到着は何時ですか？", "田中です"),
    ],
)
def test_a_node_that_already_asks_is_not_followed_by_the_slot_prompt(
    engine: Engine, language: str, asks: str, prompt: str, answer: str
) -> None:
    slots = {
        "name": {"type": "text", "kind": "person_name", "prompt": "?"},
        "count": {"type": "integer", "prompt": prompt},
        "extra": {"type": "integer", "prompt": prompt + "!"},
    }
    nodes = [
        {
            "id": "ask_name",
            "description": "Name.",
            "collect_slots": ["name"],
            "default_next": "ask",
        },
        {
            "id": "ask",
            "description": "Count.",
            "responses": {"default": asks},
            "collect_slots": ["count", "extra"],
            "default_next": "end",
        },
        {"id": "end", "description": "End.", "terminal": True},
    ]
    session = engine.start(make_graph(nodes, slots=slots, language=language), bot_first=True)
    assert session.send(answer).response == asks
    # Once the first slot has a value, the reply asks for the next one.
    assert session.send("2").response.endswith(prompt + "!")
