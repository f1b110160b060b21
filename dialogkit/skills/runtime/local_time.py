"""``local_time``: the current time and part of the day at a place.

The zone is the ``timezone`` argument, else the request context's, else a nautical zone
derived from the longitude (15° per hour), which is exact at sea and an approximation on land
without a zone database lookup by coordinates.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from dialogkit.nlg._phrases import daypart
from dialogkit.skills.runtime.arguments import (
    InvalidArguments,
    is_blank,
    language,
    number,
    zone,
)
from dialogkit.wire import SkillContext

DAYPARTS = ((5, "morning"), (12, "afternoon"), (17, "evening"), (21, "night"))
"""Start hours of each part of the day; hours before the first belong to the night."""

RESPONSES = {
    "ko": "현재 현지 시각은 {time}, {daypart}입니다.",
    "ja": "現在の現地時刻は{time}、{daypart}です。",
    "en": "It is {time} local time ({daypart}).",
}


def time_of_day(hour: int) -> str:
    """``morning``, ``afternoon``, ``evening`` or ``night`` for an hour of the day."""
    current = "night"
    for start, name in DAYPARTS:
        if hour >= start:
            current = name
    return current


def nautical_zone(longitude: float) -> ZoneInfo:
    """The ``Etc/GMT±N`` zone of a longitude (note the POSIX sign: east is minus)."""
    offset = round(longitude / 15)
    return ZoneInfo("Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}")


def local_time(moment: datetime, tz: ZoneInfo, lang: str) -> dict[str, Any]:
    """The result for an aware ``moment`` seen in ``tz``."""
    local = moment.astimezone(tz)
    part = time_of_day(local.hour)
    word = daypart(lang, part)
    return {
        "timezone": tz.key,
        "date": local.date().isoformat(),
        "local_time": local.strftime("%H:%M"),
        "iso": local.isoformat(timespec="seconds"),
        "utc_offset": local.strftime("%z"),
        "time_of_day": part,
        "time_of_day_word": word,
        "response": RESPONSES[lang].format(time=local.strftime("%H:%M"), daypart=word),
    }


def moment_of(arguments: Mapping[str, Any], tz: ZoneInfo) -> datetime:
    """The ``date_time`` argument (ISO 8601; naive means local to ``tz``), else now."""
    value = arguments.get("date_time")
    if is_blank(value):
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise InvalidArguments(
            {"date_time": f"must be an ISO 8601 date-time, got {value!r}"}
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=tz)


def run(arguments: Mapping[str, Any], context: SkillContext) -> dict[str, Any]:
    """Arguments: optional timezone, longitude and date_time (latitude is not needed)."""
    longitude = number(arguments, "longitude", -180, 180)
    if is_blank(arguments.get("timezone")) and not context.timezone and longitude is not None:
        tz = nautical_zone(longitude)
    else:
        tz = zone(arguments, context)
    return local_time(moment_of(arguments, tz), tz, language(context))
