"""A decline said to an optional note ("any requests?" - "I'll pass", "遠慮しておきます",
"패스할게요", "特にないです、大丈夫です") turns down the note, not the booking: a no where the
note step takes one, the note as said where it does not, and never the scenario's cancel. The
same words at a step that needs its answer still call the request off, and a note answer that
names what it calls off ("I'd rather not go ahead with the booking") still does."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse

CANCEL = {
    "en": ["cancel the booking", "never mind, forget it", "I don't want to book anymore"],
    "ja": ["予約をキャンセルしたい", "やっぱりやめておきます", "なしにしてください"],
    "ko": ["예약 취소할게요", "그냥 안 할래요", "없던 걸로 해 주세요"],
}


def _on(intent: str, target: str) -> dict[str, Any]:
    return {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
        "target": target,
    }


def _scenario(language: str, *, note_denies: bool) -> Scenario:
    """A name step, an optional note step (a no moves on with ``note_denies``), a read-back,
    and a cancel intent usable everywhere."""
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


DECLINES = [
    ("en", "I'll pass"),
    ("en", "nah, I'll pass, thanks"),
    ("en", "I'll give it a miss"),
    ("ja", "遠慮しておきます"),
    ("ja", "特にないです、大丈夫です"),
    ("ja", "今回は結構です"),
    ("ja", "いえ、なしで大丈夫です"),
    ("ko", "패스할게요"),
    ("ko", "괜찮습니다"),
    ("ko", "저는 사양할게요"),
]


@pytest.mark.parametrize(("language", "said"), DECLINES)
def test_a_declined_note_is_a_no_where_the_note_step_takes_one(language: str, said: str) -> None:
    read = analyse(_scenario(language, note_denies=True), "ask_note", said, "note", {"name": "Kim"})
    assert read.intent == "deny" and "note" not in read.entities, read


@pytest.mark.parametrize(("language", "said"), DECLINES)
def test_a_declined_note_is_the_note_where_no_no_is_taken(language: str, said: str) -> None:
    read = analyse(
        _scenario(language, note_denies=False), "ask_note", said, "note", {"name": "Kim"}
    )
    assert read.intent is None and read.entities.get("note"), read


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "I'll pass"),
        ("ja", "遠慮しておきます"),
        ("ko", "패스할게요"),
    ],
)
def test_a_decline_where_the_answer_is_needed_calls_the_request_off(
    language: str, said: str
) -> None:
    read = analyse(_scenario(language, note_denies=True), "ask_name", said, "name")
    assert read.intent == "cancel" and "name" not in read.entities, read


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Actually, I'd rather not go ahead with this"),
        ("ja", "やっぱり予約はやめておきます"),
        ("ko", "그냥 예약 안 할게요"),
    ],
)
@pytest.mark.parametrize("note_denies", [True, False])
def test_a_note_answer_that_calls_the_booking_off_still_cancels(
    language: str, said: str, note_denies: bool
) -> None:
    read = analyse(_scenario(language, note_denies=note_denies), "ask_note", said, "note")
    assert read.intent == "cancel", read


@pytest.mark.parametrize(
    ("language", "said"),
    [("ja", "大丈夫です"), ("ja", "いいです")],
)
def test_the_same_fine_at_a_read_back_is_still_a_yes(language: str, said: str) -> None:
    filled = {"name": "Kim", "note": "window seat"}
    read = analyse(_scenario(language, note_denies=True), "confirm", said, None, filled)
    assert read.intent == "affirm", read
