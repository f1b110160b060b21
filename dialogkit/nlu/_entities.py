"""Typed slot values: extraction from an utterance, coercion of model output, validation.

One function per slot type keeps the rule NLU and the LLM NLU honest in the same way: an LLM
entity goes through ``coerce``, which runs the same extractor on its text, so a model cannot
put a value into a slot that a rule would not accept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Final

from dialogkit.nlu._acts import is_small_talk, polarity
from dialogkit.nlu._dates import read_date
from dialogkit.nlu._discipline import is_interjection, is_relation
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._fuzzy import Target, closest, targets
from dialogkit.nlu._kinds import COUNT_UNITS, DURATION_UNITS, MONEY_UNITS, counts_people, slot_kind
from dialogkit.nlu._numbers import (
    Quantity,
    digits_spoken,
    find_quantities,
    normalize,
    plain,
    quantities,
    rewrite,
    said_outright,
    with_pair,
    without_particle_i,
    words_as_digits,
)
from dialogkit.nlu._plausible import (
    Period,
    is_birth_date,
    plausible_age,
    plausible_birth_date,
    plausible_date,
    plausible_phone,
)
from dialogkit.nlu._times import read_time
from dialogkit.nlu._words import meant_part, nouns_pattern
from dialogkit.nlu.lang import PACKS, change_hints, labels, paraphrases, pattern, words
from dialogkit.scenario.conditions import compile_pattern
from dialogkit.scenario.model import Slot


class _Invalid:
    __slots__ = ()

    def __repr__(self) -> str:
        return "INVALID"

    def __bool__(self) -> bool:
        return False


INVALID: Final = _Invalid()
"""Returned when a value does not fit its slot (or nothing fitting was found)."""

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_PHONE = re.compile(r"(?<!\d)(\+?\d[\d\s().,、-]{7,17}\d)(?!\d)")
_PHONE_JOINER = re.compile(r"(?<=\d)[\s、,]*(?:에|의|다시|dash|の)[\s、,]*(?=\d)")
"""What people say between the groups of a phone number ("공일공에 일이삼사에 ...")."""


def contains_word(text: str, word: str) -> bool:
    """``word`` in ``text``; Latin words must stand alone (\"correct\" is not in \"incorrect\"),
    and so must a katakana word of two letters within katakana ("タイ" is not in "ケータイ")."""
    if _bounded(word):
        return _standalone(word).search(text) is not None
    return word in text


_KATAKANA: Final = "ァ-ヺー"
_SHORT_KATAKANA: Final = re.compile(f"[{_KATAKANA}]{{1,2}}")


def _bounded(word: str) -> bool:
    return word.isascii() or _SHORT_KATAKANA.fullmatch(word) is not None


def _word_pattern(word: str) -> str:
    """The regular expression ``contains_word`` amounts to."""
    if word.isascii():
        return rf"(?<![a-z]){re.escape(word)}(?![a-z])"
    if _SHORT_KATAKANA.fullmatch(word):
        return rf"(?<![{_KATAKANA}]){re.escape(word)}(?![{_KATAKANA}])"
    return re.escape(word)


@lru_cache(maxsize=4096)
def _standalone(word: str) -> re.Pattern[str]:
    """The matcher of a word standing alone (``contains_word``), compiled once per word
    (every enum value and synonym is looked for on every turn)."""
    return re.compile(_word_pattern(word))


_UNITS: Final[dict[str, tuple[str, float]]] = {
    "mm": ("length", 0.001),
    "cm": ("length", 0.01),
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "g": ("mass", 1.0),
    "kg": ("mass", 1000.0),
    "people": ("people", 1.0),
    "items": ("items", 1.0),
    "age": ("age", 1.0),
    **dict.fromkeys(MONEY_UNITS, ("money", 1.0)),
}
"""Slot units: the kind of quantity and the factor to that kind's base unit (an amount of
money is kept as said: the engine converts no currency)."""

_CALENDAR: Final = frozenset(
    {"clock", "minute", "second", "duration", "year", "month", "months", "day", "week", "night"}
)
"""Counters of times and dates: "7시" is never a party size."""


_SPANS: Final[dict[str, tuple[str, float]]] = {
    "night": ("days", 1.0),
    "day": ("days", 1.0),
    "week": ("days", 7.0),
    "months": ("days", 30.0),
    "duration": ("seconds", 1.0),
    "minute": ("seconds", 60.0),
    "second": ("seconds", 1.0),
}
"""Counters of a span of time, by the base a duration slot's unit is kept in."""


def _unit(slot: Slot) -> tuple[str, float] | None:
    unit = (slot.unit or "").strip().lower()
    return _UNITS.get(unit) or DURATION_UNITS.get(unit)


def known_unit(unit: str) -> bool:
    """Whether numbers with a counter are converted to ``unit``."""
    return unit.strip().lower() in _UNITS or unit.strip().lower() in DURATION_UNITS


def in_slot_unit(quantity: Quantity, slot: Slot) -> float | None:
    """The quantity in the slot's unit; None when it measures something else."""
    return _in_unit(quantity, _unit(slot))


def _in_unit(quantity: Quantity, unit: tuple[str, float] | None) -> float | None:
    """The quantity in the unit; None when it measures something else."""
    if quantity.dimension is None:
        return quantity.value
    if unit is None:
        return None if quantity.dimension in _CALENDAR else quantity.value
    dimension, factor = unit
    span = _SPANS.get(quantity.dimension)
    if span is not None:
        base, to_base = span
        return quantity.value * quantity.factor * to_base / factor if base == dimension else None
    # Items are counted with any counter of countable things ("셔츠 다섯 장", "양복 세 벌").
    if (
        quantity.dimension == dimension
        or (quantity.dimension == "kilo" and dimension in {"length", "mass"})
        or (quantity.dimension == "things" and dimension == "items")
    ):
        return quantity.value * quantity.factor / factor
    return None


def exact(value: float) -> int | float:
    rounded = round(value, 9)
    return int(rounded) if float(rounded).is_integer() else rounded


def extract_number(slot: Slot, text: str, *, expected: bool = True) -> Any:
    """The first number that fits the slot's unit.

    A number with a counter of its own kind comes first ("4명" for a party size in "7시에
    4명"). When the slot is not the one asked for, only such an explicitly counted number
    is read, so several values in one utterance land in their own slots."""
    total = max(_TOTALS.finditer(text), key=lambda said: said.end(), default=None)
    if total is not None:
        summed = extract_number(slot, text[total.end() :], expected=expected)
        if summed is not INVALID:
            return summed
    unit = _unit(slot)
    loose: Any = INVALID
    normalized = normalize(text)
    # "둘째", "the 2nd": an ordinal counts nothing (though it may be a floor or a place).
    counts = (slot.unit or "").strip().lower() in COUNT_UNITS
    found = find_quantities(text)
    if counts_people(slot):
        found = said_outright(normalized, with_pair(normalized, found))
    for quantity in found:
        value = _in_unit(quantity, unit)
        if value is None or changes_by(normalized, quantity):
            continue
        if counts and _ORDINAL_AFTER.match(normalized, quantity.counter_end):
            continue
        if unit is not None and unit[0] == "age" and not plausible_age(value):
            continue
        counted = quantity.dimension is not None and unit is not None
        if counted:
            return exact(value)
        if loose is INVALID:
            loose = exact(value)
    return loose if expected else INVALID


def extract_integer(slot: Slot, text: str, *, expected: bool = True) -> Any:
    number = extract_number(slot, text, expected=expected)
    if number is INVALID:
        return INVALID
    return int(number) if float(number).is_integer() else INVALID


def extract_boolean(text: str) -> Any:
    """A yes/no answer; a negation anywhere wins ("밥은 먹었는데 약은 깜빡했어" is a no)."""
    answer = polarity(text)
    return INVALID if answer is None else answer


def extract_enum(slot: Slot, text: str, *, expected: bool = True) -> Any:
    """The value (or synonym) named in ``text``; when the slot is the one asked for, also
    a value typed with one slip ("capuccino", "체크카두")."""
    lowered = text.lower()
    plan = _enum_plan(slot)
    rejected = False
    if plan.any_needle is not None and plan.any_needle.search(lowered):
        for needle, value in plan.needles:
            if not needle or not contains_word(lowered, needle):
                continue
            if not all(_rejected(lowered, m) for m in _standalone_in(needle).finditer(lowered)):
                return value
            rejected = True
    if expected and not rejected:
        close = _typo(plan, lowered)
        if close is not None:
            return close
    return INVALID


@lru_cache(maxsize=4096)
def _standalone_in(needle: str) -> re.Pattern[str]:
    """Where a needle stands in the text: a Latin word alone, any other script anywhere
    (compiled once per needle, as ``_standalone``: not escaped on every turn)."""
    return _standalone(needle) if _bounded(needle) else re.compile(re.escape(needle))


def _rejected(text: str, match: re.Match[str]) -> bool:
    """Whether the value at ``match`` is turned down rather than chosen ("I don't want the
    suite", "anything but twin", "스위트는 싫어요", "ダブルじゃない")."""
    before = pattern("", "rejects_before", lambda p: p.rejects_before, re.IGNORECASE)
    after = pattern("", "rejects_after", lambda p: p.rejects_after, re.IGNORECASE)
    return bool(
        before.search(text[max(0, match.start() - 24) : match.start()])
        or after.match(text, match.end())
    )


@lru_cache(maxsize=4096)
def _typo(plan: _EnumPlan, lowered: str) -> str | None:
    """The value typed with one slip, remembered per slot and utterance: the edit-distance
    search is the costliest part of reading an enum, and short answers ("응", "네 좋아요")
    come back again and again."""
    return closest(lowered, plan.targets)


@dataclass(frozen=True, slots=True, eq=False)
class _EnumPlan:
    """An enum slot's values and synonyms, lower-cased, longest first (so "체크카드" wins over
    "카드"), and those one edit may reach. Compared and hashed by identity: one per slot."""

    needles: tuple[tuple[str, str], ...]
    any_needle: re.Pattern[str] | None
    """Every needle in one alternation: most utterances name none, and one search tells so
    (twenty times faster than a test per needle)."""
    targets: tuple[Target, ...]


_ENUM_PLANS: dict[int, tuple[Slot, _EnumPlan]] = {}
"""Plans by slot identity (scenario slots are shared and never change); the slot is kept with
its plan, so its id cannot be reused while the entry lives."""
_ENUM_PLANS_KEPT: Final = 1024


def _enum_plan(slot: Slot) -> _EnumPlan:
    known = _ENUM_PLANS.get(id(slot))
    if known is not None and known[0] is slot:
        return known[1]
    candidates: list[tuple[str, str]] = []
    for value in slot.values:
        candidates.append((value.lower(), value))
        candidates.extend((synonym.lower(), value) for synonym in slot.synonyms.get(value, []))
    declared = {needle for needle, _ in candidates}
    # A value said in other words ("bring it to my house" for "delivery"): the paraphrase
    # groups of the packs, unless a phrase is already another value's.
    candidates.extend(
        (other, value)
        for needle, value in list(candidates)
        for other in paraphrases(needle)
        if other not in declared
    )
    needles = tuple(sorted(candidates, key=lambda item: len(item[0]), reverse=True))
    alternatives = [_word_pattern(needle) for needle, _ in needles if needle]
    any_needle = re.compile("|".join(alternatives)) if alternatives else None
    plan = _EnumPlan(needles, any_needle, targets(needles))
    if len(_ENUM_PLANS) >= _ENUM_PLANS_KEPT:
        _ENUM_PLANS.clear()
    _ENUM_PLANS[id(slot)] = (slot, plan)
    return plan


def date_period(slot: Slot, name: str = "") -> Period | None:
    """Which side of today the slot's dates lie on: declared, or past for a birth date."""
    if slot.validation.period is not None:
        return slot.validation.period
    return "past" if is_birth_date(name, slot.description) else None


def extract_date(slot: Slot, text: str, frame: Frame, name: str = "") -> Any:
    """A date in the user's frame, as ISO ``YYYY-MM-DD``, if plausible for the slot."""
    period = date_period(slot, name)
    birth = is_birth_date(name, slot.description)
    spans = pattern("", "stay_spans", lambda p: p.stay_spans)
    if spans.search(digits_spoken(text)):
        text = spans.sub(" ", digits_spoken(text))
    found = read_date(text, frame, period, relative=not birth)
    if found is None or not plausible_date(found, frame.today, period):
        return INVALID
    if birth and not plausible_birth_date(found, frame.today):
        return INVALID
    return found.isoformat()


def extract_time(slot: Slot, text: str, *, expected: bool = True) -> Any:
    """A clock time; of "7時" (07:00 or 19:00) the reading the slot's validation allows."""
    readings = read_time(text, bare=expected)
    for reading in readings:
        if validate(slot, reading) is not INVALID:
            return reading
    return readings[0] if readings else INVALID


_DATE_OR_CLOCK: Final = re.compile(
    r"(?<!\d)(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}"
    r"|\d{1,2}:\d{2}(?::\d{2})?)(?!\d)"
)
"""Digits a date or a clock time consumes ("2026-11-30, 12:45"): never part of a phone."""


@lru_cache(maxsize=1)
def _digit_repeats() -> tuple[re.Pattern[str], dict[str, int]]:
    """Every pack's words that repeat the next digit ("double oh"), as one pattern."""
    repeats = {w.lower(): n for pack in PACKS.values() for w, n in pack.digit_repeats.items()}
    words = "|".join(re.escape(w) for w in repeats) or "(?!x)x"
    return re.compile(rf"\b({words})\s+(\S+)", re.IGNORECASE), repeats


def _repeated_digits(text: str) -> str:
    """``text`` with "double oh" read as "oh oh"."""
    found, repeats = _digit_repeats()
    return found.sub(lambda m: " ".join([m.group(2)] * repeats[m.group(1).lower()]), text)


@lru_cache(maxsize=1)
def _phone_digit_words() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    """Runs of three or more of the packs' phone digit words, one such word, and each
    word's digit."""
    digits = {w: str(d) for pack in PACKS.values() for w, d in pack.phone_digits.items()}
    one = "|".join(re.escape(w) for w in sorted(digits, key=len, reverse=True)) or "(?!)"
    return re.compile(rf"(?:(?:{one})[ー\s]*){{3,}}"), re.compile(one), digits


def _read_out_digits(text: str) -> str:
    """``text`` with runs of digit words written in digits ("ゼロハチゼロ" -> "080")."""
    runs, word, digits = _phone_digit_words()
    return runs.sub(lambda run: word.sub(lambda w: digits[w.group()], run.group()), text)


@lru_cache(maxsize=1)
def _hesitations_between_digits() -> re.Pattern[str]:
    """A hesitation of any pack ("어…", "um", "えーと") between two digits of a number read
    out ("공일공에 칠칠팔삼, 어… 이오육일"): no part of the number."""
    said = sorted(
        {w.lower() for pack in PACKS.values() for w in pack.openers}, key=len, reverse=True
    )
    fillers = "|".join(re.escape(w) for w in said) or "(?!)"
    return re.compile(rf"(\d)[\s,.…~-]*(?<!\w)(?:{fillers})(?!\w)[\s,.…~-]*(?=\d)", re.IGNORECASE)


def extract_phone(text: str) -> Any:
    """A phone number, written or read digit by digit ("공일공 일이삼사 오육칠팔", "two three
    double oh", "ゼロハチゼロ"); digits that write a date or a time are no phone."""
    text = _DATE_OR_CLOCK.sub(" ; ", _repeated_digits(_read_out_digits(text)))
    spoken = (digits_spoken(text), digits_spoken(without_particle_i(text)))
    readings = (text, *(_PHONE_JOINER.sub("-", reading) for reading in spoken))
    for source in (_hesitations_between_digits().sub(r"\1 ", reading) for reading in readings):
        for match in _PHONE.finditer(source):
            raw = match.group(1)
            digits = re.sub(r"\D", "", raw)
            international = raw.startswith("+")
            if not plausible_phone(digits, international):
                continue
            if international:
                return f"+{digits}"
            if len(digits) == 11 and digits.startswith("0"):
                return f"{digits[:3]}-{digits[3:7]}-{digits[7:]}"
            if len(digits) == 10 and digits.startswith("01"):
                return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
            return digits
    return INVALID


@lru_cache(maxsize=1)
def _spoken_symbols() -> tuple[re.Pattern[str], dict[str, str]]:
    """The packs' words for an address's symbols, with the spaces around them."""
    symbols = {w: c for pack in PACKS.values() for w, c in pack.email_symbols.items()}
    said = (
        rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w)
        for w in sorted(symbols, key=len, reverse=True)
    )
    return re.compile(rf"\s*(?:{'|'.join(said) or '(?!)'})\s*", re.IGNORECASE), symbols


def extract_email(text: str) -> Any:
    """An e-mail address, written or spoken ("hanako アンダーバー sato アットマーク gmail
    ドット com", "kim dot j at example dot org")."""
    match = _EMAIL.search(text)
    if match is None:
        spoken, symbols = _spoken_symbols()
        match = _EMAIL.search(spoken.sub(lambda w: symbols[w.group().strip().lower()], text))
    return match.group(0).lower() if match else INVALID


def extract_pattern(slot: Slot, text: str) -> Any:
    """The pattern's match. Numbers said in words are written as digits for a second try
    ("grid one two three four five six" -> "grid 123456"); with a unit they are always
    written in the unit first, since "distance 10 km" must not match as 10 metres."""
    pattern = compile_pattern(slot.pattern or "")
    if pattern is None or not slot.pattern:
        return INVALID
    unit = _unit(slot)
    readings = (_in_slot_unit(text, unit),) if unit else (text, words_as_digits(text))
    for reading in readings:
        match = pattern.search(reading)
        if match:
            return (match.groupdict().get("value") or match.group(0)).strip()
    return INVALID


def _in_slot_unit(text: str, unit: tuple[str, float]) -> str:
    """Quantities of the unit's kind, said in words or in another unit, written as digits in
    the slot's unit ("distance 2km" -> "distance 2000")."""

    def render(quantity: Quantity, _text: str) -> str | None:
        value = _in_unit(quantity, unit)
        return None if value is None else plain(exact(value))

    return rewrite(text, render)


_TRAILING = re.compile(r"[\s.!?。！？~]+$")


@lru_cache(maxsize=1)
def _name_frames() -> tuple[re.Pattern[str], ...]:
    """Every pack's frames around a person's name, compiled once."""
    return tuple(re.compile(f, re.IGNORECASE) for f in words("", lambda p: p.name_frames))


@lru_cache(maxsize=1)
def _address_frames() -> tuple[re.Pattern[str], ...]:
    """Every pack's frames around an address, compiled once."""
    return tuple(re.compile(f, re.IGNORECASE) for f in words("", lambda p: p.address_frames))


_SPACED_HANGUL_NAME: Final = re.compile(r"[가-힣]\s[가-힣]{1,3}")


def _joined_name(value: str) -> str:
    """A Korean name said with its family name apart ("김 민수") as it is written: one word."""
    return value.replace(" ", "") if _SPACED_HANGUL_NAME.fullmatch(value) else value


_CLAUSE_BREAK: Final = re.compile(
    r"\s*(?:[,;、。，?？!！]|(?<=[가-힣\u3040-\u30ff\u4e00-\u9fff])\.)\s*"
)
"""A pause inside an answer, or a question before it ("남편 이름으로 해도 되죠? 오성민이요"); a
full stop only after Hangul, kana or kanji, since "Mrs." and "J." end no clause."""
_SPELLED_OUT: Final = re.compile(
    r"(?:[\s,.、。-]+\w(?!\w)){2,}(?:\s*[,.、。-][\s,.、。-]*\w{2,3}(?!\w))?[\s,.、。!]*$"
)
"""Single letters or syllables, two or more, that end an answer: a name spelled out, the last
one perhaps with its ending after a pause ("박, 준, 혁이요"; not "해 주세요")."""


@lru_cache(maxsize=1)
def _lead_in() -> re.Pattern[str]:
    """Hesitations, apologies, discourse markers, greetings and a plain yes that may open an
    answer ("um, ...", "네 안녕하세요 ...", "ごめんなさい、...", "you know what, ..."), each
    followed by a pause: never part of the value (compiled once from every pack)."""
    said = (
        *words("", lambda p: p.openers),
        *words("", lambda p: p.apologies),
        *words("", lambda p: p.discourse_markers),
        *words("", lambda p: p.lead_words.get("affirm", ())),
        *words("", lambda p: p.intents.get("greet", ((), ()))[0]),
        *words("", lambda p: p.intents.get("greet", ((), ()))[1]),
    )
    alternatives = "|".join(re.escape(w) for w in sorted(set(said), key=len, reverse=True))
    return re.compile(rf"^(?:(?:{alternatives})(?:\s*[,.…!?~、。，！？]+\s*|\s+))+", re.IGNORECASE)


def without_lead_in(text: str) -> str:
    """``text`` without the hesitations and greetings it opens with (all of it when nothing
    else is said)."""
    rest = _lead_in().sub("", text)
    return rest if rest.strip() else text


def without_courtesy(text: str) -> str:
    """``text`` without the courtesy its last clause is ("27 Maple Avenue, thanks", "창가
    자리로 부탁해요, 감사합니다"): never part of a value."""
    last = max(_CLAUSE_BREAK.finditer(text), key=lambda edge: edge.start(), default=None)
    if last is None or not text[: last.start()].strip():
        return text
    return text[: last.start()] if is_interjection(text[last.end() :]) else text


@lru_cache(maxsize=1)
def _titles() -> re.Pattern[str]:
    return pattern("", "titles", lambda p: p.titles, re.IGNORECASE)


def _untitled(name: str) -> str:
    """The name without a title said with it, when it stays whole without: two words, or
    two letters of a script without spaces between names ("Mrs. Patricia Nguyen" ->
    "Patricia Nguyen", "정하늘 과장님" -> "정하늘"; "Dr. Alvarez" and "김 과장님" keep it); empty
    for a title alone."""
    for title in _titles().finditer(name):
        if title.start() == 0:
            rest = name[title.end() :].strip()
        elif title.end() == len(name):
            rest = name[: title.start()].strip()
        else:
            continue
        if not rest:
            return ""  # a title alone ("팀장님") names nobody
        if len(rest.split()) >= 2 or (not rest.isascii() and len(rest.replace(" ", "")) >= 2):
            return rest
    return name


def _framed_name(text: str) -> str | None:
    """The name a pack's frame reads out of the whole of ``text``; never a clause ("for my
    dad" in "this is for my dad") nor a day ("あの、やっぱり明後日でお願いします" names a date,
    not a guest)."""
    clause = pattern("", "clause_marks", lambda p: p.clause_marks, re.IGNORECASE)
    cleaned = _TRAILING.sub("", text.strip())
    for frame in _name_frames():
        found = frame.fullmatch(cleaned)
        if found is not None:
            value = _joined_name(_untitled(found.group("value").strip()))
            if clause.search(value) or read_date(value, Frame.of(None)) is not None:
                continue
            return value
    return None


def _framed_names(texts: Iterable[str]) -> list[str]:
    """The names the packs' frames read out of each of ``texts`` that frames one; a label
    read as the name ("제 이름으로 해 주세요, 이서연이에요" frames "이름") names nobody."""
    return [
        found
        for said in texts
        if (found := _framed_name(said)) is not None and found.lower() not in _name_labels()
    ]


@lru_cache(maxsize=1)
def _name_labels() -> frozenset[str]:
    """Every pack's label words of a person's name, lower-cased."""
    return frozenset(label.lower() for label in labels("", "person_name"))


def extract_text(slot: Slot, text: str, name: str = "") -> Any:
    """The answer itself without its opening hesitation, or the ``pattern`` match. A
    person's name is read out of the sentence around it ("제 이름은 김민수입니다" -> "김민수"),
    after any hesitation ("아 네, 저는 ..."), or out of the first clause that frames one when
    the sentence gives other values too ("Maria Lopez, 555-201-3344, I need metformin" ->
    "Maria Lopez"): by the packs' frames first, since an author's pattern rarely foresees
    them all."""
    cleaned = _TRAILING.sub("", without_courtesy(without_lead_in(text.strip())))
    if cleaned and slot_kind(name, slot) == "person_name":
        # A name spelled out after it ("최수진이요. 최, 수, 진.") says it again, letter by letter.
        cleaned = _SPELLED_OUT.sub("", cleaned) or cleaned
        clauses = _CLAUSE_BREAK.split(cleaned)
        whole = _framed_names(dict.fromkeys((cleaned, text)))
        parts = _framed_names(clauses) if len(clauses) > 1 else []
        # "娘の名前で、山田花子です": a person named by relation is not the name; "主人の
        # 名前で" alone names none. A name said again in full is the full one ("My name's
        # Sarah, Sarah Mitchell", "田中です。田中美咲。").
        found = next((name for name in whole if not is_relation(name)), None)
        if found is not None:
            return found or INVALID
        if is_small_talk(cleaned):
            return INVALID  # "今日は風もなくて、海も穏やかそうですねえ" names nobody
        # A clause that is only a hesitation ("받으실 분은요, 음, 박서연 씨예요") names nobody.
        names = [
            name for name in parts if name and not is_relation(name) and not is_interjection(name)
        ]
        if names:
            fuller = [
                n
                for n in names[1:]
                if n != names[0] and (n.startswith(names[0]) or n.endswith(names[0]))
            ]
            return fuller[0] if fuller else names[0]
        if any(is_relation(name) for name in (*whole, *parts)):
            return INVALID
    if slot.pattern:
        # An author's pattern takes what it is given: "그러니까 부산시 …" is no address.
        return extract_pattern(slot, without_lead_in(text.strip()))
    if cleaned and slot_kind(name, slot) == "address":
        # The frame may follow a remark ("the address is wrong, it should be 15 Willow Court").
        tails = (cleaned, *(cleaned[b.end() :] for b in _CLAUSE_BREAK.finditer(cleaned)))
        framed = (frame.fullmatch(tail) for tail in tails for frame in _address_frames())
        cleaned = next((found.group("value") for found in framed if found), cleaned)
    return cleaned or INVALID


@dataclass(frozen=True, slots=True)
class _Reading:
    """How a value is being read: for the slot asked for or not, in whose frame."""

    name: str
    expected: bool
    frame: Frame


_EXTRACTORS: Final[dict[str, Callable[[Slot, str, _Reading], Any]]] = {
    "integer": lambda s, t, r: extract_integer(s, t, expected=r.expected),
    "number": lambda s, t, r: extract_number(s, t, expected=r.expected),
    "boolean": lambda _s, t, _r: extract_boolean(t),
    "enum": lambda s, t, r: extract_enum(s, t, expected=r.expected),
    "date": lambda s, t, r: extract_date(s, t, r.frame, r.name),
    "time": lambda s, t, r: extract_time(s, t, expected=r.expected),
    "phone": lambda _s, t, _r: extract_phone(t),
    "email": lambda _s, t, _r: extract_email(t),
    "pattern": lambda s, t, _r: extract_pattern(s, t),
    "text": lambda s, t, r: extract_text(s, t, r.name),
}

_TOTALS: Final = pattern("", "totals", lambda p: p.totals, re.IGNORECASE)
"""What announces the sum of what was listed: the number after it is the value."""


def changes_by(normal: str, quantity: Quantity, language: str = "") -> bool:
    """Whether ``quantity`` changes a value by that much ("한 명 더", "一人増えた", "two more",
    "もう一人", "동생도 한 명"): it is then not the value itself, and the slot is asked again
    rather than set to the difference. ``normal`` is the normalised text it was read in."""
    after = pattern(language, "change_by", lambda p: p.change_by)
    before = pattern(language, "change_by_before", lambda p: p.change_by_before)
    return bool(
        after.match(normal, quantity.counter_end)
        or before.search(normal, max(0, quantity.start - 16), quantity.start)
        or _drop_out(normal, quantity, language)
    )


_DROP_OUT_REACH: Final = 24
"""How far after a number the news of its people dropping out may come, in characters."""


def _drop_out(normal: str, quantity: Quantity, language: str) -> bool:
    """Whether the people ``quantity`` counts are dropping out ("同僚が二人、急に来られなく
    なっちゃいまして", "two of the lads have dropped out"): a pack's ``leaving`` hint follows
    it closely, with no other number between ("four of us, but one dropped out" drops one)."""
    leaving = nouns_pattern(tuple(hint.lower() for hint in change_hints(language, "leaving")))
    said = leaving.search(normal.lower(), quantity.counter_end)
    return (
        said is not None
        and said.start() - quantity.counter_end <= _DROP_OUT_REACH
        and not any(quantity.counter_end <= q.start < said.start() for q in quantities(normal))
    )


_ORDINAL_AFTER: Final = pattern("", "ordinal_after", lambda p: p.ordinal_after)
"""What makes a number an ordinal ("번째", "째", "番目", "th")."""

_REPLACEABLE: Final = frozenset({"integer", "number", "date", "time", "phone"})
"""Types whose value may be replaced in the same sentence ("내일 말고 모레")."""

OPEN_TYPES: Final = frozenset({"text", "integer", "number", "boolean"})
"""Types that would match almost any utterance, so they are only read when asked for
(a number that carries a counter of the slot's unit is the exception: "4명")."""


def is_open(slot: Slot) -> bool:
    """Whether a slot's values could be read into almost any utterance."""
    return slot.type in OPEN_TYPES and not (slot.type in {"integer", "number"} and _unit(slot))


def extract(
    slot: Slot, text: str, *, expected: bool, frame: Frame | None = None, name: str = ""
) -> Any:
    """The slot's value in ``text``, validated; INVALID when there is none.

    Open types (text, numbers, booleans) are only extracted when the slot is the one being
    asked for, so "3" in an answer about meals does not become somebody's age. A text slot
    with a ``pattern`` is read only through that pattern. Relative dates count from
    ``frame`` (the session user's time; see ``Frame.of``); ``name`` is the slot's name,
    which tells a birth date from other dates.
    """
    if is_open(slot) and not expected:
        return INVALID
    reading = _Reading(name, expected, frame or Frame.of(None))
    extractor = _EXTRACTORS[slot.type]
    if slot.type in _REPLACEABLE:
        meant = meant_part(text)
        if meant:
            value = extractor(slot, meant, reading)
            if value is not INVALID:
                return validate(slot, value)
    value = extractor(slot, text, reading)
    return INVALID if value is INVALID else validate(slot, value)


def coerce(slot: Slot, value: Any, *, frame: Frame | None = None, name: str = "") -> Any:
    """A model-supplied value as the slot's type, validated; INVALID when it does not fit."""
    if value is None or isinstance(value, dict | list):
        return INVALID
    if slot.type == "boolean" and isinstance(value, bool):
        return value
    if (
        slot.type in {"integer", "number"}
        and isinstance(value, int | float)
        and not isinstance(value, bool)
    ):
        if slot.type == "integer" and not float(value).is_integer():
            return INVALID
        return validate(slot, int(value) if slot.type == "integer" else value)
    if isinstance(value, bool):
        return INVALID
    reading = _Reading(name, True, frame or Frame.of(None))
    extracted = _EXTRACTORS[slot.type](slot, str(value), reading)
    return INVALID if extracted is INVALID else validate(slot, extracted)


def validate(slot: Slot, value: Any) -> Any:
    """``value`` when it satisfies the slot's validation rules, else INVALID."""
    rules = slot.validation
    if isinstance(value, int | float) and not isinstance(value, bool):
        if rules.min is not None and value < rules.min:
            return INVALID
        if rules.max is not None and value > rules.max:
            return INVALID
    if isinstance(value, str):
        if rules.min_length is not None and len(value) < rules.min_length:
            return INVALID
        if rules.max_length is not None and len(value) > rules.max_length:
            return INVALID
    if rules.pattern:
        pattern = compile_pattern(rules.pattern)
        if pattern is None or not pattern.fullmatch(str(value)):
            return INVALID
    if slot.type == "date" and isinstance(value, str):
        try:
            datetime.strptime(value, "%Y-%m-%d")
        except ValueError:
            return INVALID
    return value
