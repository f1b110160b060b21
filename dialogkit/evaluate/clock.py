"""One clock for an evaluation: goals, their wordings and the sessions share a moment.

A goal that wants "next Friday" must mean the Friday the session will read it as, so the
value a goal is checked against is computed in the same frame (date, time and time zone)
the simulated sessions run in. By default that moment is fixed, so reruns and recorded
model calls match; ``Clock.now()`` takes the real time once, at the start of a run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dialogkit.nlu._frame import Frame

FIXED_DATE_TIME = "2026-01-05T10:00:00+00:00"
"""When simulated sessions take place unless told otherwise (a Monday morning): the time of
day shows in replies and model prompts, so a real clock would make reruns differ."""
DEFAULT_TIMEZONE = "UTC"


@dataclass(frozen=True)
class Clock:
    """The evaluation's moment (ISO 8601) and the users' time zone (IANA name)."""

    date_time: str = FIXED_DATE_TIME
    timezone: str = DEFAULT_TIMEZONE

    @classmethod
    def now(cls, timezone: str = DEFAULT_TIMEZONE) -> Clock:
        """The real time, read once: every goal and session of the run shares it."""
        return cls(datetime.now(UTC).isoformat(timespec="seconds"), timezone)

    @classmethod
    def of(cls, user: dict[str, Any], default: Clock) -> Clock:
        """The clock a session user gives (``date_time``, ``timezone``), else ``default``."""
        return cls(
            str(user.get("date_time") or default.date_time),
            str(user.get("timezone") or default.timezone),
        )

    @property
    def frame(self) -> Frame:
        """The frame relative wordings ("tomorrow") are read in, as the engine reads them."""
        return Frame.of(self.user())

    def user(self) -> dict[str, str]:
        """The session-user fields that put a session at this moment."""
        return {"date_time": self.date_time, "timezone": self.timezone}
