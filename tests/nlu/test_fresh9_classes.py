"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh9`): a
read-back turned down as a problem ("そのままだとまずいですね"), a change asked as moving it
later ("もっと後ろにしてもらえます？") or as choosing again ("메뉴를 다시 골라 볼게요"), a
name said after "わたくし", a hold-on for a parcel at the door, which names nobody, "一緒",
which counts nobody, and "雨なんで", which asks nothing."""

from __future__ import annotations

import pytest

from dialogkit import Engine
from dialogkit.nlu._acts import asks_about_values
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import FILLED, one_slot_read_back, read_back
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
    language: str, slot: str, declared: dict[str, object], held: str, said: str
) -> None:
    scenario = one_slot_read_back(slot, declared, {"examples": ["redo please"]}, language)
    assert analyse(scenario, "confirm", said, None, {slot: held}).intent == "redo"


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
