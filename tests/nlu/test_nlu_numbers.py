"""Numbers as people say them: Korean native and Sino-Korean, Japanese, English, units."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._entities import INVALID, extract
from dialogkit.nlu._numbers import digits_spoken, find_quantities
from dialogkit.scenario.model import Slot


def number(text: str, unit: str | None = None, *, expected: bool = True, **rules: Any) -> Any:
    slot = Slot.model_validate({"type": "number", "unit": unit, "validation": rules})
    return extract(slot, text, expected=expected)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Korean native numbers with and without counters
        ("하나요", 1),
        ("둘이요", 2),
        ("셋", 3),
        ("다섯이요", 5),
        ("세 명이요", 3),
        ("네 명", 4),
        ("열두 개", 12),
        ("스물다섯 살이에요", 25),
        ("서른한 살", 31),
        ("스물 다섯", 25),
        # Sino-Korean
        ("이천오백", 2500),
        ("이천오백이요", 2500),
        ("삼백 미터", 300),
        ("삼십이", 32),
        ("십오", 15),
        ("만 원", 10000),
        ("이천 오백", 2500),
        # mixed digits and words
        ("2천", 2000),
        ("3만 5천", 35000),
        ("1,200원", 1200),
        ("1.5", 1.5),
        # English
        ("two thousand five hundred", 2500),
        ("twenty-one", 21),
        ("one hundred and twenty", 120),
        ("one point five", 1.5),
        ("a dozen", 12),
        ("seventeen please", 17),
        # Japanese
        ("二名", 2),
        ("三人です", 3),
        ("ふたり", 2),
        ("ひとつ", 1),
        ("よにんです", 4),
        ("みっつください", 3),
        ("十五", 15),
        ("二千五百", 2500),
        ("一万", 10000),
        ("3万5千円", 35000),
        ("１２３", 123),
    ],
)
def test_spoken_and_written_numbers(text: str, value: float) -> None:
    assert number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "네",
        "두세 명",
        "네 알겠어요",
        "이사 가요",
        "열심히 할게요",
        "사람이 많아요",
        "오늘",
        "이번 주에요",
        "사장님 목소리가 참 친절하시네요",
        "이대로 해 주세요",
    ],
)
def test_words_that_only_look_like_numbers_are_not_numbers(text: str) -> None:
    assert number(text) is INVALID


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("공일공 일이삼사 오육칠팔", "01012345678"),
        ("영일영 구팔칠육 오사삼이", "01098765432"),
        ("일 이 삼 사", "1234"),
        ("zero one zero", "010"),
        ("〇九〇一二三四", "0901234"),
    ],
)
def test_digits_read_one_by_one(text: str, digits: str) -> None:
    assert digits_spoken(text).rstrip("이요") == digits


@pytest.mark.parametrize(("text", "digits"), [("2일권 주세요", "2일권 주세요"), ("3일권", "3일권")])
def test_a_counter_is_not_read_again_as_a_number(text: str, digits: str) -> None:
    """The "일" of "2일권" is the day counter of the 2; read again as "one volume" it made
    the two numbers "21"."""
    assert digits_spoken(text) == digits


@pytest.mark.parametrize(
    ("text", "unit", "value"),
    [
        ("2km", "m", 2000),
        ("2 킬로", "m", 2000),
        ("2キロ", "m", 2000),
        ("1.5km", "m", 1500),
        ("삼백 미터", "m", 300),
        ("two thousand meters", "m", 2000),
        ("800", "m", 800),
        ("50 cm", "m", 0.5),
        ("3 kilos", "kg", 3),
        ("500g", "kg", 0.5),
        ("1500미터", "km", 1.5),
    ],
)
def test_units_convert_to_the_slot_unit(text: str, unit: str, value: float) -> None:
    assert number(text, unit) == value


def test_a_quantity_of_another_kind_is_not_taken() -> None:
    assert number("7시요", "people") is INVALID
    assert number("3 kg", "m") is INVALID
    assert number("내일 저녁 7시에 4명", "people") == 4
    assert number("tomorrow at 7 pm for 4", "people") == 4
    assert number("明日の夜7時に4名で", "people") == 4


def test_an_unasked_number_slot_only_takes_a_counted_quantity() -> None:
    assert number("4명이요", "people", expected=False) == 4
    assert number("두 분이요", "people", expected=False) == 2
    assert number("table for two", "people", expected=False) == 2
    assert number("혼자요", "people", expected=False) == 1
    assert number("just me", "people", expected=False) == 1
    assert number("five of us", "people", expected=False) == 5
    assert number("4", "people", expected=False) is INVALID
    assert number("4명", None, expected=False) is INVALID


def test_clock_hours_are_not_counts() -> None:
    assert number("7시") is INVALID
    assert number("7時に") is INVALID
    assert number("at 7 pm") is INVALID


def test_an_age_is_a_plausible_age() -> None:
    assert number("서른두 살", "age") == 32
    assert number("200살", "age") is INVALID


def test_validation_ranges_still_apply() -> None:
    assert number("열 명", "people", min=1, max=8) is INVALID
    assert number("여덟 명", "people", min=1, max=8) == 8
    assert number("5km", "m", max=3000) is INVALID


def test_integer_slots_take_whole_numbers_in_the_slot_unit() -> None:
    slot = Slot(type="integer", unit="m")
    assert extract(slot, "1.5km", expected=True) == 1500
    assert extract(slot, "1.5m", expected=True) is INVALID


def test_quantities_keep_their_counters() -> None:
    found = find_quantities("내일 저녁 7시에 4명, 2km")
    assert [(q.value, q.dimension) for q in found] == [(7, "clock"), (4, "people"), (2, "length")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("distance 2km, over", "2000"),
        ("Distance 1.5 kilometers", "1500"),
        ("distance two thousand", "2000"),
        ("distance 850", "850"),
        ("direction 4800 distance 3 km", "3000"),
    ],
)
def test_a_pattern_slot_with_a_unit_reads_numbers_in_that_unit(text: str, value: str) -> None:
    slot = Slot(type="pattern", unit="m", pattern=r"\bdistance\s*(?P<value>\d{2,5})\b")
    assert extract(slot, text, expected=True) == value


def test_a_pattern_slot_keeps_the_case_of_the_words_around_numbers() -> None:
    slot = Slot(type="pattern", unit="m", pattern=r"\b(?P<value>(?:left|right)\s*\d{1,5})\b")
    assert extract(slot, "Right two hundred", expected=True) == "Right 200"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("grid one two three four five six", "123456"),
        ("Grid 123 456", "123 456"),
        ("grid three four five six seven niner", "345679"),
    ],
)
def test_a_pattern_slot_reads_digits_said_in_words(text: str, value: str) -> None:
    slot = Slot(type="pattern", pattern=r"\bgrid\s*(?P<value>\d{3}\s?\d{3})\b")
    assert extract(slot, text, expected=True) == value
