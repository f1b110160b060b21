"""The storage interface: a session's config, per-turn state and records, its scenario, its lock.

A store keeps, per session, three things with different access patterns (see
``dialogkit.engine.state``): the config (written at creation), the small dialogue state
(read and replaced on every turn) and the append-only records, transcript rows and path
steps (appended on every turn, read rarely). Every part of a session expires together:
``state_ttl_s`` after the last save, and never later than ``config_ttl_s`` after creation.
Scenarios are stored once per fingerprint, not once per session.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol

from dialogkit.engine.state import (
    RECORD_KINDS,
    DialogueState,
    RecordKind,
    Records,
    SessionConfig,
    TurnRecord,
    Visit,
    history_of,
)
from dialogkit.scenario.scenario import Scenario
from dialogkit.wire import Codec

STATE_TTL_S = 3600
CONFIG_TTL_S = 24 * 3600
HISTORY_LIMIT = 1000
TRANSCRIPT_LIMIT = 1000
REPLIES_KEPT = 64
"""Idempotency-Key replies kept per session: a client retries its last few turns, not more."""

StoredKind = Literal["transcript", "visits"]
STORED_KINDS: tuple[StoredKind, ...] = ("transcript", "visits")
"""The record lists a store keeps per session (history is derived from the transcript)."""


@dataclass(frozen=True)
class RecordLimits:
    """How many records a session keeps; past a limit the oldest are dropped.

    The turn itself is never refused: its state is saved and its records appended, and reads
    then return the most recent ``history`` entries and ``transcript`` rows. A store keeps
    ``rows`` transcript rows (a row gives one or two history entries) and as many path steps,
    and the saved replies of its ``replies`` most recent turns sent with an idempotency key.
    """

    history: int = HISTORY_LIMIT
    transcript: int = TRANSCRIPT_LIMIT
    replies: int = REPLIES_KEPT

    @property
    def rows(self) -> int:
        return max(self.history, self.transcript)


STATE = Codec(DialogueState)
"""The dialogue state as a store writes it (the memory store keeps the object instead)."""
TURN_RECORD = Codec(TurnRecord)
VISIT = Codec(Visit)


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

    ``load`` returns a state the caller may change (a copy): a turn that fails half-way leaves
    the stored session intact. ``save`` takes ownership of the state it is given. The config
    never changes after creation and may be shared.
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
        reply: tuple[str, bytes] | None = None,
    ) -> float:
        """Replace the state, append ``records`` and renew every TTL of the session; returns
        the state's new expiry time. ``new`` also writes the config and keeps the scenario
        under its fingerprint (a session whose config vanished mid-turn is written again).
        ``reply`` is ``(idempotency key, reply JSON)``, saved with the state, all or nothing."""
        ...

    async def saved_reply(self, session_id: str, key: str) -> bytes | None:
        """The reply JSON saved for idempotency ``key`` in the session, if any."""
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


def encode_records(records: Records) -> list[tuple[StoredKind, list[bytes]]]:
    """What a turn appends, per stored kind: one JSON document per record."""
    appended: list[tuple[StoredKind, list[bytes]]] = [
        (
            "transcript",
            [TURN_RECORD.encode(row, exclude_defaults=True) for row in records.transcript],
        ),
        ("visits", [VISIT.encode(visit, exclude_defaults=True) for visit in records.visits]),
    ]
    return [(kind, items) for kind, items in appended if items]


def stored_kinds(kinds: Collection[RecordKind]) -> list[StoredKind]:
    """The stored lists that reading ``kinds`` (all when empty) needs."""
    wanted = set(kinds or RECORD_KINDS)
    rows = bool(wanted & {"history", "transcript"})
    return [kind for kind in STORED_KINDS if kind in wanted or (kind == "transcript" and rows)]


def decode_records(
    raw: dict[StoredKind, list[Any]], kinds: Collection[RecordKind], limits: RecordLimits
) -> Records:
    """The records of ``kinds`` (all when empty) from the stored JSON documents, each cut to
    its limit."""
    rows = [TURN_RECORD.decode(item) for item in raw.get("transcript", [])]
    visits = [VISIT.decode(item) for item in raw.get("visits", [])[-limits.rows :]]
    return records_of(rows, visits, kinds, limits)


def records_of(
    rows: list[TurnRecord], visits: list[Visit], kinds: Collection[RecordKind], limits: RecordLimits
) -> Records:
    """The records of ``kinds`` (all when empty) from a session's rows and visits, each cut to
    its limit (``history`` derived from the rows)."""
    wanted = set(kinds or RECORD_KINDS)
    return Records(
        history=history_of(rows)[-limits.history :] if "history" in wanted else [],
        transcript=rows[-limits.transcript :] if "transcript" in wanted else [],
        visits=visits[-limits.rows :] if "visits" in wanted else [],
    )
