"""The user's frame of reference: the moment "today" and "tomorrow" are counted from.

Relative dates must resolve in the user's time zone at the user's time, which the session
carries (``user.date_time``, filled by the engine at creation, and ``user.timezone``), not
in the server's: a server in UTC would otherwise move a Seoul user's "내일" to the wrong day
for nine hours of every day.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


@dataclass(frozen=True, slots=True)
class Frame:
    """The user's current local time."""

    now: datetime

    @property
    def today(self) -> date:
        return self.now.date()

    @classmethod
    def of(cls, user: Mapping[str, Any] | None) -> Frame:
        """The frame of a session user (``date_time`` in ``timezone``).

        Without a usable ``date_time`` (a library call outside a session) the current time
        in ``timezone`` is used, and only without either the server's local time."""
        user = user or {}
        zone = _zone(str(user.get("timezone") or ""))
        moment = _moment(str(user.get("date_time") or ""))
        if moment is None:
            return cls(datetime.now(zone) if zone else datetime.now().astimezone())
        if zone is not None:
            moment = moment.astimezone(zone) if moment.tzinfo else moment.replace(tzinfo=zone)
        return cls(moment)


@lru_cache(maxsize=256)
def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


@lru_cache(maxsize=1024)
def _moment(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None
    except ValueError:
        return None
