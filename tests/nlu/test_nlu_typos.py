"""One-edit typo tolerance on enum values, and type-level plausibility."""

from __future__ import annotations

from datetime import date

import pytest

from dialogkit.nlu._entities import INVALID, extract
from dialogkit.nlu._fuzzy import within_one_edit
from dialogkit.nlu._plausible import (
    is_birth_date,
    plausible_age,
    plausible_birth_date,
    plausible_clock,
    plausible_phone,
)
from dialogkit.scenario.model import Slot

CARD = Slot(type="enum", values=["체크카드", "신용카드"], synonyms={"체크카드": ["직불카드"]})
DRINK = Slot(
    type="enum",
    values=["latte", "cappuccino", "americano"],
    synonyms={"americano": ["black coffee"]},
)
SLEEP = Slot(type="enum", values=["잘 잤음", "그럭저럭 잤음", "잘 못 잤음"])
TOPIC = Slot(type="enum", values=["お天気の話", "食べ物の話"])
SIZE = Slot(type="enum", values=["small", "smell", "large"])


@pytest.mark.parametrize(
    ("slot", "text", "value"),
    [
        (CARD, "체크카두로 할게요", "체크카드"),
        (CARD, "신영카드요", "신용카드"),
        (CARD, "직불카트", "체크카드"),
        (CARD, "쳌카드요", "체크카드"),
        (CARD, "시뇽카드로요", "신용카드"),
        (CARD, "직뿔카드", "체크카드"),
        (DRINK, "a capuccino please", "cappuccino"),
        (DRINK, "lattte", "latte"),
        (DRINK, "an amercano", "americano"),
        (DRINK, "blakc coffee", "americano"),
        (TOPIC, "お天気の話しがいいな", "お天気の話"),
        (TOPIC, "食べ物", INVALID),
    ],
)
def test_one_edit_reaches_a_value_when_asked(slot: Slot, text: str, value: object) -> None:
    assert extract(slot, text, expected=True) == value


def test_typos_are_only_forgiven_for_the_slot_asked_for() -> None:
    assert extract(CARD, "체크카두로 할게요", expected=False) is INVALID
    assert extract(CARD, "체크카드로 할게요", expected=False) == "체크카드"


def test_short_values_and_ties_are_never_guessed() -> None:
    assert extract(Slot(type="enum", values=["HE", "smoke"]), "HF", expected=True) is INVALID
    assert extract(SIZE, "smoll", expected=True) is INVALID  # small? smell? both one edit
    assert extract(SLEEP, "잘 잣음", expected=True) == "잘 잤음"
    meal = Slot(type="enum", values=["먹음", "조금 먹음", "안 먹음"])
    assert extract(meal, "먹을 게 없어요", expected=True) is INVALID
    mood = Slot(type="enum", values=["좋음", "보통", "우울"])
    assert extract(mood, "좋은 아침이에요", expected=True) is INVALID


@pytest.mark.parametrize(
    ("left", "right", "near"),
    [
        ("latte", "latte", True),
        ("latte", "latet", True),
        ("latte", "lattes", True),
        ("latte", "late", True),
        ("latte", "lotto", False),
        ("abc", "cba", False),
    ],
)
def test_within_one_edit(left: str, right: str, near: bool) -> None:
    assert within_one_edit(left, right) is near


def test_plausibility() -> None:
    today = date(2026, 11, 23)
    assert plausible_birth_date(date(1990, 5, 17), today)
    assert not plausible_birth_date(today, today)
    assert not plausible_birth_date(date(1880, 1, 1), today)
    assert is_birth_date("birth_date") and is_birth_date("x", "생년월일")
    assert not is_birth_date("visit_date", "来店日")
    assert plausible_phone("01012345678") and plausible_phone("0312345678")
    assert not plausible_phone("0101234567890") and not plausible_phone("12345")
    assert plausible_phone("821012345678", international=True)
    assert plausible_clock(23, 59) and not plausible_clock(24, 0)
    assert plausible_age(42) and not plausible_age(200)


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("공일공 일이삼사 오육칠팔이요", "010-1234-5678"),
        ("010-1234-5678", "010-1234-5678"),
        ("〇九〇 一二三四 五六七八です", "090-1234-5678"),
        ("０９０－１２３４－５６７８", "090-1234-5678"),
        ("zero one zero one two three four five six seven eight", "010-1234-5678"),
        ("+82 10 1234 5678", "+821012345678"),
        ("five five five, one two three, four five six seven", "5551234567"),
        ("공일공에 일이삼사에 오육칠팔이요", "010-1234-5678"),
        ("010에 9876에 5432요", "010-9876-5432"),
        ("영일영 구팔칠육 오사삼이요", "010-9876-5432"),
        ("〇九〇の一二三四の五六七八", "090-1234-5678"),
    ],
)
def test_phone_numbers_written_or_spoken(text: str, phone: str) -> None:
    assert extract(Slot(type="phone"), text, expected=True) == phone


@pytest.mark.parametrize("text", ["12345", "010-1234-567890", "오늘 세 시"])
def test_implausible_phone_numbers_are_refused(text: str) -> None:
    assert extract(Slot(type="phone"), text, expected=True) is INVALID
