"""The default store: process memory, with the spec's TTLs and per-session locks.

Each session is one entry holding its parsed config (frozen, never changed after creation, so
shared by every turn), its dialogue state as a snapshot (``DialogueState.freeze``: tuples and
strings, which a turn cannot change and the garbage collector stops scanning; each load thaws
a private state, so a turn that fails half-way cannot have touched the stored session, as with
Redis, but without a JSON round trip) and its records as tuples of their fields, appended to
and trimmed in amortized O(1) (texts interned, so a reply shares its string with the state and
with every session that said the same sentence; records are written on every turn but read
rarely). An
``ExpiryWheel`` frees whole sessions (config, state, records, and the last reference to a
scenario) once they expire, so memory stays flat under a steady churn of sessions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from sys import intern
from typing import Any

from dialogkit.engine.state import (
    DialogueState,
    FrozenState,
    RecordKind,
    Records,
    SessionConfig,
    TurnRecord,
    Visit,
    freeze_value,
    thaw_value,
)
from dialogkit.scenario.scenario import Scenario
from dialogkit.store._base import (
    CONFIG_TTL_S,
    STATE_TTL_S,
    RecordLimits,
    StoredSession,
    records_of,
    stored_kinds,
)
from dialogkit.store._expiry import ExpiryWheel
from dialogkit.store._queues import SessionQueues


@dataclass(slots=True, eq=False)
class _Log:
    """Records as tuples of their fields (see ``_row`` and ``_visit``): no JSON to write on a
    turn, texts shared with the state's snapshot, and nothing the collector keeps scanning."""

    items: list[tuple[Any, ...]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.items)

    def extend(self, items: list[tuple[Any, ...]], limit: int) -> None:
        self.items += items
        if len(self.items) > limit + max(1, limit // 8):
            del self.items[: len(self.items) - limit]


def _row(row: TurnRecord) -> tuple[Any, ...]:
    return (
        row.turn,
        intern(row.user_text),
        row.confidence,
        row.intent,
        freeze_value(row.entities) if row.entities else None,
        row.dialogue_act,
        row.node_before,
        row.node_after,
        intern(row.reply),
        row.fallback,
        row.latency_ms,
        row.error,
    )


def _turn_record(item: tuple[Any, ...]) -> TurnRecord:
    (
        turn,
        user_text,
        confidence,
        intent,
        entities,
        act,
        before,
        after,
        reply,
        fallback,
        ms,
        error,
    ) = item
    return TurnRecord(
        turn=turn,
        user_text=user_text,
        confidence=confidence,
        intent=intent,
        entities=thaw_value(entities) if entities is not None else {},
        dialogue_act=act,
        node_before=before,
        node_after=after,
        reply=reply,
        fallback=fallback,
        latency_ms=ms,
        error=error,
    )


@dataclass(slots=True, eq=False)
class _Entry:
    config: SessionConfig
    config_expires_at: float
    state: FrozenState | None = None
    state_expires_at: float = 0.0
    transcript: _Log = field(default_factory=_Log)
    visits: _Log = field(default_factory=_Log)
    replies: dict[str, bytes] | None = None
    """Replies of turns sent with an idempotency key, by key (the most recent ones)."""

    @property
    def expires_at(self) -> float:
        return min(self.config_expires_at, self.state_expires_at)


@dataclass(slots=True, eq=False)
class _SharedScenario:
    scenario: Scenario
    sessions: int = 0


class MemoryStore:
    """Sessions in this process only: lost on restart, not shared between workers."""

    def __init__(
        self,
        *,
        state_ttl_s: int = STATE_TTL_S,
        config_ttl_s: int = CONFIG_TTL_S,
        limits: RecordLimits | None = None,
        clock: Callable[[], float] = time.time,
        lock_wait_s: float = 120.0,
    ) -> None:
        self.state_ttl_s = state_ttl_s
        self.config_ttl_s = config_ttl_s
        self.limits = limits or RecordLimits()
        self._clock = clock
        self._sessions: dict[str, _Entry] = {}
        self._scenarios: dict[str, _SharedScenario] = {}
        self._expiry = ExpiryWheel()
        self._queues = SessionQueues(lock_wait_s)

    async def save(
        self,
        config: SessionConfig,
        state: DialogueState,
        records: Records,
        scenario: Scenario,
        *,
        new: bool = False,
        reply: tuple[str, bytes] | None = None,
    ) -> float:
        now = self._clock()
        self.sweep(now)
        session_id = config.session_id
        entry = self._live(session_id, now)
        if entry is None or new:
            if entry is not None:
                self._free(session_id)
            entry = self._adopt(config, scenario, now)
        entry.state = state.freeze()
        entry.state_expires_at = now + self.state_ttl_s
        if records.transcript:
            entry.transcript.extend([_row(row) for row in records.transcript], self.limits.rows)
        if records.visits:
            visits = [(visit.node, visit.source) for visit in records.visits]
            entry.visits.extend(visits, self.limits.rows)
        if reply is not None:
            self._keep_reply(entry, *reply)
        self._expiry.schedule(session_id, entry.expires_at)
        return entry.state_expires_at

    def _adopt(self, config: SessionConfig, scenario: Scenario, now: float) -> _Entry:
        key = config.scenario_key
        shared = self._scenarios.get(key)
        if shared is None:
            shared = self._scenarios[key] = _SharedScenario(scenario)
        shared.sessions += 1
        entry = _Entry(config=config, config_expires_at=config.created_at + self.config_ttl_s)
        self._sessions[config.session_id] = entry
        return entry

    async def load(self, session_id: str) -> StoredSession | None:
        now = self._clock()
        entry = self._live(session_id, now)
        if entry is None or entry.state is None:
            return None
        return StoredSession(
            entry.config,
            DialogueState.thaw(entry.state),
            entry.state_expires_at,
            entry.state_expires_at - now,
        )

    def _keep_reply(self, entry: _Entry, key: str, reply: bytes) -> None:
        """Save a keyed turn's reply; past ``limits.replies`` the oldest goes (as in Redis)."""
        replies = entry.replies = entry.replies or {}
        replies.pop(key, None)  # a key saved again counts as the most recent
        replies[key] = reply
        while len(replies) > self.limits.replies:
            del replies[next(iter(replies))]

    async def saved_reply(self, session_id: str, key: str) -> bytes | None:
        entry = self._live(session_id, self._clock())
        return None if entry is None or entry.replies is None else entry.replies.get(key)

    async def records(self, session_id: str, *kinds: RecordKind) -> Records:
        entry = self._live(session_id, self._clock())
        if entry is None:
            return Records()
        wanted = stored_kinds(kinds)
        rows = (
            [_turn_record(item) for item in entry.transcript.items]
            if "transcript" in wanted
            else []
        )
        visits = (
            [Visit(node, source) for node, source in entry.visits.items[-self.limits.rows :]]
            if "visits" in wanted
            else []
        )
        return records_of(rows, visits, kinds, self.limits)

    async def scenario(self, key: str) -> Scenario | None:
        shared = self._scenarios.get(key)
        return shared.scenario if shared is not None else None

    def _live(self, session_id: str, now: float) -> _Entry | None:
        entry = self._sessions.get(session_id)
        if entry is not None and entry.expires_at <= now:
            self._free(session_id)
            return None
        return entry

    def _free(self, session_id: str) -> None:
        entry = self._sessions.pop(session_id, None)
        self._expiry.discard(session_id)
        if entry is None:
            return
        key = entry.config.scenario_key
        shared = self._scenarios[key]
        shared.sessions -= 1
        if shared.sessions <= 0:
            del self._scenarios[key]

    def lock(self, session_id: str) -> AbstractAsyncContextManager[None]:
        return self._queues.turn(session_id)

    def sweep(self, now: float | None = None) -> None:
        """Free every session that expired (called on every save; amortized O(1) each)."""
        for session_id in self._expiry.due(self._clock() if now is None else now):
            self._free(session_id)

    @property
    def size(self) -> tuple[int, int, int]:
        """(sessions, scenarios, locks) currently held."""
        return len(self._sessions), len(self._scenarios), len(self._queues)

    async def aclose(self) -> None:
        self._queues.clear()
