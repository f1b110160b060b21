"""Typed slot values: extraction from an utterance, coercion of model output, validation.

One function per slot type keeps the rule NLU and the LLM NLU honest in the same way: an LLM
entity goes through ``coerce``, which runs the same extractor on its text, so a model cannot
put a value into a slot that a rule would not accept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any, Final

from dialogkit.nlu.acts import polarity
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

_NUMBER_WORDS: Final[dict[str, int]] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "영": 0,
    "하나": 1,
    "둘": 2,
    "셋": 3,
    "넷": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
    "ひとつ": 1,
    "ふたつ": 2,
    "みっつ": 3,
}
_NUMBER_WORD = re.compile(
    r"(?<![\w])("
    + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True))
    + r")(?=\s*(?:개|명|번|살|시|つ|個|人|回|歳|$|\s))",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d+(?:\.\d+)?")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?<!\d)(\+?\d[\d\s().-]{7,17}\d)(?!\d)")
_ISO_DATE = re.compile(r"(\d{4})\s*[-./년年]\s*(\d{1,2})\s*[-./월月]\s*(\d{1,2})\s*[일日]?")
_COMPACT_DATE = re.compile(r"(?<!\d)(19\d{2}|20\d{2})(\d{2})(\d{2})(?!\d)")
_MONTHS: Final = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_EN_DATE = re.compile(
    r"(" + "|".join(_MONTHS) + r")\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.IGNORECASE
)
_RELATIVE_DAYS: Final = {
    "오늘": 0,
    "내일": 1,
    "모레": 2,
    "어제": -1,
    "今日": 0,
    "明日": 1,
    "明後日": 2,
    "昨日": -1,
    "today": 0,
    "tomorrow": 1,
    "yesterday": -1,
}
_CLOCK = re.compile(r"(오전|오후|午前|午後)?\s*(?<!\d)([01]?\d|2[0-3])\s*[:：]\s*([0-5]\d)(?!\d)")
_KO_JA_TIME = re.compile(
    r"(오전|오후|午前|午後)?\s*(\d{1,2})\s*[시時](?:\s*(\d{1,2})\s*분|\s*(반|半))?"
)
_EN_TIME = re.compile(r"(?<!\d)(\d{1,2})(?::([0-5]\d))?\s*(am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)


def contains_word(text: str, word: str) -> bool:
    """``word`` in ``text``; Latin words must stand alone (\"correct\" is not in \"incorrect\")."""
    if word.isascii():
        return re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text) is not None
    return word in text


def extract_integer(text: str) -> Any:
    number = extract_number(text)
    if number is INVALID:
        return INVALID
    return int(number) if float(number).is_integer() else INVALID


def extract_number(text: str) -> Any:
    match = _NUMBER.search(text)
    if match:
        value = float(match.group(0).replace(",", ""))
        return int(value) if value.is_integer() and "." not in match.group(0) else value
    word = _NUMBER_WORD.search(text.lower())
    return _NUMBER_WORDS[word.group(1)] if word else INVALID


def extract_boolean(text: str) -> Any:
    """A yes/no answer; a negation anywhere wins ("밥은 먹었는데 약은 깜빡했어" is a no)."""
    answer = polarity(text)
    return INVALID if answer is None else answer


def extract_enum(slot: Slot, text: str) -> Any:
    lowered = text.lower()
    candidates: list[tuple[str, str]] = []
    for value in slot.values:
        candidates.append((value.lower(), value))
        candidates.extend((synonym.lower(), value) for synonym in slot.synonyms.get(value, []))
    for needle, value in sorted(candidates, key=lambda item: len(item[0]), reverse=True):
        if needle and contains_word(lowered, needle):
            return value
    return INVALID


def _valid_date(year: int, month: int, day: int) -> Any:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return INVALID


def extract_date(text: str, today: date | None = None) -> Any:
    for pattern in (_ISO_DATE, _COMPACT_DATE):
        match = pattern.search(text)
        if match:
            return _valid_date(*(int(g) for g in match.groups()))
    match = _EN_DATE.search(text)
    if match:
        return _valid_date(
            int(match.group(3)), _MONTHS[match.group(1).lower()], int(match.group(2))
        )
    lowered = text.lower()
    for word, offset in sorted(_RELATIVE_DAYS.items(), key=lambda i: len(i[0]), reverse=True):
        if contains_word(lowered, word):
            return ((today or date.today()) + timedelta(days=offset)).isoformat()
    return INVALID


def _clock(hour: int, minute: int, meridiem: str | None) -> Any:
    if meridiem in {"오후", "午後", "pm", "p.m."} and hour < 12:
        hour += 12
    if meridiem in {"오전", "午前", "am", "a.m."} and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else INVALID


def extract_time(text: str) -> Any:
    match = _EN_TIME.search(text)
    if match:
        return _clock(int(match.group(1)), int(match.group(2) or 0), match.group(3).lower())
    match = _CLOCK.search(text)
    if match:
        return _clock(int(match.group(2)), int(match.group(3)), match.group(1))
    match = _KO_JA_TIME.search(text)
    if match:
        meridiem, hour_text, minute_text, half = match.groups()
        return _clock(int(hour_text), 30 if half else int(minute_text or 0), meridiem)
    return INVALID


def extract_phone(text: str) -> Any:
    for match in _PHONE.finditer(text):
        raw = match.group(1)
        digits = re.sub(r"\D", "", raw)
        if not 9 <= len(digits) <= 15:
            continue
        if raw.startswith("+"):
            return f"+{digits}"
        if len(digits) == 11 and digits.startswith("01"):
            return f"{digits[:3]}-{digits[3:7]}-{digits[7:]}"
        if len(digits) == 10 and digits.startswith("01"):
            return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
        return digits
    return INVALID


def extract_email(text: str) -> Any:
    match = _EMAIL.search(text)
    return match.group(0).lower() if match else INVALID


def extract_pattern(slot: Slot, text: str) -> Any:
    pattern = compile_pattern(slot.pattern or "")
    if pattern is None or not slot.pattern:
        return INVALID
    match = pattern.search(text)
    if not match:
        return INVALID
    return (match.groupdict().get("value") or match.group(0)).strip()


_TRAILING = re.compile(r"[\s.!?。！？~]+$")


def extract_text(slot: Slot, text: str) -> Any:
    if slot.pattern:
        return extract_pattern(slot, text)
    cleaned = _TRAILING.sub("", text.strip())
    return cleaned or INVALID


_EXTRACTORS: Final[dict[str, Callable[[Slot, str], Any]]] = {
    "integer": lambda _s, t: extract_integer(t),
    "number": lambda _s, t: extract_number(t),
    "boolean": lambda _s, t: extract_boolean(t),
    "enum": extract_enum,
    "date": lambda _s, t: extract_date(t),
    "time": lambda _s, t: extract_time(t),
    "phone": lambda _s, t: extract_phone(t),
    "email": lambda _s, t: extract_email(t),
    "pattern": extract_pattern,
    "text": extract_text,
}

OPEN_TYPES: Final = frozenset({"text", "integer", "number", "boolean"})
"""Types that would match almost any utterance, so they are only read when asked for."""


def is_open(slot: Slot) -> bool:
    """Whether a slot's values could be read into almost any utterance."""
    return slot.type in OPEN_TYPES


def extract(slot: Slot, text: str, *, expected: bool) -> Any:
    """The slot's value in ``text``, validated; INVALID when there is none.

    Open types (text, numbers, booleans) are only extracted when the slot is the one being
    asked for, so "3" in an answer about meals does not become somebody's age. A text slot
    with a ``pattern`` is read only through that pattern.
    """
    if is_open(slot) and not expected:
        return INVALID
    value = _EXTRACTORS[slot.type](slot, text)
    return INVALID if value is INVALID else validate(slot, value)


def coerce(slot: Slot, value: Any) -> Any:
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
    extracted = _EXTRACTORS[slot.type](slot, str(value))
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
