"""The storage interface: a session's config, per-turn state and records, its scenario, its lock.

A store keeps, per session, three things with different access patterns (see
``dialogkit.engine.state``): the config (written at creation), the small dialogue state
(read and replaced on every turn) and the append-only records (appended on every turn, read
rarely). Every part of a session expires together: ``state_ttl_s`` after the last save, and
never later than ``config_ttl_s`` after creation. Scenarios are stored once per fingerprint,
not once per session.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel

from dialogkit.engine.state import (
    DialogueState,
    RecordKind,
    Records,
    SessionConfig,
    TurnRecord,
    Visit,
)
from dialogkit.scenario.scenario import Scenario
from dialogkit.wire import HistoryEntry, dump_json

STATE_TTL_S = 3600
CONFIG_TTL_S = 24 * 3600
HISTORY_LIMIT = 1000
TRANSCRIPT_LIMIT = 1000

_RECORD_MODELS: dict[RecordKind, type[BaseModel]] = {
    "history": HistoryEntry,
    "transcript": TurnRecord,
    "visits": Visit,
}


@dataclass(frozen=True)
class RecordLimits:
    """How many records of each kind a session keeps; past a limit the oldest are dropped.

    The turn itself is never refused: its state is saved and its records appended, and the
    records then hold the most recent ``limit`` entries. Path steps (``visits``) share the
    history limit.
    """

    history: int = HISTORY_LIMIT
    transcript: int = TRANSCRIPT_LIMIT

    def of(self, kind: RecordKind) -> int:
        return self.transcript if kind == "transcript" else self.history


class StoredSession(NamedTuple):
    config: SessionConfig
    state: DialogueState
    expires_at: float
    """Unix time at which the state expires unless saved again."""
    ttl_s: float
    """Seconds left at the moment of reading, by the store's own clock."""


class SessionStore(Protocol):
    """Where sessions live. Implementations keep the TTL semantics of the spec:

    - the dialogue state expires ``state_ttl_s`` after its last save, checked on access, and
      the session's config and records go with it;
    - the configuration expires ``config_ttl_s`` after creation at the latest;
    - ``lock(session_id)`` serializes turns and state reads of one session, while different
      sessions proceed in parallel.

    ``load`` returns copies: a turn that fails half-way leaves the stored session intact.
    """

    state_ttl_s: int
    config_ttl_s: int
    limits: RecordLimits

    async def save(
        self,
        config: SessionConfig,
        state: DialogueState,
        records: Records,
        scenario: Scenario,
        *,
        new: bool = False,
    ) -> float:
        """Replace the state, append ``records`` and renew every TTL of the session; returns
        the state's new expiry time. ``new`` also writes the config and keeps the scenario
        under its fingerprint (a session whose config vanished mid-turn is written again)."""
        ...

    async def load(self, session_id: str) -> StoredSession | None:
        """The config and state of a live session, else None."""
        ...

    async def records(self, session_id: str, *kinds: RecordKind) -> Records:
        """The session's records of ``kinds`` (all by default; the most recent ``limits``
        of each)."""
        ...

    async def scenario(self, key: str) -> Scenario | None:
        """The scenario stored under fingerprint ``key`` (for a worker that lacks it)."""
        ...

    def lock(self, session_id: str) -> AbstractAsyncContextManager[None]: ...

    async def aclose(self) -> None: ...


def encode_records(records: Records) -> list[tuple[RecordKind, list[bytes]]]:
    """The non-empty kinds of ``records``, one JSON document per record."""
    return [
        (kind, [dump_json(item, exclude_defaults=True) for item in items])
        for kind, items in records.items()
        if items
    ]


def decode_records(raw: dict[RecordKind, list[Any]]) -> Records:
    """Records from the JSON documents of ``encode_records`` (bytes or str), per kind."""
    return Records.model_validate(
        {
            kind: [_RECORD_MODELS[kind].model_validate_json(item) for item in items]
            for kind, items in raw.items()
        }
    )
