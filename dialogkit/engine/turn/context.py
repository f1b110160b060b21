"""What a session's context holds from the start, and the time it starts at."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dialogkit.nlg import _phrases as phrases
from dialogkit.nlu._frame import Frame


def initial_context(language: str, user: dict[str, Any]) -> dict[str, Any]:
    """Context the engine owns from the start: the user's sent fields and the time of day."""
    context: dict[str, Any] = {}
    if user:
        context["session_user"] = dict(user)
    if _parse_time(str(user.get("date_time", ""))) is not None:
        # The hour where the user is: "10:00Z" is evening for a user in Asia/Seoul.
        hour = Frame.of(user).now.hour
        time_of_day = (
            "morning"
            if 5 <= hour < 12
            else "afternoon"
            if 12 <= hour < 17
            else "evening"
            if 17 <= hour < 21
            else "night"
        )
        context["time_of_day"] = time_of_day
        context["daypart"] = phrases.daypart(language, time_of_day)
    return context


def _parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def now_in(timezone: str) -> str:
    """The current time in ``timezone`` (else the server's), ISO 8601 with offset."""
    try:
        zone = ZoneInfo(timezone) if timezone else None
    except (ZoneInfoNotFoundError, ValueError):
        zone = None
    moment = datetime.now(zone) if zone else datetime.now().astimezone()
    return moment.isoformat(timespec="seconds")
