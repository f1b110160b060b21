"""Type-level plausibility: values that parse but cannot be what the user meant.

Pure functions, so the value extractors and the turn-level discipline apply the same rules:
a birth date in the future, a phone number of five digits or 25:70 are re-asked, never
stored and read back.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Final, Literal

Period = Literal["past", "future"]

MAX_AGE: Final = 130
"""Oldest plausible person, in years."""

_BIRTH: Final = re.compile(r"birth|dob|생년|생일|탄생|誕生|生年", re.IGNORECASE)


def is_birth_date(name: str, description: str = "") -> bool:
    """Whether a date slot holds somebody's birth date, judged by its name or description."""
    return bool(_BIRTH.search(name) or _BIRTH.search(description))


def plausible_birth_date(value: date, today: date) -> bool:
    """A person's birth date: before today and less than ``MAX_AGE`` years ago."""
    return _years_before(today, MAX_AGE) < value < today


def _years_before(today: date, years: int) -> date:
    year = max(today.year - years, 1)
    try:
        return today.replace(year=year)
    except ValueError:  # 29 February in a common year
        return today.replace(year=year, day=28)


def plausible_date(value: date, today: date, period: Period | None) -> bool:
    """A date on the side of today its slot asks for (a booking is not in the past)."""
    if period == "past":
        return value <= today
    if period == "future":
        return value >= today
    return True


def plausible_age(years: float) -> bool:
    return 0 <= years <= MAX_AGE


def plausible_clock(hour: int, minute: int) -> bool:
    return 0 <= hour < 24 and 0 <= minute < 60


def plausible_phone(digits: str, international: bool = False) -> bool:
    """A phone number's length: Korean mobiles (01x) have 10 or 11 digits, other national
    numbers starting with 0 have 9 to 11, international ones 8 to 15 (E.164)."""
    if not digits.isdigit():
        return False
    if international:
        return 8 <= len(digits) <= 15
    if digits.startswith("01"):
        return len(digits) in {10, 11}
    if digits.startswith("0"):
        return 9 <= len(digits) <= 11
    return 9 <= len(digits) <= 15
