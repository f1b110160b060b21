"""Counts and durations said together: which number goes to which slot.

"Two adults and a kid for three nights" holds three numbers for three slots, two of them in
the same unit. Reading each slot on its own gives every people slot the first people count;
here the numbers of one utterance are shared out once:

1. a noun of a slot (its declared ``nouns``) claims the number nearest to it, on the side its
   language puts numbers (before the noun in English, "2 adults"; after it in Korean and
   Japanese, "성인 2명", "大人2人"), never across another number; an article counts one
   ("a kid"), and a negation gives zero ("no kids", "아이는 없어요", "子供はいません");
2. a number whose counter fits only one of the slots goes to that slot ("3 nights", "2박" to
   the duration: a duration never lands in a count, nor a count in a duration);
3. what is left (a bare number, a day counter that may be a date: "13일", "13日" without
   "간" / "間", "just me", "me and my wife") goes to the slot being asked for
   when it fits, or, for a count of people, to the first such slot of the node;
4. a whole answer of zero ("none", "없어요", "いません") answers the slot being asked for.

Each number is used once and each slot takes at most one number, so "2 adults" never
also fills the children.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from dialogkit.nlu.entities import exact, in_slot_unit
from dialogkit.nlu.kinds import slot_kind, slot_nouns
from dialogkit.nlu.lang import pattern
from dialogkit.nlu.numbers import Quantity, normalize, quantities
from dialogkit.nlu.words import any_word
from dialogkit.scenario.model import Slot

NEAR: Final = 14
"""Most characters between a noun and the number it claims ("adults: 2", "아이는 두 명")."""


@dataclass(frozen=True)
class _Noun:
    slot: str
    start: int
    end: int
    after_number: bool
    """Whether the language says the number before the noun ("2 adults")."""


def counted_slots(slots: Mapping[str, Slot]) -> dict[str, Slot]:
    """The number slots whose values are shared out here: counts and durations."""
    return {
        name: slot
        for name, slot in slots.items()
        if slot.type in {"integer", "number"} and slot_kind(name, slot) in {"count", "duration"}
    }


def shares_numbers(slots: Mapping[str, Slot]) -> bool:
    """Whether numbers must be shared out: two counted slots, or one that declares nouns."""
    counted = counted_slots(slots)
    return len(counted) > 1 or any(slot_nouns(name, slot) for name, slot in counted.items())


def read_counts(
    text: str, slots: Mapping[str, Slot], expected: str | None, language: str = ""
) -> dict[str, int | float]:
    """The counted slots' values said in ``text`` (see the module docstring), in each slot's
    unit, not yet validated."""
    counted = counted_slots(slots)
    if not counted:
        return {}
    normal = normalize(text)
    ordinal = pattern(language, "ordinal_after", lambda p: p.ordinal_after)
    month = pattern(language, "month_before_day", lambda p: p.month_before_day)
    found = [q for q in quantities(normal) if not ordinal.match(normal, q.counter_end)]
    found = [q for q in found if not (q.dimension == "day" and month.search(normal[: q.start]))]
    span = pattern(language, "span_after", lambda p: p.span_after)
    found = [
        replace(q, dimension=None)
        if q.dimension == "day"
        and not normal[q.end : q.counter_end].strip().isascii()
        and not span.match(normal, q.counter_end)
        else q
        for q in found
    ]
    values: dict[str, int | float] = {}
    used: set[int] = set()

    def take(name: str, index: int, quantity: Quantity) -> bool:
        value = in_slot_unit(quantity, counted[name])
        if name in values or index in used or value is None:
            return False
        values[name] = exact(value)
        used.add(index)
        return True

    nouns = _nouns(normal, counted)
    zero = pattern(language, "zero_before", lambda p: p.zero_before)
    zero_after = pattern(language, "zero_after", lambda p: p.zero_after)
    one = pattern(language, "one_before", lambda p: p.one_before)
    for noun in nouns:
        before = normal[max(0, noun.start - NEAR) : noun.start]
        if zero.search(before[-8:]) or zero_after.match(normal, noun.end):
            values.setdefault(noun.slot, 0)
    for _gap, _side, noun, index in _claims(normal, nouns, found):
        take(noun.slot, index, found[index])
    for noun in nouns:
        if noun.slot not in values and one.search(normal[: noun.start]):
            values[noun.slot] = 1
    for index, quantity in enumerate(found):
        if index in used or quantity.dimension is None:
            continue
        fitting = [n for n in counted if n not in values and in_slot_unit(quantity, counted[n])]
        if len(fitting) == 1:
            take(fitting[0], index, quantity)
        elif expected in fitting:
            take(expected, index, quantity)
        elif fitting and quantity.dimension == "people" and not nouns:
            take(fitting[0], index, quantity)
    if expected in counted and expected not in values:
        for index, quantity in enumerate(found):
            if quantity.dimension is None and take(expected, index, quantity):
                break
        else:
            answers = pattern(language, "zero_answers", lambda p: p.zero_answers)
            if not found and answers.search(normal):
                values[expected] = 0
    return values


def _nouns(text: str, counted: Mapping[str, Slot]) -> list[_Noun]:
    found: list[_Noun] = []
    for name, slot in counted.items():
        nouns = slot_nouns(name, slot)
        if not nouns:
            continue
        for match in any_word(normalize(noun) for noun in nouns).finditer(text):
            found.append(_Noun(name, match.start(), match.end(), match.group(0).isascii()))
    return sorted(found, key=lambda noun: noun.start)


def _distance(between: str) -> int:
    """How far apart a noun and a number are: words count double, a comma ten times ("children:
    1, adults: 3" gives the 1 to the children)."""
    joints = pattern("", "conjunctions", lambda p: (r"[,;、。]", *p.conjunctions))
    filler = pattern("", "particles", lambda p: (r"[\s,:=]", *p.particles))
    words = filler.sub("", between)
    return len(between) + 2 * len(words) + 10 * len(joints.findall(between))


def _claims(
    text: str, nouns: list[_Noun], found: list[Quantity]
) -> list[tuple[int, int, _Noun, int]]:
    """Every (distance, side, noun, number) a noun may claim, nearest first; on a tie the side
    the noun's language prefers wins. A noun never claims a number across another one."""
    claims: list[tuple[int, int, _Noun, int]] = []
    for noun in nouns:
        for index, quantity in enumerate(found):
            if quantity.counter_end <= noun.start:
                start, end = quantity.counter_end, noun.start
                side = 0 if noun.after_number else 1
            elif quantity.start >= noun.end:
                start, end = noun.end, quantity.start
                side = 1 if noun.after_number else 0
            else:  # the noun is the number's own counter: "2 adults"
                claims.append((0, 0, noun, index))
                continue
            between = text[start:end]
            crossed = any(start <= other.start < end for other in found)
            if len(between) > NEAR or crossed:
                continue
            claims.append((_distance(between), side, noun, index))
    return sorted(claims, key=lambda claim: (claim[0], claim[1], claim[2].start))
