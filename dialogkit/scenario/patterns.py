"""Scenario regular expressions, compiled so that no pattern can stall the event loop.

Patterns come from scenario graphs, and a graph can be posted by any client. Python's ``re``
backtracks: ``^(a+)+$`` against 28 characters takes seconds, doubling with each one, and
blocks every other session of the process. So patterns run on RE2 (``google-re2``), whose
matching time is linear in the text.

RE2 has no lookaround and no backreference. ``matches`` conditions must be RE2 patterns (the
validator reports the others as errors). Slot and intent patterns may use lookaround, which
the registered scenarios rely on: those that RE2 rejects run on the ``regex`` package with a
per-search time limit, and a search that runs out of time counts as no match. Within a turn
(``search_budget``) all such searches together share one small budget, so a graph with many
slow patterns cannot add up to a long stall either. And the whole process shares one more
(``SHARED_SEARCH``): what turns search beyond a small free allowance each
(``TURN_FREE_SEARCH_S``) may take at most ``PROCESS_SEARCH_SHARE`` of the event loop's time
(in bursts of up to ``PROCESS_SEARCH_BURST_S``), so twenty sessions posting slow patterns at
once delay the other sessions by tens of milliseconds, not seconds; past it their searches
count as no match. The allowance is what keeps honest turns exact under any load: a
scenario's own lookaround patterns take microseconds a search (a turn of ``call_for_fire``
searches for about 0.1 ms in all), which would otherwise be a large share of a busy
process's time and run the shared budget dry for everyone.

Python's ``\\d``, ``\\w`` and ``\\s`` match any script; RE2's only ASCII. They are rewritten to
their Unicode classes so that a pattern means the same under both engines. ``\\b`` stays ASCII
in RE2 (it has no Unicode word boundary).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, Final, Protocol

import re2
import regex

from dialogkit.logsafe import escape

logger = logging.getLogger("dialogkit.patterns")

FALLBACK_SEARCH_TIMEOUT_S: Final = 0.05
"""Longest a lookaround pattern may search one text before it counts as no match."""

TURN_SEARCH_BUDGET_S: Final = 0.25
"""Time all lookaround searches of one turn may take together (see ``search_budget``)."""

PROCESS_SEARCH_SHARE: Final = 0.2
"""Fraction of wall time lookaround searches of all turns of a process may take together."""

PROCESS_SEARCH_BURST_S: Final = 0.02
"""Most lookaround search time the process may spend at once, after a quiet spell."""

TURN_FREE_SEARCH_S: Final = 0.002
"""Search time each turn (or each search outside a turn) has before it draws on the
process's share: twenty times what an honest turn needs."""

RE2_MAX_MEM: Final = 8 << 20
"""Memory RE2 may use for one compiled pattern; a bigger program is rejected, not run."""

_SPACE: Final = r"\s\v\x1c-\x1f\x85\p{Z}"
_UNICODE_CLASSES: Final = {
    # escape: (outside a class, inside a class); None keeps RE2's own meaning
    "d": (r"\p{Nd}", r"\p{Nd}"),
    "D": (r"\P{Nd}", r"\P{Nd}"),
    "w": (r"[\p{L}\p{N}_]", r"\p{L}\p{N}_"),
    "W": (r"[^\p{L}\p{N}_]", None),
    "s": (f"[{_SPACE}]", _SPACE),
    "S": (f"[^{_SPACE}]", None),
}


_budget: ContextVar[list[float] | None] = ContextVar("pattern_search_budget", default=None)
"""Seconds left for lookaround searches in the current turn, and of its free allowance; None
outside a turn."""


@contextmanager
def search_budget(seconds: float = TURN_SEARCH_BUDGET_S) -> Iterator[None]:
    """Lookaround searches inside the block share ``seconds``; past it they match nothing.

    The budget lives in a context variable, so concurrent turns (tasks) each have their own.
    """
    token = _budget.set([seconds, TURN_FREE_SEARCH_S])
    try:
        yield
    finally:
        _budget.reset(token)


class SharedSearchTime:
    """A token bucket of search seconds for the whole process: it refills at ``share``
    seconds per second up to ``burst`` seconds; searches draw what they take."""

    def __init__(self, share: float, burst: float) -> None:
        self._share = share
        self._burst = burst
        self._left = burst
        self._at = time.monotonic()
        self._guard = threading.Lock()
        self._warned_at = -math.inf

    def available(self) -> float:
        """Seconds a search may take now."""
        with self._guard:
            now = time.monotonic()
            self._left = min(self._burst, self._left + (now - self._at) * self._share)
            self._at = now
            return self._left

    def spend(self, seconds: float) -> None:
        with self._guard:
            self._left -= seconds

    def warn_exhausted(self) -> None:
        """Say (at most once a minute) that searches are being cut short process-wide."""
        now = time.monotonic()
        if now - self._warned_at >= 60:
            self._warned_at = now
            logger.warning(
                "lookaround searches are using their %d%% share of the process: slow ones are "
                "cut short or count as no match until it refills",
                round(self._share * 100),
            )


SHARED_SEARCH = SharedSearchTime(PROCESS_SEARCH_SHARE, PROCESS_SEARCH_BURST_S)
"""The search time every lookaround search of the process draws from."""

MIN_SEARCH_S: Final = 0.001
"""A search given less time than this is not started (it counts as no match)."""


class Match(Protocol):
    def group(self, *names: int | str) -> Any: ...

    def groupdict(self) -> dict[str, Any]: ...


class CompiledPattern(Protocol):
    """What the engine uses of a compiled pattern (both engines provide it)."""

    def search(self, text: str) -> Match | None: ...

    def fullmatch(self, text: str) -> Match | None: ...


class _Bounded:
    """A ``regex`` pattern whose every search gives up after a time limit (as no match)."""

    def __init__(self, pattern: str, compiled: Any) -> None:
        self._pattern = pattern
        self._compiled = compiled

    def search(self, text: str) -> Match | None:
        return self._run(self._compiled.search, text)

    def fullmatch(self, text: str) -> Match | None:
        return self._run(self._compiled.fullmatch, text)

    def _run(self, method: Any, text: str) -> Match | None:
        budget = _budget.get()
        limit = FALLBACK_SEARCH_TIMEOUT_S
        free = TURN_FREE_SEARCH_S
        if budget is not None:
            limit = min(limit, budget[0])
            free = budget[1]
            if limit <= 0:
                return None
        shared = SHARED_SEARCH.available()
        if shared < MIN_SEARCH_S:
            SHARED_SEARCH.warn_exhausted()
            if free < MIN_SEARCH_S:
                return None
        rationed = shared + free < limit
        limit = min(limit, shared + free)
        if limit < MIN_SEARCH_S:
            # The process's share is overdrawn by more than the turn's free allowance: a
            # zero or negative timeout would let ``regex`` search without any limit at all.
            return None
        started = time.perf_counter()
        try:
            found: Match | None = method(text, timeout=limit, concurrent=True)
        except TimeoutError:
            if rationed:  # cut short by the process's share, not by its own time limit
                SHARED_SEARCH.warn_exhausted()
            logger.warning(
                "pattern %s gave up after %g s on a %d-character text; counted as no match",
                escape(repr(self._pattern)),
                limit,
                len(text),
            )
            found = None
        spent = time.perf_counter() - started
        SHARED_SEARCH.spend(max(0.0, spent - free))
        if budget is not None:
            budget[0] -= spent
            budget[1] = max(0.0, free - spent)
        return found


def to_re2_syntax(pattern: str) -> str:
    """``pattern`` with Python's Unicode ``\\d \\w \\s`` (and negations) spelled for RE2."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            escaped = pattern[i + 1]
            spelled = _UNICODE_CLASSES.get(escaped)
            replacement = spelled[1 if in_class else 0] if spelled else None
            out.append(replacement or pattern[i : i + 2])
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            i += 1
            # A "]" right after "[" or "[^" is a literal, not the end of the class.
            for literal in ("^", "]"):
                if pattern.startswith(literal, i):
                    out.append(literal)
                    i += 1
            continue
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        i += 1
    return "".join(out)


def _re2_options() -> Any:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False
    options.max_mem = RE2_MAX_MEM
    return options


def linear_error(pattern: str) -> str | None:
    """Why RE2 cannot run ``pattern`` (None when it can)."""
    try:
        re2.compile(to_re2_syntax(pattern), _re2_options())
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", errors="replace")
        return str(detail)
    return None


def pattern_error(pattern: str) -> str | None:
    """Why ``pattern`` is no usable regular expression at all (None when it is)."""
    if linear_error(pattern) is None:
        return None
    try:
        regex.compile(pattern, regex.IGNORECASE | regex.VERSION0)
    except (regex.error, OverflowError, RecursionError) as exc:
        return str(exc)
    return None


@lru_cache(maxsize=512)
def linear_pattern(pattern: str) -> CompiledPattern | None:
    """``pattern`` on RE2, case-insensitive; None when RE2 cannot run it."""
    if linear_error(pattern) is not None:
        return None
    compiled: CompiledPattern = re2.compile(to_re2_syntax(pattern), _re2_options())
    return compiled


@lru_cache(maxsize=512)
def compile_pattern(pattern: str) -> CompiledPattern | None:
    """``pattern`` on RE2, else time-limited on ``regex``; None when it is invalid for both."""
    linear = linear_pattern(pattern)
    if linear is not None:
        return linear
    if pattern_error(pattern) is not None:
        return None
    return _Bounded(pattern, regex.compile(pattern, regex.IGNORECASE | regex.VERSION0))


__all__ = [
    "CompiledPattern",
    "compile_pattern",
    "linear_error",
    "linear_pattern",
    "pattern_error",
    "search_budget",
    "to_re2_syntax",
]
