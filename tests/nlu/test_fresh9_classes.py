"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh9`): a
read-back turned down as a problem ("そのままだとまずいですね"), a change asked as moving it
later ("もっと後ろにしてもらえます？") or as choosing again ("메뉴를 다시 골라 볼게요"), a
name said after "わたくし", a hold-on for a parcel at the door, which names nobody, "一緒",
which counts nobody, "雨なんで", which asks nothing, and a request to act said without
the scenario's words ("can you set that up for us?") at a node that offers one action."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._acts import asks_about_values
from tests.nlu.reading import analyse, intent_step
from tests.nlu.test_change_requests import FILLED, changed, read_back
from tests.nlu.test_pack_fillers import stored


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "うーん、そのままだとまずいですね"),
        ("ko", "그건 좀 곤란해요"),
        ("en", "Hmm, that won't work."),
    ],
)
def test_a_read_back_said_to_be_a_problem_is_a_no(language: str, said: str) -> None:
    read = analyse(read_back(language, own_changes=False), "confirm", said, None, FILLED)
    assert read.intent == "deny"


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ja",
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-04",
            "うわ、その日程だと法事とぶつかってました。もっと後ろにしてもらえます？",
        ),
        (
            "ko",
            "wash",
            {"type": "enum", "values": ["외부 세차", "풀 세차"], "prompt": "?"},
            "외부 세차",
            "겉만 씻는 걸로는 부족할 것 같아요. 메뉴를 다시 골라 볼게요.",
        ),
        (
            "ja",
            "plan",
            {"type": "enum", "values": ["A", "B"], "prompt": "?"},
            "A",
            "やっぱり選び直したいです",
        ),
        (
            "en",
            "trip",
            {"type": "enum", "values": ["half-day", "full-day"], "prompt": "?"},
            "half-day",
            "Actually, could we go with something else?",
        ),
    ],
)
def test_moving_it_later_or_choosing_again_is_the_change(
    language: str, slot: str, declared: dict[str, Any], held: str, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ja", "えっと、わたくし高橋美咲と申します", "高橋美咲"),
        ("ja", "わたくし、佐藤と申します", "佐藤"),
        ("ko", "아 잠시만요, 택배 왔나 봐요.", None),
        ("ko", "잠깐만요, 누가 왔나 봐요", None),
    ],
)
def test_the_speaker_before_a_name_and_a_parcel_at_the_door(
    offline: Engine, language: str, said: str, value: str | None
) -> None:
    assert stored(offline, language, "name", said) == value


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("子どもも一緒なんですが、添い寝はできますか？", None),
        ("一緒です", None),
        ("一応、大人二人です", 2),
        ("二名です", 2),
    ],
)
def test_a_kanji_numeral_that_begins_a_word_counts_nothing(
    offline: Engine, said: str, count: int | None
) -> None:
    """ "一緒" (together) and "一応" (for now) are words, not one person."""
    assert stored(offline, "ja", "people", said) == count


@pytest.mark.parametrize(
    ("said", "asks"),
    [
        ("せっかくなんで、明日の10時は空いてますか？", False),
        ("なんで明日はだめなんですか", True),
        ("それってなんですか", True),
    ],
)
def test_nan_after_a_word_says_because_and_asks_nothing(said: str, asks: bool) -> None:
    """ "せっかくなんで" (since we're at it) offers the time it goes on to; "なんで" (why)
    asks."""
    assert asks_about_values(said, "ja") is asks


def greeting(language: str, *, also: dict[str, Any] | None = None) -> Scenario:
    """A greeting that offers one thing to do (``book``) and answers one question."""
    book = {
        "en": ["I'd like to book a trip", "Can I make a reservation?"],
        "ko": ["예약하고 싶어요", "예약 가능한가요?"],
        "ja": ["予約したいです", "予約できますか？"],
    }[language]
    price = {"en": ["How much is it?"], "ko": ["얼마예요?"], "ja": ["いくらですか？"]}[language]
    intents: dict[str, Any] = {"book": {"examples": book}, "ask_price": {"examples": price}}
    intents.update(also or {})
    return intent_step(language, intents, {"id": "next", "next_nodes": [{"action": "stay"}]})


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Hi! My husband's turning fifty. Can you set that up for us?", "book"),
        ("en", "We'd get the gang locked in for an hour, is that something I can set up?", "book"),
        ("ko", "아파트 주차장까지 와서 때 빼 주는 서비스 맞죠? 그거 하나 잡아 주세요.", "book"),
        ("ja", "じゃあせっかくなので、うちにも一度伺ってもらえますか", "book"),
        # Asked to be told, or asked not to act, it asks for nothing.
        ("en", "Could you tell me a bit about it?", None),
        ("ko", "아무래도 마음이 바뀌었어요, 접수하지 말아 주세요", None),
    ],
)
def test_a_request_to_act_at_a_node_that_offers_one_action_is_that_action(
    language: str, said: str, intent: str | None
) -> None:
    assert analyse(greeting(language), "start", said, None).intent == intent


def test_a_node_that_offers_two_actions_offers_none() -> None:
    urgent = {"urgent": {"examples": ["It's an emergency, please help now"]}}
    scenario = greeting("en", also=urgent)
    said = "Hi, my dog keeps scratching his ears, could one of your doctors have a look?"
    assert analyse(scenario, "start", said, None).intent is None
