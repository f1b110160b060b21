"""Reading skill arguments: typed values or an ``InvalidArguments`` naming what is wrong.

Each reader raises on the first problem with that argument, so a skill states its needs in
a few lines and the runtime answers 400 with the argument's name and a hint how to fix it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dialogkit.errors import DialogkitError
from dialogkit.wire import SkillContext

LANGUAGES = frozenset({"ko", "ja", "en"})


class InvalidArguments(DialogkitError):
    """A skill's arguments are missing or unusable; ``problems`` maps argument -> message."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems = dict(problems)
        super().__init__("; ".join(f"{name}: {message}" for name, message in problems.items()))


def language(context: SkillContext) -> str:
    """``ko``, ``ja`` or ``en`` from the context's locale (``en`` for anything else)."""
    base = context.locale.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else "en"


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def require(arguments: Mapping[str, Any], *names: str) -> None:
    """Fail listing *every* missing argument, so a caller can fix them all at once."""
    missing = {name: "is required" for name in names if is_blank(arguments.get(name))}
    if missing:
        raise InvalidArguments(missing)


def text(arguments: Mapping[str, Any], name: str) -> str:
    """A required argument as stripped text (numbers are accepted and written out)."""
    value = arguments.get(name)
    if is_blank(value):
        raise InvalidArguments({name: "is required"})
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InvalidArguments({name: f"must be text, got {type(value).__name__}"})
    return str(value).strip()


def number(
    arguments: Mapping[str, Any], name: str, low: float | None = None, high: float | None = None
) -> float | None:
    """An optional number within ``[low, high]``; numeric strings are accepted."""
    value = arguments.get(name)
    if is_blank(value):
        return None
    if isinstance(value, str):
        try:
            value = float(value.replace(",", "").strip())
        except ValueError:
            raise InvalidArguments({name: f"must be a number, got {value!r}"}) from None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidArguments({name: f"must be a number, got {value!r}"})
    if low is not None and value < low:
        raise InvalidArguments({name: f"must be at least {low:g}, got {value:g}"})
    if high is not None and value > high:
        raise InvalidArguments({name: f"must be at most {high:g}, got {value:g}"})
    return float(value)


def required_number(
    arguments: Mapping[str, Any], name: str, low: float | None = None, high: float | None = None
) -> float:
    value = number(arguments, name, low, high)
    if value is None:
        raise InvalidArguments({name: "is required"})
    return value


def iso_date(arguments: Mapping[str, Any], name: str) -> date | None:
    """An optional ``YYYY-MM-DD`` date (a full ISO date-time gives its date)."""
    value = arguments.get(name)
    if is_blank(value):
        return None
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            try:
                return datetime.fromisoformat(value.strip()).date()
            except ValueError:
                pass
    raise InvalidArguments({name: f"must be a date like 2024-06-21, got {value!r}"})


def zone(arguments: Mapping[str, Any], context: SkillContext, name: str = "timezone") -> ZoneInfo:
    """The argument's IANA zone, else the context's, else UTC."""
    value = arguments.get(name)
    key = value.strip() if isinstance(value, str) and value.strip() else None
    source = name
    if key is None and context.timezone.strip():
        key, source = context.timezone.strip(), "context.timezone"
    if key is None:
        return ZoneInfo("UTC")
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidArguments(
            {source: f"must be an IANA time zone like Asia/Seoul, got {key!r}"}
        ) from None


def today(tz: ZoneInfo) -> date:
    """The current date in ``tz``: the one place a skill reads the calendar."""
    return datetime.now(UTC).astimezone(tz).date()
