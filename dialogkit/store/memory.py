"""The default store: process memory, with the spec's TTLs and per-session locks.

Each session is one entry holding its config and state as JSON (so every read is a private
copy, as with Redis: a turn that fails half-way cannot have touched the stored session) and
its records as JSON lines in a ``bytearray`` per kind, appended to and trimmed in amortized
O(1) (one buffer rather than one object per record: a third less memory). An
``ExpiryWheel`` frees whole sessions (config, state, records, and the last reference to a
scenario) once they expire, so memory stays flat under a steady churn of sessions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

from dialogkit.engine.state import (
    DialogueState,
    RecordKind,
    Records,
    SessionConfig,
)
from dialogkit.scenario.scenario import Scenario
from dialogkit.store.base import (
    CONFIG_TTL_S,
    STATE_TTL_S,
    RecordLimits,
    StoredSession,
    decode_records,
    encode_records,
    stored_kinds,
)
from dialogkit.store.expiry import ExpiryWheel
from dialogkit.store.queues import SessionQueues
from dialogkit.wire import dump_json


@dataclass(slots=True, eq=False)
class _Log:
    """Records as JSON lines (JSON text never holds a raw newline)."""

    lines: bytearray = field(default_factory=bytearray)
    count: int = 0

    def extend(self, items: list[bytes], limit: int) -> None:
        for item in items:
            self.lines += item
            self.lines += b"\n"
        self.count += len(items)
        if self.count > limit + max(1, limit // 8):
            cut = 0
            for _ in range(self.count - limit):
                cut = self.lines.index(b"\n", cut) + 1
            del self.lines[:cut]
            self.count = limit

    def read(self) -> list[bytes]:
        return bytes(self.lines).split(b"\n")[:-1]


@dataclass(slots=True, eq=False)
class _Entry:
    config: bytes
    scenario_key: str
    config_expires_at: float
    state: bytes = b""
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
        entry.state = dump_json(state)
        entry.state_expires_at = now + self.state_ttl_s
        for kind, items in encode_records(records):
            log = entry.transcript if kind == "transcript" else entry.visits
            log.extend(items, self.limits.rows)
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
        entry = _Entry(
            config=dump_json(config),
            scenario_key=key,
            config_expires_at=config.created_at + self.config_ttl_s,
        )
        self._sessions[config.session_id] = entry
        return entry

    async def load(self, session_id: str) -> StoredSession | None:
        now = self._clock()
        entry = self._live(session_id, now)
        if entry is None or not entry.state:
            return None
        return StoredSession(
            SessionConfig.model_validate_json(entry.config),
            DialogueState.model_validate_json(entry.state),
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
        logs = {"transcript": entry.transcript, "visits": entry.visits}
        raw = {kind: logs[kind].read() for kind in stored_kinds(kinds)}
        return decode_records(raw, kinds, self.limits)

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
        shared = self._scenarios[entry.scenario_key]
        shared.sessions -= 1
        if shared.sessions <= 0:
            del self._scenarios[entry.scenario_key]

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
