"""Numbers as people say and write them, in Korean, Japanese and English.

One scan finds every quantity in an utterance: Arabic and full-width digits ("1,200",
"１２３", "1.5"), Sino-Korean and kanji numerals ("이천오백", "二千五百", "삼만 오천"),
native Korean numbers ("스물다섯", "세 명"), Japanese kana counts ("ふたり", "みっつ"),
English number words ("two thousand five hundred", "twenty-one", "one point five"), mixed
forms ("2천", "3万5千", "2 thousand") and digits read one by one ("공일공 일이삼사",
"zero one zero"). Each quantity keeps the counter or unit that follows it ("명", "km",
"キロ", "people"), which is how a party size, a distance and a clock time in one sentence
are told apart.

Words that are also ordinary words ("이" this, "네" yes, "만" only, "一緒" together) only
count as numbers where the grammar says so: single-syllable Korean forms need a counter,
Hangul numbers must stand alone, and a run of single digits needs three digits or a zero.
The patterns are compiled once at import; a scan is linear in the length of the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from dialogkit.nlu.lang import PACKS, pattern

# ----------------------------------------------------------------------------- atoms

_DIGIT, _TEEN, _TENS, _SMALL, _BIG, _POINT = "digit", "teen", "tens", "small", "big", "point"
_ARABIC = "arabic"

_PACKS: Final = tuple(PACKS.values())


def _numerals(script: str) -> dict[str, tuple[str, int]]:
    return {w: v for pack in _PACKS for w, v in pack.numerals.get(script, {}).items()}


_KO_SINO: Final = _numerals("sino")
_KANJI: Final = _numerals("kanji")
_NATIVE: Final = _numerals("native")
_KO_NATIVE_TENS: Final = {w: v for w, (role, v) in _NATIVE.items() if role == _TENS}
_KO_NATIVE_UNITS: Final = {w: v for w, (role, v) in _NATIVE.items() if role == _DIGIT}
_KO_PRENOMINAL: Final = frozenset(w for pack in _PACKS for w in pack.prenominal)
"""Forms that only stand before a counter ("세 명"); alone they are other words ("네" = yes)."""
_KANA: Final = {w: v for w, (_role, v) in _numerals("kana").items()}
_KANA_PEOPLE: Final = frozenset(w for pack in _PACKS for w in pack.people_counts)
_EN: Final = _numerals("en")


def _alone() -> re.Pattern[str]:
    """Words that count one person without a number ("just me", "혼자"), from the packs."""
    return pattern("", "alone", lambda p: p.alone)


def _with_companion() -> re.Pattern[str]:
    """Words that count two people without a number ("me and my wife"), from the packs."""
    return pattern("", "with_companion", lambda p: p.with_companion)


def _plus_self() -> re.Pattern[str]:
    """What after a count of people adds the speaker ("a kid and me", "한 명이랑 저요")."""
    return pattern("", "plus_self", lambda p: p.plus_self)


def _self_plus() -> re.Pattern[str]:
    """What before a count of people adds the speaker ("me and 3 friends")."""
    return pattern("", "self_plus", lambda p: p.self_plus)


def _whole_group() -> re.Pattern[str]:
    """What after a count of people makes it the whole party ("둘이서"), from the packs."""
    return pattern("", "whole_group", lambda p: p.whole_group)


def _with_speaker(text: str, quantity: Quantity) -> Quantity:
    """A count of people the speaker adds themself to, as one more ("친구 한 명
    데려갈게요", "me and 3 friends"); not a count of the whole party ("둘이서")."""
    if _whole_group().match(text, quantity.end):
        return quantity
    if quantity.dimension in (None, "people") and _self_plus().search(text[: quantity.start]):
        return replace(quantity, value=quantity.value + 1, dimension="people")
    if quantity.dimension not in (None, "people"):
        return quantity
    # "아들 하나랑 저요": a bare number the speaker joins counts people too.
    added = _plus_self().match(text, quantity.counter_end)
    if added is None:
        return quantity
    return replace(quantity, value=quantity.value + 1, counter_end=added.end(), dimension="people")


def _alternation(words: object) -> str:
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # type: ignore[call-overload]


_ATOM: Final = re.compile(
    r"(?P<arabic>\d{1,3}(?:,\d{3}){1,6}(?:\.\d{1,12})?|\d{1,24}(?:\.\d{1,12})?)"
    r"|(?P<en>(?<![a-z])(?:a(?=\s+(?:hundred|thousand|million|dozen|week|night|day|fortnight|minute|month|year)\b)|"
    r"an(?=\s+(?:hour|hr)\b)|"
    + _alternation(_EN)
    + r")(?![a-z]))"
    + r"|(?P<native>"
    + _alternation([*_KO_NATIVE_TENS, *_KO_NATIVE_UNITS])
    + r")"
    + r"|(?P<kana>"
    + _alternation(_KANA)
    + r")"
    + r"|(?P<sino>["
    + "".join(_KO_SINO)
    + r"])"
    + r"|(?P<kanji>["
    + "".join(_KANJI)
    + r"])"
)

# ----------------------------------------------------------------------------- counters

COUNTER_KINDS: Final[tuple[tuple[str, str, float], ...]] = (
    # (counter id in the packs, dimension, factor to the dimension's base unit), in the
    # order they are tried: "킬로미터" before "킬로", "시간" before "시", "인분" before "인".
    ("km", "length", 1000.0),
    ("kg", "mass", 1000.0),
    ("kilo", "kilo", 1000.0),
    ("cm", "length", 0.01),
    ("mm", "length", 0.001),
    ("m", "length", 1.0),
    ("g", "mass", 1.0),
    ("hours", "duration", 3600.0),
    ("night", "night", 1.0),
    ("clock", "clock", 1.0),
    ("minute", "minute", 1.0),
    ("second", "second", 1.0),
    ("people", "people", 1.0),
    ("portion", "portion", 1.0),
    ("age", "age", 1.0),
    ("year", "year", 1.0),
    ("months", "months", 1.0),
    ("month", "month", 1.0),
    ("day", "day", 1.0),
    ("week", "week", 1.0),
    ("items", "items", 1.0),
    ("times", "times", 1.0),
    ("money", "money", 1.0),
    ("percent", "percent", 1.0),
    ("floor", "floor", 1.0),
    ("things", "things", 1.0),
)
_COUNTERS: Final = tuple(
    (dimension, "|".join(p.counters[key] for p in _PACKS if key in p.counters), factor)
    for key, dimension, factor in COUNTER_KINDS
)
_COUNTER: Final = re.compile(
    r"\s?(?:" + "|".join(f"(?P<c{i}>{p})" for i, (_, p, _f) in enumerate(_COUNTERS)) + ")",
    re.IGNORECASE,
)
_PARTICLE: Final = re.compile(
    "|".join(f"(?:{p.number_particles})" for p in _PACKS if p.number_particles) or r"(?!x)x"
)
_AFTER_I_PARTICLE: Final = re.compile(r"(?:요|에요|야|고|라고|랑|나|었|면|지|죠|니)")
_MAX_ATOMS: Final = 24
"""Longest number in words (a phone number read digit by digit has 11): keeps a scan linear."""
_KO_STOPWORDS: Final = frozenset(w for pack in _PACKS for w in pack.number_stopwords)
"""Sino digits glued to a counter that are demonstratives, not numbers ("이번 주" = this week)."""
_LOOKALIKES: Final = tuple(re.compile(p) for pack in _PACKS for p in pack.number_lookalikes)
"""Where a word only looks like a number ("어느 정도 하나요?"): its ``word`` group."""


def _lookalike_spans(text: str) -> list[tuple[int, int]]:
    return [m.span("word") for pattern in _LOOKALIKES for m in pattern.finditer(text)]


_WRITTEN = re.compile(r"-?[\d,.]+")
_HANGUL = re.compile(r"[가-힣]")
_PEOPLE_CUE: Final = re.compile(
    "|".join(f"(?:{cue})" for pack in _PACKS for cue in pack.people_cue) or r"(?!x)x",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Quantity:
    """One number found in a text (positions are in the NFKC-normalized text)."""

    value: int | float
    start: int
    end: int
    """Where the number itself ends."""
    counter_end: int
    """Where its counter ends (``end`` when there is none)."""
    dimension: str | None = None
    """What the following counter measures ("length", "people", "clock"...), if any."""
    factor: float = 1.0
    """Multiplier from the counter to its dimension's base unit (km -> 1000 metres)."""
    digits: str | None = None
    """The digit string when the number was read digit by digit ("공일공" -> "010")."""


@dataclass(slots=True)
class _Atom:
    kind: str
    value: int | float
    start: int
    end: int
    script: str
    text: str


def normalize(text: str) -> str:
    """NFKC (full-width digits and letters to ASCII) and lower case; quantities' positions
    refer to this text."""
    return unicodedata.normalize("NFKC", text).lower()


def _atoms(text: str) -> list[_Atom]:
    atoms: list[_Atom] = []
    for match in _ATOM.finditer(text):
        script = match.lastgroup or ""
        word = match.group(0)
        start, end = match.span()
        if script == _ARABIC:
            raw = word.replace(",", "")
            value: int | float = float(raw) if "." in raw else int(raw)
            atoms.append(_Atom(_ARABIC, value, start, end, script, word))
        elif script == "en":
            kind, number = (_DIGIT, 1) if word in {"a", "an"} else _EN[word]
            atoms.append(_Atom(kind, number, start, end, script, word))
        elif script == "native":
            if word in _KO_NATIVE_TENS:
                atoms.append(_Atom(_TENS, _KO_NATIVE_TENS[word], start, end, script, word))
            else:
                atoms.append(_Atom(_DIGIT, _KO_NATIVE_UNITS[word], start, end, script, word))
        elif script == "kana":
            atoms.append(_Atom(_TEEN, _KANA[word], start, end, script, word))
        else:
            kind, number = (_KO_SINO if script == "sino" else _KANJI)[word]
            atoms.append(_Atom(kind, number, start, end, script, word))
    return atoms


def _joinable(text: str, left: _Atom, right: _Atom) -> bool:
    """Whether ``right`` continues the number that ``left`` belongs to."""
    gap = text[left.end : right.start]
    if left.script == "en" or right.script == "en":
        if left.script not in {"en", _ARABIC} or right.script != "en":
            return False
        if left.script == _ARABIC and right.kind not in {_SMALL, _BIG}:
            return False
        return re.fullmatch(r"\s*(?:-|\band\b)?\s*", gap) is not None
    if left.script == _ARABIC:
        # "2천", "3万", "3만 5천"
        return right.kind in {_SMALL, _BIG} and gap.strip() == ""
    if right.script == _ARABIC:
        return left.kind in {_SMALL, _BIG} and gap.strip() == ""
    if left.script != right.script:
        return False
    if left.script == "native" and not (left.kind == _TENS and right.kind == _DIGIT):
        return False  # "두세 명" is two or three people, not 23
    if gap == "":
        return True
    if gap.strip() not in {"", "-"}:
        return False
    if _ends_a_word(text, left):
        return False  # "제 핸드폰이 공일공 …": the particle of "핸드폰" starts no number
    if left.kind in {_SMALL, _BIG}:
        return True  # "이천 오백", "삼만 오천"
    if left.kind == _TENS and right.kind == _DIGIT:
        return True  # "스물 다섯"
    # digits read one by one: "일 이 삼 사", "공일공 일이삼사"
    return left.kind == right.kind == _DIGIT and left.script == right.script == "sino"


def _ends_a_word(text: str, atom: _Atom) -> bool:
    """Whether a Korean numeral is the last syllable of another word ("핸드폰이", "회사"): a
    Hangul syllable that is no numeral comes right before it."""
    return (
        atom.script == "sino"
        and atom.start > 0
        and "가" <= text[atom.start - 1] <= "힣"
        and text[atom.start - 1] not in _KO_SINO
    )


def _is_teen(value: float | None) -> bool:
    """13 to 19: the first half of a year said in two parts (10 to 12 are clock hours)."""
    return value is not None and 13 <= value <= 19


def _fold(atoms: list[_Atom]) -> tuple[int | float, str | None] | None:
    """The value of consecutive atoms, and the digit string when read one by one.

    None when the atoms do not form one number (then the caller splits them)."""
    total: int | float = 0
    section: int | float = 0
    current: int | float | None = None
    digits: str | None = None
    decimal: str | None = None
    last = ""
    for atom in atoms:
        if decimal is not None:
            if atom.kind != _DIGIT:
                return None
            decimal += str(atom.value)
            continue
        if atom.kind == _POINT:
            if current is None or (digits is not None and len(digits) > 1):
                return None
            decimal, digits = "", None
        elif atom.kind == _ARABIC:
            if current is not None:
                return None
            current = atom.value
        elif atom.kind == _DIGIT:
            if current is None:
                current = atom.value
                digits = str(atom.value) if not (total or section) else None
            elif last == _TENS and 0 < atom.value < 10:
                current += atom.value
                digits = None
            elif last == _DIGIT and digits is not None:
                digits += str(atom.value)
                current = int(digits)
            else:
                return None
        elif atom.kind == _TENS and last == _TEEN and atom.script == "en" and _is_teen(current):
            current = int(current or 0) * 100 + atom.value  # a year: "nineteen ninety"
        elif atom.kind in {_TEEN, _TENS}:
            if current is not None:
                return None
            current = atom.value
        elif atom.kind == _SMALL:
            if digits is not None and len(digits) > 1:
                return None
            section += (current if current is not None else 1) * atom.value
            current, digits = None, None
        elif atom.kind == _BIG:
            if digits is not None and len(digits) > 1:
                return None
            base = section + (current or 0)
            total += (base or 1) * atom.value
            section, current, digits = 0, None, None
        last = atom.kind
    if decimal is not None:
        if not decimal:
            return total + section + (current or 0), None
        return total + section + float(f"{current}.{decimal}"), None
    value = total + section + (current or 0)
    if digits is not None and len(digits) < 2:
        digits = None
    return value, digits


def _counter(text: str, end: int) -> tuple[str, float, int] | None:
    match = _COUNTER.match(text, end)
    if not match or not match.lastgroup:
        return None
    dimension, _pattern, factor = _COUNTERS[int(match.lastgroup[1:])]
    return dimension, factor, match.end()


def _stands_alone(text: str, group: list[_Atom], counter_end: int | None) -> bool:
    """Hangul numbers must be whole words; short or ambiguous forms need a counter."""
    first, last = group[0], group[-1]
    scripts = {a.script for a in group}
    if scripts & {"sino", "native"}:
        if first.start > 0 and _HANGUL.match(text, first.start - 1):
            return False
        counter = counter_end is not None
        if counter_end is not None and text[first.start : counter_end] in _KO_STOPWORDS:
            return False
        if not counter:
            after = last.end
            glued = after < len(text) and _HANGUL.match(text, after)
            if glued and not _PARTICLE.match(text, after):
                return False
        if "native" in scripts:
            return counter or not any(a.text in _KO_PRENOMINAL for a in group)
        if len(group) == 1:
            return counter
        if all(a.kind == _DIGIT for a in group):
            spoken = "".join(str(a.value) for a in group)
            return counter or len(spoken) >= 3 or "0" in spoken
    return True


def _trim_particle(text: str, group: list[_Atom]) -> list[_Atom]:
    """ "이천오백이요" is 2500 followed by the particle 이, not 2502: the particle 이 follows
    a syllable ending in a consonant. After 십 both readings are grammatical, and the
    number ("삼십이요" = 32) is kept; digits read one by one keep it too ("오사삼이요" ends
    in 2), and a phone number tries both readings (``without_particle_i``)."""
    if (
        len(group) >= 2
        and group[-1].text == "이"
        and group[-2].kind in {_SMALL, _BIG}
        and group[-2].text != "십"
        and _AFTER_I_PARTICLE.match(text, group[-1].end)
    ):
        return group[:-1]
    return group


def _quantity(text: str, group: list[_Atom]) -> Quantity | None:
    group = _trim_particle(text, group)
    folded = _fold(group)
    if folded is None:
        return None
    value, digits = folded
    start, end = group[0].start, group[-1].end
    counter = None if group[-1].script == "kana" else _counter(text, end)
    native = any(a.script == "native" for a in group)
    if counter and native and counter[0] == "age" and text[counter[2] - 1] == "세":
        counter = None  # "두세 명": native numbers count years with 살; 세 is "three" here
    if not _stands_alone(text, group, None if counter is None else counter[2]):
        return None
    if start > 0 and text[start - 1] == "-" and (start < 2 or not text[start - 2].isalnum()):
        value, start = -value, start - 1
    if group[-1].text in _KANA_PEOPLE:
        return Quantity(value, start, end, end, "people")
    if counter is None:
        cue = "people" if _PEOPLE_CUE.search(text[max(0, start - 16) : start]) else None
        return Quantity(value, start, end, end, cue, 1.0, digits)
    dimension, factor, after = counter
    if dimension == "minute" and native:
        dimension = "people"  # "세 분" = three people; minutes are counted in Sino-Korean
    return Quantity(value, start, end, after, dimension, factor, digits)


def _groups(text: str, atoms: list[_Atom]) -> list[list[_Atom]]:
    groups: list[list[_Atom]] = []
    for atom in atoms:
        if (
            groups
            and len(groups[-1]) < _MAX_ATOMS
            and _joinable(text, groups[-1][-1], atom)
            and _fold([*groups[-1], atom])
        ):
            groups[-1].append(atom)
        else:
            groups.append([atom])
    return groups


@lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Quantity, ...]:
    """Every number in ``text``, in order (``text`` as returned by ``normalize``)."""
    pairs = [
        Quantity(2, m.start(), m.end(), m.end(), "people") for m in _with_companion().finditer(text)
    ]
    # "just me and my wife" is two: "just me" is alone only when no companion follows.
    found: list[Quantity] = [
        Quantity(1, m.start(), m.end(), m.end(), "people")
        for m in _alone().finditer(text)
        if not any(pair.start < m.end() and m.start() < pair.end for pair in pairs)
    ]
    found.extend(pairs)
    spoken = tuple(found)  # "just the two of us" is one quantity, not also a "two"
    lookalikes = _lookalike_spans(text)
    for group in _groups(text, _atoms(text)):
        if any(start <= group[0].start < end for start, end in lookalikes):
            continue
        quantity = _quantity(text, group)
        if quantity is None and len(group) > 1:
            # a group that does not read as one number may still hold one at its start
            quantity = _quantity(text, group[:1])
        if quantity is not None and (_begins_a_word(text, quantity) or _at_all(text, quantity)):
            continue
        if quantity is not None and not any(
            said.start <= quantity.start < said.end for said in spoken
        ):
            if found and quantity.start < found[-1].counter_end:
                continue  # the "일" of "2일권" is the first's counter, not a number of its own
            counted = _with_speaker(text, quantity)
            if counted.value != quantity.value and counted.counter_end == quantity.counter_end:
                # "me and my 3 friends": the speaker is in this count, not two with a companion.
                found = [q for q in found if not (q in spoken and q.end <= quantity.start)]
            found.append(counted)
    return tuple(sorted(found, key=lambda q: q.start))


_IDEOGRAPH: Final = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def _begins_a_word(text: str, quantity: Quantity) -> bool:
    """Whether a kanji numeral without a counter is the first character of a word ("一緒",
    "一応", "一番"): another ideograph follows it, so it counts nothing."""
    said = text[quantity.start : quantity.end]
    return (
        quantity.counter_end == quantity.end
        and all(character in _KANJI for character in said)
        and _IDEOGRAPH.match(text, quantity.end) is not None
    )


def _at_all(text: str, quantity: Quantity) -> bool:
    """Whether a number says "at all" ("하나도 모르겠어요", "一つも分からない") or is part of
    a compound word ("ひとりカラオケ", "2인실")."""
    if pattern("", "at_all", lambda p: p.at_all).match(text, quantity.counter_end) is not None:
        return True
    compound = pattern("", "in_compound", lambda p: p.in_compound)
    return quantity.dimension == "people" and compound.match(text, quantity.counter_end) is not None


def implied(text: str, quantity: Quantity) -> bool:
    """Whether ``quantity`` is a count of people no number says ("just me", "夫婦", "me and my
    wife"): ``text`` is the normalised utterance it was found in."""
    return bool(
        _alone().fullmatch(text, quantity.start, quantity.end)
        or _with_companion().fullmatch(text, quantity.start, quantity.end)
    )


def said_outright(text: str, found: Sequence[Quantity]) -> tuple[Quantity, ...]:
    """``found`` without the counts of people no number says when one is said outright:
    "うちら夫婦と、息子夫婦なんで、四人ですね" is four, not the couple on the way to it."""
    if not any(q.dimension == "people" and not implied(text, q) for q in found):
        return tuple(found)
    return tuple(q for q in found if not implied(text, q))


def pair_before(before: str, quantity: Quantity, language: str = "") -> re.Match[str] | None:
    """The speaker and a partner said right ``before`` a count of people (``pair_plus``)."""
    if quantity.dimension not in (None, "people"):
        return None
    return pattern(language, "pair_plus", lambda p: p.pair_plus).search(before)


def with_pair(text: str, found: Sequence[Quantity], language: str = "") -> tuple[Quantity, ...]:
    """``found`` with the count of people after the speaker and a partner counting both
    ("me, my wife and our three kids" is five, "저랑 아내랑 애들 둘" four), and the couple no
    count of its own; for a slot that counts people: in a slot of kids' bikes the kids stay
    two and the couple is another slot's. ``text`` is normalised."""
    # "my husband and me and 2 kids": the speaker is counted in already ("me and 2").
    counted_in = pattern(language, "self_plus", lambda p: p.self_plus)
    for quantity in found:
        before = text[: quantity.start]
        said = pair_before(before, quantity, language)
        if said is not None:
            added = 1 if counted_in.search(before) else 2
            joined = replace(quantity, value=quantity.value + added, dimension="people")
            return tuple(
                joined if q is quantity else q
                for q in found
                if q is quantity or not said.start() <= q.start < said.end()
            )
    return tuple(found)


def find_quantities(text: str) -> tuple[Quantity, ...]:
    """Every number in ``text`` (any script), in order."""
    return quantities(normalize(text))


def rewrite(text: str, render: Callable[[Quantity, str], str | None]) -> str:
    """``text`` with each number and its counter replaced by ``render(quantity,
    normalized_text)``; None keeps that number as written."""
    normalized = normalize(text)
    # the words around the numbers keep their case when normalizing kept the positions
    source = text if len(text) == len(normalized) else normalized
    parts: list[str] = []
    position = 0
    for quantity in quantities(normalized):
        replacement = render(quantity, normalized)
        if replacement is None:
            continue
        parts.append(source[position : quantity.start])
        parts.append(replacement)
        position = quantity.counter_end
    parts.append(source[position:])
    return "".join(parts)


def plain(value: float) -> str:
    """A number as digits, without a needless ".0"."""
    return str(int(value)) if float(value).is_integer() else str(value)


def _as_digits(quantity: Quantity, text: str) -> str | None:
    if _WRITTEN.fullmatch(text, quantity.start, quantity.end):
        return None  # already digits: "05.03.02" stays a date, not 5.03
    if implied(text, quantity):
        return None
    number = quantity.digits if quantity.digits is not None else plain(quantity.value)
    return number + text[quantity.end : quantity.counter_end]


_PARTICLE_I: Final = re.compile(
    r"(?<=[영공일삼육륙칠팔])이"
    r"(?=(?:요|에요|예요|입니다|야|고|라고|랑|었|죠|지|면|[\s.!,](?![\s,]*[영공일이삼사오육륙칠팔구])|$))"
)
"""A 이 followed by more digits read one by one is a digit ("공일공에 사칠팔이 구구공일이요")."""


def without_particle_i(text: str) -> str:
    """``text`` with each 이 after a digit ending in a consonant read as a particle
    ("오육칠팔이요" -> "오육칠팔요", "오일이에요" -> "오일에요"): the other reading of digits
    read one by one, which dates and phone numbers try."""
    return _PARTICLE_I.sub("", text)


def words_as_digits(text: str) -> str:
    """``text`` with numbers said in words written in digits, other words as they were."""
    return rewrite(text, _as_digits)


def digits_spoken(text: str) -> str:
    """``text``, normalized, with every number written in digits, so "공일공 일이삼사
    오육칠팔" reads as "01012345678" for a phone and "삼월 오일" as "3월 5일" for a date."""
    return words_as_digits(normalize(text))
