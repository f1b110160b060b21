"""Checks of what slots declare they mean: ``kind``, ``unit``, ``nouns`` and date ranges.

A kind that contradicts the type, a duration in a unit that is not one of time, a range that
points at no slot, or two counts of one unit that nothing tells apart would each make the
understanding guess; every problem names the slot's JSON path and what to write instead.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Final

from dialogkit.nlu._entities import known_unit
from dialogkit.nlu._kinds import COUNT_UNITS, DURATION_UNITS, slot_kind, slot_nouns
from dialogkit.scenario.model import Slot, SlotKind
from dialogkit.scenario.problems import Problem

TYPES_OF_KIND: Final[dict[SlotKind, frozenset[str]]] = {
    "count": frozenset({"integer", "number"}),
    "duration": frozenset({"integer", "number"}),
    "money": frozenset({"integer", "number"}),
    "measure": frozenset({"integer", "number", "pattern"}),
    "date": frozenset({"date"}),
    "birth_date": frozenset({"date"}),
    "time": frozenset({"time"}),
    "phone": frozenset({"phone", "text", "pattern"}),
    "email": frozenset({"email", "text", "pattern"}),
    "person_name": frozenset({"text", "pattern"}),
    "address": frozenset({"text", "pattern"}),
    "identifier": frozenset({"text", "pattern"}),
    "free_text": frozenset({"text"}),
    "choice": frozenset({"enum"}),
    "yes_no": frozenset({"boolean"}),
}
"""The value types each kind can be held in."""

SHORTEST_LATIN_NOUN: Final = 3
"""Latin nouns shorter than this ("ad", "k") are mostly pieces of other words."""


def _hint(name: str, choices: list[str]) -> str:
    """ "; did you mean `x`?" when a choice is close to ``name``, else a full stop."""
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else "."


def slot_meaning_problems(slots: Mapping[str, Slot]) -> Iterator[Problem]:
    """Every problem of the slots' declared meaning."""
    for name, slot in slots.items():
        path = f"slots.{name}"
        if slot.kind is not None and slot.type not in TYPES_OF_KIND[slot.kind]:
            allowed = ", ".join(sorted(TYPES_OF_KIND[slot.kind]))
            yield Problem(
                path=f"{path}.kind",
                message=f"A `{slot.kind}` slot holds a value of type {allowed}, not "
                f"`{slot.type}`; change `type` or `kind`.",
            )
        yield from _unit(name, slot, path)
        for i, noun in enumerate(slot.nouns):
            if not noun.strip():
                yield Problem(path=f"{path}.nouns[{i}]", message="A noun must not be empty.")
            elif len(noun.strip()) < (SHORTEST_LATIN_NOUN if noun.isascii() else 2):
                yield Problem(
                    path=f"{path}.nouns[{i}]",
                    message=f"The noun {noun!r} is very short: it is only read as a word of its "
                    "own, and a counter after a number (명, 人, 名, 個) already counts without "
                    "it; prefer the whole word (인원, 人数, 乗客) or remove it.",
                    severity="warning",
                )
        yield from _range(slots, name, slot, path)
    yield from _ambiguous_counts(slots)


def _unit(name: str, slot: Slot, path: str) -> Iterator[Problem]:
    unit = (slot.unit or "").strip().lower()
    kind = slot_kind(name, slot)
    if kind == "duration" and unit and unit not in DURATION_UNITS:
        yield Problem(
            path=f"{path}.unit",
            message=f"A duration is kept in a unit of time (nights, days, weeks, hours, "
            f"minutes), not {slot.unit!r}{_hint(unit, sorted(DURATION_UNITS))}",
        )
    elif unit and not known_unit(unit):
        known = sorted({*COUNT_UNITS, *DURATION_UNITS, "m", "km", "cm", "mm", "g", "kg", "age"})
        yield Problem(
            path=f"{path}.unit",
            message=f"Unknown unit {slot.unit!r}: numbers with a counter are not converted to "
            f"it{_hint(unit, known)}",
            severity="warning",
        )


def _range(slots: Mapping[str, Slot], name: str, slot: Slot, path: str) -> Iterator[Problem]:
    for field, wanted in (("range_end", "date"), ("range_length", "duration")):
        target = getattr(slot, field)
        if target is None:
            continue
        if slot.type != "date":
            yield Problem(path=f"{path}.{field}", message=f"`{field}` is for date slots only.")
            continue
        other = slots.get(target)
        if other is None:
            yield Problem(
                path=f"{path}.{field}",
                message=f"Undeclared slot {target!r}{_hint(target, sorted(slots))}",
            )
        elif slot_kind(target, other) != wanted:
            yield Problem(
                path=f"{path}.{field}",
                message=f"`{field}` names slot {target!r}, which is not a {wanted} slot.",
            )


def _ambiguous_counts(slots: Mapping[str, Slot]) -> Iterator[Problem]:
    """Two counts of one unit that no noun tells apart (declared, or inferred from a name such
    as `adults`): "2 adults and a kid" would fill both."""
    by_unit: dict[str, list[str]] = defaultdict(list)
    for name, slot in slots.items():
        if slot.type in {"integer", "number"} and slot_kind(name, slot) == "count":
            by_unit[(slot.unit or "").strip().lower()].append(name)
    for unit, names in by_unit.items():
        bare = [name for name in names if not slot_nouns(name, slots[name])]
        if len(names) > 1 and bare:
            yield Problem(
                path=f"slots.{bare[0]}.nouns",
                message=f"Slots {', '.join(names)} count the same unit ({unit or 'none'}); "
                "declare `nouns` for each (e.g. adults / children) so a number said with one "
                "goes to the right slot.",
                severity="warning",
            )
