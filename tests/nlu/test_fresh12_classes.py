"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh12`): a
request to act at a node that offers one action, though it resembles a question the
scenario answers ("Could one of your teachers work with my son?"), or follows a reason with
a negation ("やったことないんですけど、一回作ってみたくて"); a need ("he could use someone");
"いやあ", which marvels and says no "no"; a name after its label and a hesitation; a value
read back that "かぶっちゃう"; and a hint that holds another slot's noun ("later in the
day")."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import FILLED, at_read_back, read_back
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_pack_fillers import stored

QUESTIONS: dict[str, dict[str, Any]] = {
    "en": {"ask_teachers": {"examples": ["Who are your teachers?"]}},
    "ko": {"ask_hours": {"examples": ["가게 몇 시에 열어요?"]}},
    "ja": {"ask_hours": {"examples": ["何時から開いていますか？"]}},
}


def offering(language: str) -> Scenario:
    """A greeting that offers to book and answers two questions."""
    return greeting(language, also=QUESTIONS[language])


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Hi! Could one of your teachers work with my son a couple times a week?", "book"),
        (
            "en",
            "My boy's grades are slipping; I think he could use someone to sit with him.",
            "book",
        ),
        ("ko", "다음 주가 어머니 칠순이신데, 예쁜 걸로 하나 들어가게 해 주실 수 있을까요?", "book"),
        (
            "ja",
            "土いじりってやったことないんですけど、一回自分でお茶碗を作ってみたくて。",
            "book",
        ),
        ("ja", "はじめてなんですけど、体験クラスに参加したくてお電話しました", "book"),
        # The questions themselves stay questions.
        ("en", "Who are your teachers?", "ask_teachers"),
        ("en", "Could you tell me about your teachers?", "ask_teachers"),
        ("ko", "가게는 몇 시에 열어요?", "ask_hours"),
    ],
)
def test_a_request_to_act_at_a_node_that_offers_one_action(
    language: str, said: str, intent: str
) -> None:
    assert analyse(offering(language), "start", said, None).intent == intent


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("いやあ、こういうの電話でするの久しぶりで、ちょっと緊張しますね", None),
        ("いや、違います", "deny"),
    ],
)
def test_iyaa_marvels_and_says_no_no(said: str, intent: str | None) -> None:
    read = analyse(read_back("ja", own_changes=False), "confirm", said, None, FILLED)
    assert read.intent == intent


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ko", "이름은요, 음, 박서연 씨예요.", "박서연"),
        ("ko", "이름은요 박서연 씨예요", "박서연"),
        ("en", "hi, this is for my dad, his name is Robert King", "Robert King"),
    ],
)
def test_a_name_after_its_label_and_a_hesitation(
    offline: Engine, language: str, said: str, value: str
) -> None:
    assert stored(offline, language, "name", said) == value


def test_a_value_read_back_that_clashes_is_asked_again(offline: Engine) -> None:
    reply = at_read_back(offline, "ja", own_changes=False).send(
        "15時だと子どものお迎えとかぶっちゃうんですよね…"
    )
    assert reply.current_node == "ask_time"


def test_a_hint_that_holds_another_slots_noun_points_at_its_own() -> None:
    """ "later in the day" points at the time, though "day" names the date."""
    slots = {
        "day": Slot.model_validate({"type": "date", "nouns": ["day", "date"], "prompt": "?"}),
        "time": Slot.model_validate({"type": "time", "prompt": "?"}),
    }
    said = "She's got swim practice at four, so we'd have to go earlier or later in the day."
    held = {"day": "2026-12-01", "time": "16:00"}
    named = said_wrong(said, slots, "en", changes=True, held=held, heard={"time": "16:00"})
    assert named == ["time"]
