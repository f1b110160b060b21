"""An apology that opens an answer is no part of it ("ごめんなさい、山田です" gives 山田;
"すみません、はい" is a yes, though "すみません" looks negated), an apology alone is no
value, and a text answer no turn would take for what it is (a clause where a name is asked)
is not proposed as the node's answer: the tiers above may then hear what the utterance says
instead ("ごめんなさい、別の手段で行くことにします" calls the taxi off)."""

from __future__ import annotations

import pytest

from dialogkit import Engine
from dialogkit.nlu._acts import is_negated
from tests.nlu.reading import analyse, read_back_scenario
from tests.nlu.test_pack_fillers import FILLED, QUESTIONS, steps, stored


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        ("ja", "name", "ごめんなさい、山田です", "山田"),
        ("ja", "name", "すみません、高橋美咲です", "高橋美咲"),
        ("ja", "note", "申し訳ありません、窓側の席でお願いします", "窓側の席でお願いします"),
        ("ko", "name", "죄송한데요, 김민수입니다", "김민수"),
        ("ko", "note", "죄송해요, 창가 자리로 부탁해요", "창가 자리로 부탁해요"),
        ("en", "name", "Sorry, Emma Johnson", "Emma Johnson"),
        ("en", "note", "Excuse me, a quiet room please", "a quiet room please"),
        ("ja", "name", "ごめんなさい", None),
        ("ko", "note", "죄송합니다", None),
        ("en", "name", "sorry", None),
    ],
)
def test_an_apology_opens_an_answer_and_is_no_value_alone(
    offline: Engine, language: str, slot: str, said: str, value: object
) -> None:
    assert stored(offline, language, slot, said) == value


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "ごめんなさい、別の手段で行くことにします"),
        ("ja", "あ、やっぱり自分で運転していくことにしました"),
    ],
)
def test_a_clause_where_a_name_is_asked_is_not_proposed(language: str, said: str) -> None:
    result = analyse(steps(language, "name"), "ask_name", said, "name")
    assert "name" not in result.entities and result.confidence < 0.8


def test_a_name_is_still_proposed() -> None:
    result = analyse(steps("ja", "name"), "ask_name", "ごめんなさい、山田です", "name")
    assert result.entities == {"name": "山田"} and result.confidence == 1.0


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("ja", "すみません、はい、お願いします", "affirm"),
        ("ja", "すいません、はい", "affirm"),
        ("ja", "申し訳ありません、いいえ", "deny"),
        ("ko", "죄송한데요, 네 맞아요", "affirm"),
        ("en", "sorry, yes please", "affirm"),
        ("en", "I'm sorry, no", "deny"),
    ],
)
def test_a_yes_or_no_after_an_apology_is_the_answer(language: str, said: str, intent: str) -> None:
    scenario = read_back_scenario(language, QUESTIONS[language])
    assert analyse(scenario, "confirm", said, None, dict(FILLED)).intent == intent


@pytest.mark.parametrize(
    "said", ["すみません、時間を変えたいです", "申し訳ありません、はい大丈夫です", "すいません"]
)
def test_an_apology_that_looks_negated_negates_nothing(said: str) -> None:
    assert not is_negated(said, "ja")
    assert is_negated("すみません、行けません", "ja")
