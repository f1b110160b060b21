"""Clock times in Korean, Japanese and English, as a 24-hour "HH:MM".

Numbers are rewritten as digits first ("일곱 시 반" -> "7 시 반", "七時半" -> "7時半",
"half past seven" -> "half past 7"). A day-part word (오후, 저녁, 밤, 午後, 夜, evening,
tonight...) anywhere before the time, or right after it, turns a 12-hour reading into the
24-hour one: "저녁 7시 반" is 19:30, "밤 12시" is 00:00, "새벽 2시" stays 02:00.
"""

from __future__ import annotations

import re
from typing import Final

from dialogkit.nlu._numbers import digits_spoken, find_quantities
from dialogkit.nlu._plausible import plausible_clock
from dialogkit.nlu._words import any_word
from dialogkit.nlu.lang import PACKS

_AM, _PM, _EVENING, _NIGHT, _MIDDAY, _DAWN = "am", "pm", "evening", "night", "midday", "dawn"

_DAY_PARTS: Final = {w: part for pack in PACKS.values() for w, part in pack.day_parts.items()}
"""Parts of the day from every language pack; the values are the names below."""
_DAY_PART: Final = any_word(_DAY_PARTS)
_MERIDIEM = r"(a\.?m\.?|p\.?m\.?)(?![a-z])"
_CLOCK: Final = re.compile(
    rf"(?<!\d)(?<!\d\.)([01]?\d|2[0-4])\s*[:：]\s*([0-5]\d)(?!\d)\s*(?:{_MERIDIEM})?"
)
_KO_JA: Final = re.compile(
    r"(?<!\d)(?<!\d\.)(\d{1,2})\s*(?:시|時)(?!간|間|작)\s*"
    r"(?:(\d{1,2})\s*(?:분|分)|(반|半)|(정각|ちょうど))?(?:\s*(전|前)(?!에|中))?"
)
_JOINED_BEFORE: Final = re.compile(r"(시|時)\s*(?:되기|の)\s*(?=\d{1,2}\s*(?:분|分)\s*(?:전|前))")
"""The hour joined to the minutes before it ("일곱 시 되기 십오 분 전", "九時の十五分前"):
read as "7시 15분 전"."""
_EN_MERIDIEM: Final = re.compile(
    rf"(?<![\d:])(?<!\d\.)(\d{{1,2}})(?:[.\s]([0-5]\d))?\s*{_MERIDIEM}"
)
_EN_OCLOCK: Final = re.compile(r"(?<![\d:])(?<!\d\.)(\d{1,2})\s*o'?\s?clock")
_EN_PAST_TO: Final = re.compile(
    r"\b(half|quarter|a quarter|5|10|20|25|\d{1,2}\s+minutes?)\s+(past|after|to|before|till)\s+"
    rf"(\d{{1,2}})\b(?:\s*{_MERIDIEM})?"
)
_EN_AT: Final = re.compile(
    r"(?:\b(?:at|around|about|by)\s+|(?<![\d:])(?<!\d\.)(?=\d{1,2}(?:[.:-][0-5]\d)?\s*-?ish\b))"
    r"(\d{1,2})(?:(?:\s+|[.:-])([0-5]\d))?(?![\d:])"
    r"(?!(?:\s+[a-z]+){1,2}\s+(?:street|st|road|rd|avenue|ave|lane|ln|court|ct|drive|dr|way|"
    r"boulevard|blvd|place|pl|terrace|circle)\b)"
)
"""A time after "at"/"around", or hedged with "-ish" ("10ish", "10:30-ish"); never a house
number ("we're at 9 Pine Road")."""
_EN_PART: Final = re.compile(
    r"(?<![\d:-])(?<!\d\.)(\d{1,2})(?:[:.-]([0-5]\d))?\s+(?:in\s+the\s+|at\s+|this\s+|tomorrow\s+)?"
    r"(morning|afternoon|evening|night|tonight)\b"
)
_BARE: Final = re.compile(
    r"^\D{0,12}?(?<!\d)(?<!\d\.)(\d{1,2})(?:(?:\s+|-)([0-5]\d))?(?![\d.])\D{0,8}$"
)
_SAID_APART: Final = re.compile(r"[,;、，]")
"""The pause after the first clause: a lone number before it is the answer, what follows a
reason."""
_NAMED: Final = re.compile(r"정오|正午|\bnoon\b|\bmidday\b|자정|\bmidnight\b|午前0時")
_NOON_WORDS: Final = frozenset({"정오", "正午", "noon", "midday"})


def _day_part(text: str, start: int, end: int) -> str | None:
    """The day-part word closest before the time, else the first one after it."""
    before = [m for m in _DAY_PART.finditer(text, 0, start)]
    if before:
        return _DAY_PARTS[before[-1].group(0)]
    after = _DAY_PART.search(text, end)
    return _DAY_PARTS[after.group(0)] if after else None


def _hour24(hour: int, part: str | None) -> int:
    if part is None or hour > 12:
        return 0 if hour == 24 else hour
    if part == _AM:
        return 0 if hour == 12 else hour
    if part == _DAWN:
        return 0 if hour == 12 else hour
    if part in {_PM, _EVENING}:
        return hour if hour == 12 else hour + 12
    if part == _NIGHT:
        if hour == 12:
            return 0
        return hour + 12 if hour >= 6 else hour
    # midday: 11 stays 11, 12 stays noon, 1 to 6 are afternoon hours
    return hour + 12 if hour <= 6 else hour


def _clock(hour: int, minute: int, part: str | None) -> tuple[str, ...]:
    """The 24-hour readings, most likely first: without a day part, 1 to 11 o'clock may
    also be in the afternoon ("7時" for a dinner booking is 19:00)."""
    hour24 = _hour24(hour, part)
    if not plausible_clock(hour24, minute):
        return ()
    readings = [f"{hour24:02d}:{minute:02d}"]
    if part is None and 1 <= hour <= 11:
        readings.append(f"{hour + 12:02d}:{minute:02d}")
    return tuple(readings)


def _before(hour: int, minutes: int, part: str | None) -> tuple[str, ...]:
    """The readings of ``minutes`` before ``hour`` o'clock: one when the day part is known
    ("朝の九時の十五分前" is 08:45 only)."""
    total = (_hour24(hour, part) * 60 - minutes) % (24 * 60)
    hour24, minute = divmod(total, 60)
    if part is None:
        return _clock(hour24, minute, None)
    return (f"{hour24:02d}:{minute:02d}",) if plausible_clock(hour24, minute) else ()


def read_time(text: str, *, bare: bool = False) -> tuple[str, ...]:
    """The first clock time in ``text`` as "HH:MM" readings (two when the day part is
    unknown: morning first); empty when there is none.

    ``bare`` also reads a lone number ("7", "저녁 7이요") as an hour: only for an answer to
    the question that asked for a time."""
    prepared = _JOINED_BEFORE.sub(r"\1 ", digits_spoken(text))
    match = _CLOCK.search(prepared)
    if match:
        part = _meridiem(match.group(3)) or _day_part(prepared, match.start(), match.end())
        return _clock(int(match.group(1)), int(match.group(2)), part)
    match = _KO_JA.search(prepared)
    if match:
        hour, minutes, half, _sharp, before = match.groups()
        minute = 30 if half else int(minutes or 0)
        part = _day_part(prepared, match.start(), match.end())
        if before and minutes:
            return _before(int(hour), int(minutes), part)
        return _clock(int(hour), minute, part)
    match = _EN_PAST_TO.search(prepared)
    if match:
        amount = {"half": 30, "quarter": 15, "a quarter": 15}.get(match.group(1))
        minutes = amount if amount is not None else int(match.group(1).split()[0])
        hour = int(match.group(3))
        part = _meridiem(match.group(4)) or _day_part(prepared, match.start(), match.end())
        if match.group(2) in {"to", "before", "till"}:
            return _before(hour, minutes, part)
        return _clock(hour, minutes, part) if minutes < 60 else ()
    match = _EN_MERIDIEM.search(prepared)
    if match:
        return _clock(int(match.group(1)), int(match.group(2) or 0), _meridiem(match.group(3)))
    match = _EN_PART.search(prepared)
    if match:
        part = _DAY_PARTS[match.group(3)]
        return _clock(int(match.group(1)), int(match.group(2) or 0), part)
    match = _EN_OCLOCK.search(prepared) or _EN_AT.search(prepared)
    if match:
        part = _day_part(prepared, match.start(), match.end())
        minute = int(match.group(2) or 0) if match.re is _EN_AT else 0
        return _clock(int(match.group(1)), minute, part)
    match = _NAMED.search(prepared)
    if match:
        return ("12:00",) if match.group(0) in _NOON_WORDS else ("00:00",)
    if bare:
        prepared = prepared.strip()
        # "Eleven, I've got the gym first thing": the hour said apart, then a reason.
        match = _BARE.search(prepared) or _BARE.search(_SAID_APART.split(prepared, maxsplit=1)[0])
        if match and 0 < int(match.group(1)) <= 24 and not _counted(prepared, match.start(1)):
            part = _day_part(prepared, match.start(1), match.end(1))
            return _clock(int(match.group(1)), int(match.group(2) or 0), part)
    return ()


def _counted(text: str, start: int) -> bool:
    """Whether the number at ``start`` counts something else ("3 people", "2개")."""
    return any(
        q.start == start and q.dimension not in {None, "clock"} for q in find_quantities(text)
    )


def _meridiem(text: str | None) -> str | None:
    if not text:
        return None
    return _AM if text.startswith("a") else _PM
