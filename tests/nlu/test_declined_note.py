"""A decline said to an optional note ("any requests?" - "I'll pass", "遠慮しておきます",
"패스할게요", "特にないです、大丈夫です") turns down the note, not the booking: a no where the
note step takes one, the note as said where it does not, and never the scenario's cancel. The
same words at a step that needs its answer still call the request off, and a note answer that
names what it calls off ("I'd rather not go ahead with the booking") still does."""

from __future__ import annotations

import pytest

from tests.nlu.reading import analyse, note_scenario

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
    read = analyse(
        note_scenario(language, note_denies=True), "ask_note", said, "note", {"name": "Kim"}
    )
    assert read.intent == "deny" and "note" not in read.entities, read


@pytest.mark.parametrize(("language", "said"), DECLINES)
def test_a_declined_note_is_the_note_where_no_no_is_taken(language: str, said: str) -> None:
    read = analyse(
        note_scenario(language, note_denies=False), "ask_note", said, "note", {"name": "Kim"}
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
    read = analyse(note_scenario(language, note_denies=True), "ask_name", said, "name")
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
    read = analyse(note_scenario(language, note_denies=note_denies), "ask_note", said, "note")
    assert read.intent == "cancel", read


@pytest.mark.parametrize(
    ("language", "said"),
    [("ja", "大丈夫です"), ("ja", "いいです")],
)
def test_the_same_fine_at_a_read_back_is_still_a_yes(language: str, said: str) -> None:
    filled = {"name": "Kim", "note": "window seat"}
    read = analyse(note_scenario(language, note_denies=True), "confirm", said, None, filled)
    assert read.intent == "affirm", read
