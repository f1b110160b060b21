"""A range of dates said in one breath: "from the 10th to the 13th of December",
"12월 10일부터 13일까지", "12月10日から13日まで".

A date slot that declares ``range_end`` (the slot of the last day) or ``range_length`` (a
duration slot) takes both ends from one utterance. The two ends are read apart, split at the
pack's range joint; an end said without its month borrows the other end's ("the 10th" in
"from the 10th to the 13th of December" is in December).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Final

from dialogkit.nlu._dates import read_date
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._plausible import Period
from dialogkit.nlu.lang import pattern

LONGEST: Final = timedelta(days=92)
"""A span longer than this means an end was read in the wrong month."""


def read_range(
    text: str, frame: Frame, period: Period | None, language: str = ""
) -> tuple[date, date] | None:
    """The first and the last date of a range in ``text``; None when it holds no range."""
    joint = pattern(language, "range_joint", lambda p: p.range_joint)
    for match in joint.finditer(text):
        left, right = text[: match.start()], text[match.end() :]
        end = read_date(right, frame, period)
        start = read_date(left, frame, period)
        if start is None or end is None:
            continue
        start, end = _same_month(start, end)
        if start < end and end - start <= LONGEST:
            return start, end
    return None


def _same_month(start: date, end: date) -> tuple[date, date]:
    """The ends moved into one month when one of them was read in the wrong one."""
    if start < end and end - start <= LONGEST:
        return start, end
    try:
        moved = end.replace(day=start.day)
    except ValueError:
        return start, end
    if moved < end:
        return moved, end
    try:
        return start, start.replace(day=end.day)
    except ValueError:
        return start, end


def nights(start: date, end: date) -> int:
    """Days from the first to the last date (the nights of a stay)."""
    return (end - start).days
