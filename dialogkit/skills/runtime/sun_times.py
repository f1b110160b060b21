"""``sun_times``: sunrise and sunset for a place and date, computed offline.

The formulas are NOAA's solar calculator (Meeus' low-accuracy solar position): the sun's
declination and the equation of time at the day's solar noon, and the hour angle at which
the sun's centre is 0.833° below the horizon (refraction plus the solar radius). They agree
with published tables to about a minute between the polar circles.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from dialogkit.skills.runtime.arguments import (
    InvalidArguments,
    iso_date,
    language,
    required_number,
    today,
    zone,
)
from dialogkit.wire import SkillContext

ZENITH_DEG = 90.833
UNIX_EPOCH_JD = 2440587.5
J2000_JD = 2451545.0


@dataclass(frozen=True)
class SunTimes:
    """Local sunrise and sunset; both are None on a polar day or night."""

    day: date
    sunrise: datetime | None
    sunset: datetime | None
    solar_noon: datetime
    day_length_minutes: int
    polar: Literal["day", "night"] | None = None


def solar_position(jd: float) -> tuple[float, float]:
    """The sun's declination (degrees) and the equation of time (minutes) at Julian day jd."""
    t = (jd - J2000_JD) / 36525
    mean_long = (280.46646 + t * (36000.76983 + t * 0.0003032)) % 360
    anomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
    ecc = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    m = math.radians(anomaly)
    centre = (
        math.sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t))
        + math.sin(2 * m) * (0.019993 - 0.000101 * t)
        + math.sin(3 * m) * 0.000289
    )
    omega = math.radians(125.04 - 1934.136 * t)
    apparent_long = math.radians(mean_long + centre - 0.00569 - 0.00478 * math.sin(omega))
    mean_obliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    obliquity = math.radians(mean_obliquity + 0.00256 * math.cos(omega))
    declination = math.degrees(math.asin(math.sin(obliquity) * math.sin(apparent_long)))
    y = math.tan(obliquity / 2) ** 2
    l0 = math.radians(mean_long)
    equation_of_time = 4 * math.degrees(
        y * math.sin(2 * l0)
        - 2 * ecc * math.sin(m)
        + 4 * ecc * y * math.sin(m) * math.cos(2 * l0)
        - 0.5 * y * y * math.sin(4 * l0)
        - 1.25 * ecc * ecc * math.sin(2 * m)
    )
    return declination, equation_of_time


def sun_times(latitude: float, longitude: float, day: date, tz: ZoneInfo) -> SunTimes:
    """Sunrise, sunset and solar noon on ``day`` at the place, in the zone ``tz``."""
    noon_utc_minutes = 720 - 4 * longitude
    jd = UNIX_EPOCH_JD + (day - date(1970, 1, 1)).days + noon_utc_minutes / 1440
    declination, equation_of_time = solar_position(jd)
    lat, dec = math.radians(latitude), math.radians(declination)
    cos_hour_angle = math.cos(math.radians(ZENITH_DEG)) / (
        math.cos(lat) * math.cos(dec)
    ) - math.tan(lat) * math.tan(dec)
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)

    def local(minutes: float) -> datetime:
        return (midnight + timedelta(minutes=minutes)).astimezone(tz)

    noon = noon_utc_minutes - equation_of_time
    if cos_hour_angle > 1:
        return SunTimes(day, None, None, local(noon), 0, "night")
    if cos_hour_angle < -1:
        return SunTimes(day, None, None, local(noon), 24 * 60, "day")
    half_day = 4 * math.degrees(math.acos(cos_hour_angle))
    return SunTimes(
        day, local(noon - half_day), local(noon + half_day), local(noon), round(2 * half_day)
    )


def clock(moment: datetime) -> str:
    """``HH:MM``, rounded to the nearest minute."""
    return (moment + timedelta(seconds=30)).strftime("%H:%M")


RESPONSES = {
    "ko": "{date} 일출은 {sunrise}, 일몰은 {sunset}입니다. "
    "낮의 길이는 {hours}시간 {minutes}분이에요.",
    "ja": "{date}の日の出は{sunrise}、日の入りは{sunset}です。"
    "昼の長さは{hours}時間{minutes}分です。",
    "en": "On {date}, sunrise is at {sunrise} and sunset at {sunset}; "
    "daylight lasts {hours} h {minutes} min.",
}
POLAR_RESPONSES = {
    "day": {
        "ko": "{date}에는 해가 지지 않는 백야입니다.",
        "ja": "{date}は太陽が沈まない白夜です。",
        "en": "On {date}, the sun does not set (polar day).",
    },
    "night": {
        "ko": "{date}에는 해가 뜨지 않는 극야입니다.",
        "ja": "{date}は太陽が昇らない極夜です。",
        "en": "On {date}, the sun does not rise (polar night).",
    },
}


def run(arguments: Mapping[str, Any], context: SkillContext) -> dict[str, Any]:
    """Arguments: latitude, longitude, optional date (YYYY-MM-DD) and timezone (IANA)."""
    latitude = required_number(arguments, "latitude", -90, 90)
    longitude = required_number(arguments, "longitude", -180, 180)
    tz = zone(arguments, context)
    day = iso_date(arguments, "date") or today(tz)
    if not date(1900, 1, 1) <= day <= date(2200, 12, 31):
        raise InvalidArguments({"date": "must be between 1900-01-01 and 2200-12-31"})
    times = sun_times(latitude, longitude, day, tz)
    lang = language(context)
    if times.sunrise is None or times.sunset is None:
        assert times.polar is not None
        response = POLAR_RESPONSES[times.polar][lang].format(date=day.isoformat())
    else:
        hours, minutes = divmod(times.day_length_minutes, 60)
        response = RESPONSES[lang].format(
            date=day.isoformat(),
            sunrise=clock(times.sunrise),
            sunset=clock(times.sunset),
            hours=hours,
            minutes=minutes,
        )
    return {
        "date": day.isoformat(),
        "timezone": tz.key,
        "sunrise": clock(times.sunrise) if times.sunrise else None,
        "sunset": clock(times.sunset) if times.sunset else None,
        "solar_noon": clock(times.solar_noon),
        "day_length_minutes": times.day_length_minutes,
        "polar": times.polar,
        "response": response,
    }
