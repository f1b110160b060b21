"""A discourse marker that opens an answer frames it and is no part of it ("you know what,
it's Alex Park" gives Alex Park, not "what"), and a marker alone is no value: "on second
thought" at a name step is not a name."""

from __future__ import annotations

import pytest

from dialogkit import Engine
from tests.nlu.test_pack_fillers import stored


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        ("en", "name", "You know what, it's Alex Park", "Alex Park"),
        ("en", "name", "Come to think of it, I'm Sam Lee", "Sam Lee"),
        ("en", "name", "Honestly? Dana Wu.", "Dana Wu"),
        ("en", "note", "To be honest, a quiet room please", "a quiet room please"),
        ("ko", "name", "그러고 보니, 이서준입니다", "이서준"),
        ("ko", "name", "솔직히 말하면, 김민수예요", "김민수"),
        ("ko", "note", "아 참, 창가 자리로 부탁해요", "창가 자리로 부탁해요"),
        ("ja", "name", "実は、田中です", "田中"),
        ("ja", "name", "やっぱり、鈴木で", "鈴木"),
        ("ja", "note", "そういえば、窓側の席でお願いします", "窓側の席でお願いします"),
        ("en", "name", "On second thought", None),
        ("en", "name", "Frankly", None),
        ("ko", "name", "솔직히", None),
        ("ja", "name", "そういえば", None),
    ],
)
def test_a_discourse_marker_opens_an_answer_and_is_no_value_alone(
    offline: Engine, language: str, slot: str, said: str, value: object
) -> None:
    assert stored(offline, language, slot, said) == value


@pytest.mark.parametrize(("said", "value"), [("鈴木で", "鈴木"), ("名前は山田花子で", "山田花子")])
def test_a_japanese_name_said_with_a_trailing_de_is_the_name(
    offline: Engine, said: str, value: str
) -> None:
    assert stored(offline, "ja", "name", said) == value
