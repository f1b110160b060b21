"""A question is not a no for the negation it holds ("can't I pay by card?", "주말엔 안
하세요?", "no loaner car?"): at a read-back it would turn the booking down. A no said apart
before a question still answers ("No, could you change the date?")."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import said_apart
from tests.nlu.reading import analyse, read_back_scenario
from tests.nlu.test_pack_fillers import FILLED, QUESTIONS


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "No loaner car?"),
        ("en", "No way to do it any cheaper?"),
        ("en", "Can't I pay by card?"),
        ("en", "Don't you take cards?"),
        ("ko", "주말엔 안 하세요?"),
        ("ko", "카드는 안 되나요?"),
        ("ja", "カードは使えませんか？"),
        ("ja", "個室はないですか？"),
    ],
)
def test_a_question_that_holds_a_negation_is_not_a_no(language: str, said: str) -> None:
    scenario = read_back_scenario(language, QUESTIONS[language])
    assert analyse(scenario, "confirm", said, None, dict(FILLED)).intent != "deny"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "No, can you change the time?"),
        ("en", "Nope. Could we do another day?"),
        ("ko", "아니요, 시간 바꿀 수 있어요?"),
        ("ja", "いいえ、時間を変えられますか？"),
    ],
)
def test_a_no_said_apart_before_a_question_answers(language: str, said: str) -> None:
    scenario = read_back_scenario(language, QUESTIONS[language])
    assert said_apart(said)
    assert analyse(scenario, "confirm", said, None, dict(FILLED)).intent == "deny"
