"""What a slot holds: its declared ``kind``, or one inferred from its type, unit and pattern.

The kind decides what no value type can: that a text slot holds an address (and must look
like one), that an integer counts people rather than nights, which label words name the slot
in a sentence. Authors declare it; inference covers scenarios written before kinds existed:

- ``phone``, ``email``, ``date``, ``time`` types are their own kind (a date slot whose name
  or description says birth is a ``birth_date``); ``boolean`` is ``yes_no``, ``enum`` is
  ``choice``;
- an integer or number is a ``duration`` in a unit of time (``nights``, ``days``, ``weeks``,
  ``hours``, ``minutes``), ``money`` in a currency, a ``measure`` in a length or a mass, and
  otherwise a ``count``;
- a text slot whose name or description holds a label word of a name or an address (from
  the language packs) is a ``person_name`` or an ``address``; otherwise a ``pattern`` slot,
  or a text slot with a pattern, is an ``identifier``; any other text is ``free_text``.
"""

from __future__ import annotations

import re
from typing import Final

from dialogkit.nlu._plausible import is_birth_date
from dialogkit.nlu.lang import counted_concepts, labels
from dialogkit.scenario.model import Slot, SlotKind

DURATION_UNITS: Final[dict[str, tuple[str, float]]] = {
    "nights": ("days", 1.0),
    "night": ("days", 1.0),
    "days": ("days", 1.0),
    "day": ("days", 1.0),
    "weeks": ("days", 7.0),
    "week": ("days", 7.0),
    "months": ("days", 30.0),
    "month": ("days", 30.0),
    "hours": ("seconds", 3600.0),
    "hour": ("seconds", 3600.0),
    "minutes": ("seconds", 60.0),
    "minute": ("seconds", 60.0),
}
"""Units of a duration slot: the base they are measured in and the factor to it."""
COUNT_UNITS: Final = frozenset({"people", "items", "portions", "tickets", "rooms", "pieces"})
MONEY_UNITS: Final = frozenset({"won", "krw", "yen", "jpy", "usd", "dollars", "eur", "euros"})
MEASURE_UNITS: Final = frozenset({"mm", "cm", "m", "km", "g", "kg", "age"})
COUNT_KINDS: Final = frozenset({"count", "duration", "money", "measure"})


def _unit(slot: Slot) -> str:
    return (slot.unit or "").strip().lower()


def counts_people(slot: Slot) -> bool:
    """Whether a slot's unit is people: someone joining changes it, "two adults and two
    kids" may add up in it."""
    return _unit(slot) in {"people", "person"}


def _named(name: str, slot: Slot, kind: str) -> bool:
    """Whether a label word of ``kind`` is in the slot's name or description."""
    words = set(name.lower().split("_"))
    text = f"{name} {slot.description}".lower()
    for label in labels("", kind):
        if label.isascii() and " " not in label:
            if label in words:
                return True
        elif label in text:
            return True
    return False


def slot_kind(name: str, slot: Slot) -> SlotKind:
    """The slot's declared kind, or the one its type, unit and pattern imply."""
    if slot.kind is not None:
        return slot.kind
    unit = _unit(slot)
    if slot.type in {"integer", "number"}:
        if unit in DURATION_UNITS:
            return "duration"
        if unit in MONEY_UNITS:
            return "money"
        if unit in MEASURE_UNITS:
            return "measure"
        return "count"
    if slot.type == "date":
        return "birth_date" if is_birth_date(name, slot.description) else "date"
    if slot.type == "phone" or slot.type == "email" or slot.type == "time":
        return slot.type
    if slot.type == "boolean":
        return "yes_no"
    if slot.type == "enum":
        return "choice"
    if slot.type == "text":
        if _named(name, slot, "person_name"):
            return "person_name"
        if _named(name, slot, "address"):
            return "address"
    if slot.type == "pattern" or slot.pattern:
        return "identifier"
    return "free_text"


def slot_nouns(name: str, slot: Slot) -> tuple[str, ...]:
    """The words that name a count in a sentence: its declared ``nouns``, else, when its name
    or description says a commonly counted thing ("adults", "어린이 수", "子供の人数"), that
    thing's words in every language pack."""
    if slot.nouns or slot_kind(name, slot) != "count":
        return tuple(slot.nouns)
    words = {part for part in re.split(r"[_\W]+", f"{name} {slot.description}".lower()) if part}
    text = f"{name} {slot.description}".lower()
    found: list[str] = []
    for nouns in counted_concepts().values():
        if any((noun in words) if noun.isascii() else (noun in text) for noun in nouns):
            found.extend(nouns)
    return tuple(found)


def slot_labels(name: str, slot: Slot, language: str = "") -> tuple[str, ...]:
    """The words that name the slot: its declared nouns, then its kind's label words."""
    return (*slot.nouns, *labels(language, slot_kind(name, slot)))


def is_identifier(name: str, slot: Slot) -> bool:
    """A slot whose value names someone or something: never the bot's own words nor the
    speaker's word for themself."""
    return slot_kind(name, slot) in {"identifier", "person_name"} or (
        slot.type == "pattern" or (slot.type == "text" and bool(slot.pattern))
    )
