"""Calendar dates in the written and spoken forms of Korean, Japanese and English.

Numbers are first rewritten as digits (``numbers.digits_spoken``), so "삼월 오일",
"三月五日" and "3월 5일" are read by the same patterns. Relative dates ("내일",
"来週の金曜日", "next Friday") count from the user's ``Frame``; a date without a year is
the next such date (the last one for a date in the past, such as a birth date); a two-digit
year takes the century that the slot's period makes plausible.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Final

from dialogkit.nlu._frame import Frame
from dialogkit.nlu._numbers import digits_spoken, without_particle_i
from dialogkit.nlu._plausible import Period
from dialogkit.nlu._words import any_word
from dialogkit.nlu.lang import PACKS

_YEAR_MARK = r"(?:년도?|年)"
_MONTH_MARK = r"(?:월|月)"
_DAY_MARK = r"(?:일|日)"
_SEP = r"\s*[-./]\s*"


def _merged(table: str) -> dict[str, int]:
    """One date table of every language pack (``dialogkit.nlu.lang``), merged."""
    return {w: v for pack in PACKS.values() for w, v in getattr(pack, table).items()}


_YMD: Final = re.compile(
    rf"(?<!\d)(?<!\d\.)('?\d{{4}}|'?\d{{2}})(?:{_SEP}|\s*{_YEAR_MARK}\s*)(\d{{1,2}})"
    rf"(?:{_SEP}|\s*{_MONTH_MARK}\s*)(\d{{1,2}})(?!\d|\.\d)"
)
_DMY: Final = re.compile(
    rf"(?<!\d)(?<!\d\.)(\d{{1,2}}){_SEP}(\d{{1,2}}){_SEP}(\d{{4}}|\d{{2}})(?!\d|\.\d)"
)
_COMPACT: Final = re.compile(r"(?<!\d)((?:19|20)\d{2}|\d{2})(\d{2})(\d{2})(?!\d)")
_MONTH_DAY: Final = re.compile(
    rf"(?:(다음\s*달|담달|이번\s*달|来月|今月)\s*)?(?<!\d)(\d{{1,2}})\s*{_MONTH_MARK}\s*(?:の\s*)?"
    rf"(\d{{1,2}})\s*{_DAY_MARK}?(?!\d)"
)
_SLASH_MONTH_DAY: Final = re.compile(r"(?<![\d./])(\d{1,2})\s*/\s*(\d{1,2})(?![\d./])")
_NEXT_MONTH_DAY: Final = re.compile(
    rf"(다음\s*달|담달|이번\s*달|来月|今月|next month|this month)\s*(?:の\s*)?(?:the\s+)?"
    rf"(\d{{1,2}})\s*(?:{_DAY_MARK}|st|nd|rd|th)?(?!\d)"
)
_DAY_SPANS: Final = "|".join(re.escape(w) for pack in PACKS.values() for w in pack.day_spans)
_DAY_ONLY: Final = re.compile(
    rf"(?<![\d./])(?<![월月])(?<![월月]\s)(\d{{1,2}})\s*{_DAY_MARK}(?!\s*(?:{_DAY_SPANS}|요일|曜))"
    r"|\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b"
)

_MONTH_NAMES: Final = _merged("month_names")
_MONTH_WORD = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_YEAR_TAIL = r"(?:,?\s*(?:'(\d{2})|(\d{4}))(?!\d))?"
_EN_MONTH_FIRST: Final = re.compile(
    rf"\b{_MONTH_WORD}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR_TAIL}"
)
_EN_DAY_FIRST: Final = re.compile(
    rf"\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_WORD}(?![a-z]){_YEAR_TAIL}"
)
_ORDINALS: Final = _merged("ordinal_words")
_ORDINAL: Final = re.compile(
    r"\b(?:(twenty|thirty)[\s-])?(" + "|".join(_ORDINALS) + r")\b", re.IGNORECASE
)

_ERAS: Final = _merged("eras")
_ERA: Final = re.compile(rf"({'|'.join(_ERAS) or '(?!x)x'})\s*(\d{{1,2}}|元)\s*年")
_YEAR_ALONE: Final = re.compile(
    r"(?<![\d'])('?\d{2}|\d{4})\s*(?:년생|년도?|年生まれ|年)(?!\s*\d{1,2}\s*(?:월|月))"
)

_RELATIVE_DAYS: Final = _merged("relative_days")
_RELATIVE: Final = any_word(_RELATIVE_DAYS, syllables_start_words=True)
_IN_DAYS: Final = re.compile(
    r"(?:(\d+)\s*(일|日|주일?|週間|days?|weeks?)|(하루|이틀|사흘|나흘))\s*"
    r"(?:후|뒤|있다가|後|later|from now)"
    r"|\bin\s+(\d+)\s+(days?|weeks?)\b"
)
_FROM_DAY: Final = re.compile(r"\b(\d+|an?)\s+(days?|weeks?)\s+from\s+(today|now|tomorrow)\b")
"""A span counted from today or tomorrow ("a week from today", "2 days from tomorrow")."""

_FURTHEST_DAYS: Final = 3660
"""A relative date further ahead than ten years is not a date anyone means."""
_KO_DAYS: Final = _merged("day_counts")
"""Native Korean day counts ("이틀 뒤" = in two days)."""

_WEEK_SHIFT: Final = _merged("week_shifts")
_KO_WEEKDAYS: Final = "월화수목금토일"
_JA_WEEKDAYS: Final = "月火水木金土日"
_EN_WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SHIFT = r"(이번\s*주|다다음\s*주|다음\s*주|지난\s*주|저번\s*주|담주|금주|今週|再来週|来週|先週)?"
_OTHER = (
    r"(?<!another\s)(?<!different\s)(?<!other\s)(?<!다른\s)(?<!다른)(?<!別の)(?<!他の)"
    r"(?<!that\s)(?<!그\s)(?<!その)(?<!あの)"
)
"""Not after "another", "a different", "다른", "別の": "pick another weekend" names none; nor
after "that", "그", "その": "그 주말에 결혼식이 있어요" points back at a day already said."""
_KO_WEEKDAY: Final = re.compile(_SHIFT + rf"\s*(?:의\s*)?{_OTHER}([{_KO_WEEKDAYS}])(?:요일|욜)")
_JA_WEEKDAY: Final = re.compile(_SHIFT + rf"\s*(?:の\s*)?{_OTHER}([{_JA_WEEKDAYS}])曜(?:日)?")
_EN_WEEKDAY: Final = re.compile(
    r"(?:\b(this|next|last|coming)\s+(?:week(?:'s)?\s+(?:on\s+)?)?)?\b"
    + _OTHER
    + "("
    + "|".join(_EN_WEEKDAYS)
    + r")s?\b"
    # "Wednesday next week", "Friday of this week": the week said after the day.
    + r"(?:,?\s+(?:of\s+)?(this|next|last)\s+week\b)?"
)
_WEEKEND: Final = re.compile(
    r"(이번\s*주|다음\s*주|담주|今週|来週|\bthis\s+|\bnext\s+)?\s*"
    + _OTHER
    + r"(?:주말|週末|weekend\b)"
)


def _shift(word: str | None) -> int | None:
    if word is None:
        return None
    key = re.sub(r"\s+", "", word)
    return _WEEK_SHIFT.get(key, _WEEK_SHIFT.get(key.removesuffix("주"), 0))


def _year(text: str, month: int, day: int, frame: Frame, period: Period | None) -> int | None:
    """A written year; two digits take the century that makes the date plausible."""
    digits = text.lstrip("'")
    year = int(digits)
    if len(digits) == 4:
        return year
    today = frame.today
    candidates = [1900 + year, 2000 + year]
    if period == "past":
        past = [y for y in candidates if _valid(y, month, day) and date(y, month, day) <= today]
        return max(past) if past else None
    if period == "future":
        return 2000 + year
    return 2000 + year if 2000 + year <= today.year + 10 else 1900 + year


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


RECENT_PAST_DAYS = 31
"""A date without a year that passed at most this long ago is this year's: "November 20"
said on 25 November is a slip for the past (a future slot re-asks), not a year ahead."""


def _without_year(month: int, day: int, frame: Frame, period: Period | None) -> date | None:
    """The next such date (the last one for a past date), counting today; one that passed
    within ``RECENT_PAST_DAYS`` is this year's."""
    today = frame.today
    step = -1 if period == "past" else 1
    if step == 1 and _valid(today.year, month, day):
        recent = date(today.year, month, day)
        if 0 < (today - recent).days <= RECENT_PAST_DAYS:
            return recent
    for year in (today.year, today.year + step, today.year + 2 * step, today.year + 4 * step):
        if _valid(year, month, day):
            found = date(year, month, day)
            if (found >= today) if step == 1 else (found <= today):
                return found
    return None


def _dated(
    year: str | None, month: int, day: int, frame: Frame, period: Period | None
) -> date | None:
    if year is None:
        return _without_year(month, day, frame, period)
    full = _year(year, month, day, frame, period)
    return date(full, month, day) if full is not None and _valid(full, month, day) else None


def _in_month(shift: str, day: int, frame: Frame) -> date | None:
    today = frame.today
    ahead = 0 if re.sub(r"\s+", "", shift) in {"이번달", "今月", "thismonth"} else 1
    month = today.month - 1 + ahead
    year, month = today.year + month // 12, month % 12 + 1
    return date(year, month, day) if _valid(year, month, day) else None


def _weekday(target: int, shift: int | None, frame: Frame) -> date:
    today = frame.today
    if shift is None:
        ahead = (target - today.weekday()) % 7
        return today + timedelta(days=ahead or 7)
    monday = today - timedelta(days=today.weekday())
    return monday + timedelta(weeks=shift, days=target)


def _explicit(
    text: str, frame: Frame, period: Period | None, *, year_required: bool = False
) -> Iterator[date | None]:
    """Dates written with their month, most specific forms first."""
    for match in _YMD.finditer(text):
        yield _dated(match.group(1), int(match.group(2)), int(match.group(3)), frame, period)
    for match in _DMY.finditer(text):
        first, second = int(match.group(1)), int(match.group(2))
        month, day = (second, first) if first > 12 else (first, second)
        yield _dated(match.group(3), month, day, frame, period)
    for match in _COMPACT.finditer(text):
        if len(match.group(1)) == 2 and period != "past":
            continue  # six digits are a birth date (YYMMDD) or nothing
        yield _dated(match.group(1), int(match.group(2)), int(match.group(3)), frame, period)
    years = _YEAR_ALONE.findall(text)
    year = years[0] if len(years) == 1 else None  # "90년생이고 5월 17일이에요"
    for match in _MONTH_DAY.finditer(text):
        if match.group(1):
            continue
        if year is None and year_required:
            continue
        yield _dated(year, int(match.group(2)), int(match.group(3)), frame, period)
    for pattern, month_group, day_group in ((_EN_MONTH_FIRST, 1, 2), (_EN_DAY_FIRST, 2, 1)):
        for match in pattern.finditer(text):
            month = _MONTH_NAMES[match.group(month_group)[:3]]
            year = match.group(3) or match.group(4)
            if year is None and year_required:
                continue
            yield _dated(year, month, int(match.group(day_group)), frame, period)
    for match in () if year_required else _SLASH_MONTH_DAY.finditer(text):
        yield _dated(None, int(match.group(1)), int(match.group(2)), frame, period)


def _relative(text: str, frame: Frame, period: Period | None) -> Iterator[date | None]:
    """Dates counted from today: the 5th (before its weekday: "24日の金曜日"), weekdays,
    weekends, "in 3 days", "내일"."""
    today = frame.today
    for match in _NEXT_MONTH_DAY.finditer(text):
        yield _in_month(match.group(1), int(match.group(2)), frame)
    for match in _DAY_ONLY.finditer(text):
        day = int(match.group(1) or match.group(2))
        months = [(today.year, today.month), (today.year + today.month // 12, today.month % 12 + 1)]
        if period == "past":
            previous = today.month - 2
            months = [(today.year, today.month), (today.year + previous // 12, previous % 12 + 1)]
        for year, month in months:
            if _valid(year, month, day):
                found = date(year, month, day)
                if (found <= today) if period == "past" else (found >= today):
                    yield found
                    break
    for pattern, names in ((_KO_WEEKDAY, _KO_WEEKDAYS), (_JA_WEEKDAY, _JA_WEEKDAYS)):
        for match in pattern.finditer(text):
            yield _weekday(names.index(match.group(2)), _shift(match.group(1)), frame)
    for match in _EN_WEEKDAY.finditer(text):
        modifier = match.group(1) or match.group(3)
        shift = None if modifier in {None, "coming"} else _WEEK_SHIFT[modifier]
        yield _weekday(_EN_WEEKDAYS.index(match.group(2)), shift, frame)
    for match in _WEEKEND.finditer(text):
        shift = _shift(match.group(1).strip()) if match.group(1) else 0
        saturday = _weekday(5, shift, frame)
        yield today if shift == 0 and today.weekday() == 6 else saturday
    for match in _FROM_DAY.finditer(text):
        count = 1 if match.group(1).startswith("a") else int(match.group(1))
        days = count * (7 if match.group(2).startswith("week") else 1)
        days += 1 if match.group(3) == "tomorrow" else 0
        yield today + timedelta(days=days) if days <= _FURTHEST_DAYS else None
    for match in _IN_DAYS.finditer(text):
        native = match.group(3)
        count = _KO_DAYS[native] if native else int(match.group(1) or match.group(4))
        unit = match.group(2) or match.group(5) or "일"
        days = count * (7 if unit.startswith(("주", "週", "week")) else 1)
        yield today + timedelta(days=days) if days <= _FURTHEST_DAYS else None
    for match in _RELATIVE.finditer(text):
        yield today + timedelta(days=_RELATIVE_DAYS[match.group(0)])


def _ordinals(text: str) -> str:
    def number(match: re.Match[str]) -> str:
        tens = {"twenty": 20, "thirty": 30}.get((match.group(1) or "").lower(), 0)
        return f"{tens + _ORDINALS[match.group(2).lower()]}th"

    return _ORDINAL.sub(number, text)


def _western_years(text: str) -> str:
    """Japanese era years as western ones: "平成2年" -> "1990年"."""

    def western(match: re.Match[str]) -> str:
        number = 1 if match.group(2) == "元" else int(match.group(2))
        return f"{_ERAS[match.group(1)] + number}年"

    return _ERA.sub(western, text)


def read_date(
    text: str, frame: Frame, period: Period | None = None, *, relative: bool = True
) -> date | None:
    """The first date in ``text``, resolved in the user's frame; None when there is none.

    ``relative=False`` reads only dates written out with their year (a birth date is never
    "today", nor "May 17th" of some year)."""
    prepared = _western_years(digits_spoken(without_particle_i(_ordinals(text))))
    readings = [_explicit(prepared, frame, period, year_required=not relative)]
    if relative:
        readings.append(_relative(prepared, frame, period))
    for reading in readings:
        for found in reading:
            if found is not None:
                return found
    return None


def names_its_week(text: str) -> bool:
    """Whether a weekday or weekend in ``text`` is said with its week ("来週の土曜日", "next
    Friday"): a correction that says so is whole, and the words it corrects add nothing."""
    prepared = text.lower()
    weekdays = (*_KO_WEEKDAY.finditer(prepared), *_JA_WEEKDAY.finditer(prepared))
    return any(match.group(1) for match in weekdays) or any(
        match.group(1)
        for pattern in (_EN_WEEKDAY, _WEEKEND)
        for match in pattern.finditer(prepared)
    )


def bare_weekday(text: str) -> int | None:
    """The weekday ``text`` names first, when it names it without its week ("Wednesday's
    when my mother-in-law flies in", "土曜は無理"; not "next Wednesday"), Monday 0; else None.
    At a read-back of a date on that weekday it is the date read back, not the nearest one.
    None when a number may say which one ("Wednesday the 25th", "수요일 25일")."""
    prepared = digits_spoken(_ordinals(text)).lower()
    if any(character.isdigit() for character in prepared):
        return None
    found: list[tuple[int, int]] = []
    for weekday, names in ((_KO_WEEKDAY, _KO_WEEKDAYS), (_JA_WEEKDAY, _JA_WEEKDAYS)):
        found.extend(
            (match.start(), -1 if match.group(1) else names.index(match.group(2)))
            for match in weekday.finditer(prepared)
        )
    found.extend(
        (match.start(), -1 if match.group(1) else _EN_WEEKDAYS.index(match.group(2)))
        for match in _EN_WEEKDAY.finditer(prepared)
    )
    first = min(found, default=None)
    return None if first is None or first[1] < 0 else first[1]
