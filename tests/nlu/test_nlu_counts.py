"""Counts of the same unit bound by their nouns, durations, zero and companions, per language."""

from __future__ import annotations

import pytest

from dialogkit.nlu._counts import read_counts
from dialogkit.nlu._kinds import slot_kind
from dialogkit.scenario.model import Slot

PARTY = {
    "adults": Slot(
        type="integer",
        unit="people",
        nouns=["adult", "adults", "grown-ups", "성인", "어른", "大人"],
    ),
    "children": Slot(
        type="integer",
        unit="people",
        nouns=["child", "children", "kid", "kids", "아이", "아이들", "어린이", "子供", "子ども"],
    ),
    "nights": Slot(type="integer", unit="nights", kind="duration", nouns=["night", "nights"]),
}


@pytest.mark.parametrize(
    ("text", "expected", "values"),
    [
        ("two adults and a kid", None, {"adults": 2, "children": 1}),
        ("2 adults, no children", None, {"adults": 2, "children": 0}),
        ("2 adults and 2 kids for 3 nights", None, {"adults": 2, "children": 2, "nights": 3}),
        ("just me", "adults", {"adults": 1}),
        ("me and my wife", "adults", {"adults": 2}),
        ("it's just the two of us, no kids", "adults", {"adults": 2, "children": 0}),
        ("I need a room from next friday for 3 nights", None, {"nights": 3}),
        ("a week", "nights", {"nights": 7}),
        ("for two weeks", None, {"nights": 14}),
        ("none", "children", {"children": 0}),
        ("3", "children", {"children": 3}),
        ("children: 1, adults: 3", None, {"adults": 3, "children": 1}),
        ("성인 2명 아이 1명이요", None, {"adults": 2, "children": 1}),
        ("어른 둘이고 아이는 없어요", None, {"adults": 2, "children": 0}),
        ("저 혼자요", "adults", {"adults": 1}),
        ("2박이요", None, {"nights": 2}),
        ("없어요", "children", {"children": 0}),
        ("大人2人と子供1人です", None, {"adults": 2, "children": 1}),
        ("大人二人、子供はいません", None, {"adults": 2, "children": 0}),
        ("3泊でお願いします", None, {"nights": 3}),
        ("12월 10일부터 3박", None, {"nights": 3}),
    ],
)
def test_counts_bind_to_the_nearest_noun(
    text: str, expected: str | None, values: dict[str, int]
) -> None:
    assert read_counts(text, PARTY, expected) == values


def test_a_duration_never_lands_in_a_count() -> None:
    party = {"guests": Slot(type="integer", unit="people")}
    assert read_counts("3 nights please", party, "guests") == {}
    assert read_counts("2 people", party, None) == {"guests": 2}


def test_kinds_are_declared_or_inferred() -> None:
    assert slot_kind("x", Slot(type="integer", unit="people")) == "count"
    assert slot_kind("x", Slot(type="integer", unit="nights")) == "duration"
    assert slot_kind("x", Slot(type="number", unit="km")) == "measure"
    assert slot_kind("x", Slot(type="integer", unit="won")) == "money"
    assert slot_kind("birth_date", Slot(type="date")) == "birth_date"
    assert slot_kind("customer_name", Slot(type="text", pattern=".+")) == "person_name"
    assert slot_kind("ship_to", Slot(type="text", description="배송 주소")) == "address"
    assert slot_kind("code", Slot(type="pattern", pattern=r"\d+")) == "identifier"
    assert slot_kind("note", Slot(type="text")) == "free_text"
    assert slot_kind("note", Slot(type="text", kind="address")) == "address"
