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

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import Final

from dialogkit.nlu._entities import changes_by, exact, in_slot_unit
from dialogkit.nlu._kinds import counts_people, slot_kind, slot_nouns
from dialogkit.nlu._numbers import (
    Quantity,
    normalize,
    pair_before,
    quantities,
    said_outright,
    with_pair,
)
from dialogkit.nlu._words import nouns_pattern
from dialogkit.nlu.lang import counted_concepts, pattern, words
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
    # "친구 한 명 더 와요. 세 명으로 해 주세요": a number that changes the value by that much
    # is not the value.
    found = [
        q
        for q in quantities(normal)
        if not ordinal.match(normal, q.counter_end) and not changes_by(normal, q, language)
    ]
    found = [q for q in found if not (q.dimension == "day" and month.search(normal[: q.start]))]
    if expected in counted and counts_people(counted[expected]):
        found = list(said_outright(normal, with_pair(normal, found, language)))
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
    taken: dict[str, int] = {}

    def take(name: str, index: int, quantity: Quantity) -> bool:
        value = in_slot_unit(quantity, counted[name])
        if name in values or index in used or value is None:
            return False
        values[name] = exact(value)
        used.add(index)
        taken[name] = index
        return True

    nouns = _nouns(normal, counted)

    def give_out(index: int, quantity: Quantity) -> None:
        """A counted number no noun claimed: to the one slot its counter fits, else to the
        slot asked for."""
        fitting = [n for n in counted if n not in values and in_slot_unit(quantity, counted[n])]
        if len(fitting) == 1:
            take(fitting[0], index, quantity)
        elif expected in fitting:
            take(expected, index, quantity)
        elif fitting and quantity.dimension == "people" and not nouns:
            take(fitting[0], index, quantity)
        elif not fitting and quantity.dimension == "people" and _per_person(counted, expected):
            # "me and my wife" when bikes are asked for: one each.
            take(expected or "", index, replace(quantity, dimension=None))

    zero = pattern(language, "zero_before", lambda p: p.zero_before)
    zero_after = pattern(language, "zero_after", lambda p: p.zero_after)
    one = pattern(language, "one_before", lambda p: p.one_before)
    for noun in nouns:
        before = normal[max(0, noun.start - NEAR) : noun.start]
        if zero.search(before[-8:]) or zero_after.match(normal, noun.end):
            values.setdefault(noun.slot, 0)
    for _gap, _side, noun, index in _claims(normal, nouns, found):
        quantity = found[index]
        if quantity.end <= noun.start < quantity.counter_end:
            # A declared noun is what the number counts, whatever built-in counter it also
            # is ("2 adult bikes" counts bikes, though "adult" counts people).
            quantity = replace(quantity, dimension=None)
        take(noun.slot, index, quantity)
    for noun in nouns:
        if noun.slot not in values and one.search(normal[: noun.start]):
            values[noun.slot] = 1

    def total(index: int) -> None:
        """The sum replaces a part its one slot took before it ("大人が四人と子供が二人なので、
        全部で六人ですね" is six, though "大人" took the four)."""
        quantity = found[index]
        fitting = [name for name in counted if in_slot_unit(quantity, counted[name])]
        part = taken.get(fitting[0]) if len(fitting) == 1 else None
        if part is not None and found[part].end <= quantity.start:
            del values[fitting[0]]
        give_out(index, quantity)

    _take_total(normal, found, used, language, total)
    for index, quantity in enumerate(found):
        if index in used or quantity.dimension is None:
            continue
        give_out(index, quantity)
    if expected in counted and expected not in values:
        for index, quantity in enumerate(found):
            if quantity.dimension is None and take(expected, index, quantity):
                break
        if _only_numbers(normal, found):
            _in_order(counted, expected, found, take)
        else:
            answers = pattern(language, "zero_answers", lambda p: p.zero_answers)
            if not found and answers.search(normal):
                values[expected] = 0
    return values


def _totals(language: str) -> re.Pattern[str]:
    """What announces the sum of the people or things just listed (``totals``)."""
    return pattern(language, "totals", lambda p: p.totals, re.IGNORECASE)


def _take_total(
    normal: str,
    found: list[Quantity],
    used: set[int],
    language: str,
    give: Callable[[int], None],
) -> None:
    """The sum announced after a list ("애들 둘 해서 네 명", "子供が二人なので、全部で四人"):
    the first number after the last announcement is given out, and the numbers before it
    that no noun claimed are its parts, no value of their own."""
    total = max(_totals(language).finditer(normal), key=lambda said: said.end(), default=None)
    if total is None:
        return
    after = [i for i, q in enumerate(found) if q.start >= total.end()]
    if after:
        used.update(i for i, q in enumerate(found) if q.end <= total.start())
        if after[0] not in used:
            give(after[0])


def _per_person(counted: Mapping[str, Slot], expected: str | None) -> bool:
    """Whether a count of people answers the count asked for, one thing each: it counts
    things, and no slot here counts people."""
    if expected is None or expected not in counted:
        return False
    if slot_kind(expected, counted[expected]) != "count":
        return False
    return all(slot.unit != "people" for slot in counted.values())


def _only_numbers(text: str, found: list[Quantity]) -> bool:
    """Whether the utterance is bare numbers and the words that join them ("2 and 1", "둘
    하나", "2、1"): nothing else says which number is which."""
    if len(found) < 2 or any(q.dimension is not None for q in found):
        return False
    rest = "".join(text[q.counter_end : later.start] for q, later in pairwise(found))
    rest = f"{text[: found[0].start]} {rest} {text[found[-1].counter_end :]}"
    joints = pattern("", "conjunctions", lambda p: (r"[,;、。&/+]", *p.conjunctions))
    return not re.sub(r"[\s.!]+", "", joints.sub(" ", rest))


def _in_order(
    counted: Mapping[str, Slot],
    expected: str,
    found: list[Quantity],
    take: Callable[[str, int, Quantity], bool],
) -> None:
    """Bare numbers after the first go to the slots that follow the one asked for, in the
    scenario's order ("2 and 1" when adult and kids bikes are asked: 2 adult, 1 kids), among
    the slots of its kind and unit."""
    names = list(counted)
    kind = slot_kind(expected, counted[expected])
    unit = counted[expected].unit
    following = [
        n
        for n in names[names.index(expected) + 1 :]
        if slot_kind(n, counted[n]) == kind and counted[n].unit == unit
    ]
    for index, quantity in enumerate(found):
        if not following:
            return
        if take(following[0], index, quantity):
            following.pop(0)


@lru_cache(maxsize=256)
def _said_nouns(nouns: tuple[str, ...]) -> tuple[str, ...]:
    """A slot's nouns as said: normalised, and each of two words or more also with its head
    replaced by a pro-form of the packs ("big bike" -> "big one", "big ones")."""
    said = [normalize(noun) for noun in nouns]
    pro_forms = words("", lambda p: p.pro_forms)
    for noun in list(said):
        head = noun.rsplit(" ", 1)
        if len(head) == 2:
            said.extend(f"{head[0]} {form}" for form in pro_forms)
    return tuple(dict.fromkeys(said))


def _nouns(text: str, counted: Mapping[str, Slot]) -> list[_Noun]:
    found: list[_Noun] = []
    for name, slot in counted.items():
        nouns = slot_nouns(name, slot)
        if not nouns:
            continue
        for match in nouns_pattern(_said_nouns(nouns)).finditer(text):
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


PEOPLE_KINDS: Final = ("adult", "child", "infant", "senior", "student")
"""The packs' counted concepts that are kinds of people."""


@lru_cache(maxsize=1)
def _kinds_of_people() -> dict[str, Slot]:
    concepts = counted_concepts()
    return {
        kind: Slot(type="integer", kind="count", unit="people", nouns=list(concepts[kind]))
        for kind in PEOPLE_KINDS
        if kind in concepts
    }


def people_of_kinds(text: str, language: str = "") -> int | None:
    """The people counted by kind in one answer, added up ("two adults and two kids" is 4,
    "大人2人と子供1人" 3), for a slot that counts people of every kind; None unless two kinds
    or more are counted."""
    normal = normalize(text)
    if _totals(language).search(normal):
        return None  # the sum is said ("…あと妹の四人です")
    if any(pair_before(normal[: q.start], q, language) for q in quantities(normal)):
        return None  # the couple and their kids are read as one count (``with_pair``)
    kinds = _kinds_of_people()
    named = {noun.slot for noun in _nouns(normalize(text), kinds)}
    counts = {k: v for k, v in read_counts(text, kinds, None, language).items() if k in named}
    return int(sum(counts.values())) if len(counts) >= 2 else None
