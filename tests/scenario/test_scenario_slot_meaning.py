"""The validator checks what slots declare they mean: kind, unit, nouns, ranges."""

from __future__ import annotations

from typing import Any

from tests.helpers import make_graph
from tests.scenario.test_scenario_validator import only, problems_of


def graph(**slots: Any) -> dict[str, Any]:
    return make_graph(
        [{"id": "n", "description": "N.", "collect_slots": list(slots), "terminal": True}],
        slots=slots,
    )


def test_a_kind_that_contradicts_the_type_is_an_error() -> None:
    severity, message = only(
        graph(nights={"type": "text", "kind": "duration"}), "slots.nights.kind"
    )
    assert severity == "error" and "integer" in message


def test_a_misspelt_kind_gets_a_suggestion() -> None:
    _severity, message = only(
        graph(nights={"type": "integer", "kind": "durration"}), "slots.nights.kind"
    )
    assert "did you mean `duration`?" in message


def test_a_duration_needs_a_unit_of_time() -> None:
    data = graph(nights={"type": "integer", "kind": "duration", "unit": "nigths"})
    severity, message = only(data, "slots.nights.unit")
    assert severity == "error" and "did you mean `nights`?" in message


def test_a_range_names_declared_slots_of_the_right_kind() -> None:
    data = graph(
        check_in={"type": "date", "range_length": "nigths", "range_end": "nights"},
        nights={"type": "integer", "unit": "nights"},
    )
    assert "did you mean `nights`?" in only(data, "slots.check_in.range_length")[1]
    assert "not a date slot" in only(data, "slots.check_in.range_end")[1]


def test_two_counts_of_one_unit_without_nouns_are_a_warning() -> None:
    data = graph(
        group_a={"type": "integer", "unit": "people"},
        group_b={"type": "integer", "unit": "people", "nouns": ["children"]},
    )
    severity, message = only(data, "slots.group_a.nouns")
    assert severity == "warning" and "group_a, group_b" in message
    data["slots"]["group_a"]["nouns"] = ["adults"]
    assert "slots.group_a.nouns" not in problems_of(data)
    # A name that says a commonly counted thing names the slot without declared nouns.
    assert "slots.adults.nouns" not in problems_of(
        graph(
            adults={"type": "integer", "unit": "people"}, kids={"type": "integer", "unit": "people"}
        )
    )
