"""Natural answers found by a third scout on unseen scenarios (a car service, an optician),
by class and language: "nothing" as a free note when the node has no use for a no, a
question that is no leave-taking, an aside that is no answer, a hesitation before a value,
a no followed by a value written with punctuation, a request about the speaker's own thing,
and a yes that goes on to change a value at a read-back."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import correction, is_aside, is_question, is_request
from tests.nlu.reading import analyse, read_back_scenario


def scenario(language: str, *, note_denies: bool = False) -> Scenario:
    """A note step, a name step, a time step that also accepts the date, a read-back."""
    questions = ("Any note?", "Your name?", "What time?")
    return read_back_scenario(language, questions, note_denies=note_denies)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("ko", "없어요"),
        ("ko", "특별히 없어요"),
        ("ko", "아니요 없어요"),
        ("en", "nothing"),
        ("en", "no, nothing else"),
        ("ja", "特にありません"),
    ],
)
def test_nothing_is_the_note_when_no_transition_takes_a_no(language: str, text: str) -> None:
    result = analyse(scenario(language), "ask_note", text, "note")
    assert result.intent is None
    assert result.entities.get("note")


@pytest.mark.parametrize(("language", "text"), [("ko", "특별히 없어요"), ("en", "nothing")])
def test_nothing_is_a_no_where_a_transition_takes_it(language: str, text: str) -> None:
    result = analyse(scenario(language, note_denies=True), "ask_note", text, "note")
    assert result.intent == "deny"
    assert "note" not in result.entities


@pytest.mark.parametrize(
    ("language", "text"),
    [("ko", "나중에 취소하면 위약금 있나요?"), ("ko", "나중에 예약 바꾸면 돈 들어요?")],
)
def test_a_question_never_takes_leave(language: str, text: str) -> None:
    assert is_question(text, language)
    assert analyse(scenario(language), "ask_name", text, "name").intent != "goodbye"


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "hold on, my phone is ringing"),
        ("en", "hmm, what was it again"),
        ("ko", "음... 뭐였더라"),
        ("ko", "잠깐만요, 전화가 와서요"),
        ("ja", "ええと、何だっけ"),
        ("ja", "ちょっと待ってください"),
    ],
)
def test_an_aside_fills_no_text(language: str, text: str) -> None:
    assert is_aside(text, language)
    assert "note" not in analyse(scenario(language), "ask_note", text, "note").entities


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "wait, 3 pm"),
        ("ko", "잠깐만요 3시요"),
        ("en", "a 2018 Honda Civic"),
        ("ko", "없어요"),
    ],
)
def test_an_answer_is_no_aside(language: str, text: str) -> None:
    assert not is_aside(text, language)


@pytest.mark.parametrize(
    ("language", "text", "name"),
    [
        ("en", "let me think, Liam Carter", "Liam Carter"),
        ("en", "let me see, Emma Johnson", "Emma Johnson"),
        ("ko", "그러니까 이지은", "이지은"),
    ],
)
def test_a_hesitation_is_not_part_of_the_value(language: str, text: str, name: str) -> None:
    assert analyse(scenario(language), "ask_name", text, "name").entities["name"] == name


@pytest.mark.parametrize(
    ("language", "text", "said"),
    [
        ("ko", "아니요, 2026-01-22요", "2026-01-22요"),
        ("en", "no, 2026-01-22", "2026-01-22"),
        ("en", "nope, 3:30 pm", "3:30 pm"),
        ("ja", "いいえ、2026-01-22です", "2026-01-22です"),
    ],
)
def test_a_no_then_a_value_keeps_the_value_as_said(language: str, text: str, said: str) -> None:
    assert correction(text, language) == said


@pytest.mark.parametrize(
    ("language", "text"), [("ko", "아니요, 2026-01-22요"), ("en", "no, 2026-01-22")]
)
def test_a_no_then_a_written_date_corrects_it(language: str, text: str) -> None:
    result = analyse(scenario(language), "ask_time", text, "time", {"date": "2026-01-07"})
    assert result.entities["date"] == "2026-01-22"
    assert result.dialogue_act == "correct"


@pytest.mark.parametrize(
    "text",
    ["can you check my brakes?", "could you rotate my tires please?", "could you fix my glasses?"],
)
def test_a_request_about_the_speakers_own_thing_is_no_question(text: str) -> None:
    assert is_request(text, "en")
    assert not is_question(text, "en")


@pytest.mark.parametrize(
    "text", ["can you tell me my balance?", "can you deliver on Saturdays?", "what can you do?"]
)
def test_a_question_about_the_service_stays_a_question(text: str) -> None:
    assert is_question(text, "en")


@pytest.mark.parametrize(
    ("language", "text", "time"),
    [
        ("ko", "네 근데 시간은 오후 4시로 해 주세요", "16:00"),
        ("en", "yes, but make it 4 pm", "16:00"),
        ("ja", "はい、でも時間は午後4時にしてください", "16:00"),
    ],
)
def test_a_yes_that_changes_a_value_is_no_confirmation(language: str, text: str, time: str) -> None:
    filled = {"time": "15:00", "name": "Kim"}
    result = analyse(scenario(language), "confirm", text, None, filled)
    assert result.intent != "affirm"
    assert result.entities["time"] == time
    assert result.dialogue_act == "correct"


@pytest.mark.parametrize(
    ("language", "text"), [("ko", "네, 3시 맞아요"), ("en", "yes, 3 pm is right")]
)
def test_a_yes_that_repeats_a_value_confirms(language: str, text: str) -> None:
    result = analyse(scenario(language), "confirm", text, None, {"time": "15:00"})
    assert result.intent == "affirm"
