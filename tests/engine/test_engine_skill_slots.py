"""Skill ``slot_updates`` enter slots typed like NLU values, or not at all."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.settings import Settings
from dialogkit.skills._base import SkillOutcome
from tests.helpers import RecordingSkills, make_graph

SLOTS: dict[str, Any] = {
    "count": {"type": "integer", "validation": {"min": 1, "max": 9}},
    "when": {"type": "date"},
    "card": {"type": "enum", "values": ["credit", "debit"], "synonyms": {"credit": ["visa"]}},
    "note": {"type": "text"},
}


def graph() -> dict[str, Any]:
    return make_graph(
        [
            {
                "id": "lookup",
                "description": "Looks the order up.",
                "params": {"skill": "order"},
                "responses": {"default": "Looked it up."},
                "terminal": True,
            }
        ],
        slots=SLOTS,
    )


async def slots_after(updates: dict[str, Any]) -> dict[str, Any]:
    outcome = SkillOutcome(status="success", reply="Done.", slot_updates=updates)
    skills = RecordingSkills(outcome)
    async with Engine(Settings(), router=OfflineRouter(), skills=skills) as engine:
        session = await engine.astart(graph(), bot_first=True)
        return dict((await engine.ainfo(session.id)).slots)


async def test_values_are_coerced_to_the_slot_type() -> None:
    slots = await slots_after({"count": "3", "when": "2026-03-01", "card": "VISA", "note": 12})
    assert slots == {"count": 3, "when": "2026-03-01", "card": "credit", "note": "12"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("count", "not-a-number"),
        ("count", 42),  # over validation.max
        ("count", 2.5),
        ("when", "someday"),
        ("card", "amex"),
        ("count", {"nested": 1}),
        ("count", True),
    ],
)
async def test_values_that_do_not_fit_are_dropped_with_a_warning(
    name: str, value: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="dialogkit.turn"):
        slots = await slots_after({name: value, "note": "kept"})
    assert slots == {"note": "kept"}
    warnings = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert len(warnings) == 1 and f"slot {name}" in warnings[0]


async def test_null_clears_a_slot_and_undeclared_slots_are_ignored() -> None:
    slots = await slots_after({"count": None, "ghost": "boo"})
    assert slots == {"count": None}
