"""What a session stores: its configuration, its small per-turn state and its records.

Three things with three lifetimes and three access patterns:

- ``SessionConfig``: fixed at creation; names its scenario by fingerprint (the parsed
  scenario itself lives once per process in the scenario cache, never in a session);
- ``DialogueState``: what a turn reads and writes, read and saved whole on every turn, so it
  is kept small and bounded (recent windows, never the whole conversation);
- ``Records``: the append-only transcript and path; a turn only appends to them (O(1) in
  the length of the conversation) and they are read only for a completion with
  ``include_history``, a transcript or coverage. The full history is not stored twice: each
  transcript row holds the turn's user text and reply, and ``history_of`` derives it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from sys import intern
from typing import Any, Literal

from pydantic import ConfigDict, Field

from dialogkit.usage import Usage
from dialogkit.wire import HistoryEntry, SessionSettings

RECENT_HISTORY = 8
"""History entries the state keeps, and the window language models see in their prompts
(4 exchanges)."""
RECENT_SAID = 24
"""Assistant replies the state keeps for the no-repeat rule: a fallback never repeats a
sentence of the last ``RECENT_SAID`` replies (older ones may come back)."""
RECENT_VISITS = 8
"""Nodes entered that the state keeps for the ``back`` action."""

RecordKind = Literal["history", "transcript", "visits"]
"""What can be read; ``history`` is derived from the stored transcript rows."""
RECORD_KINDS: tuple[RecordKind, ...] = ("history", "transcript", "visits")


class SessionConfig(SessionSettings):
    """Settings fixed when the session is created (kept 24 h at most, and no longer than
    its dialogue state): the start options as given (``SessionSettings``), plus what the
    engine resolved from them. Frozen: a store may hand the same object to every turn."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    scenario_key: str = Field(description="The scenario's fingerprint (see the scenario cache).")
    user: dict[str, Any] = Field(default_factory=dict)
    bot_first: bool = False
    hybrid_nlu: bool | None = None
    created_at: float = Field(default_factory=time.time)


@dataclass(slots=True, kw_only=True)
class TurnRecord:
    """One row of a session's transcript: what came in, what NLU saw, where the graph went.

    The one turn-row type: the store keeps it, ``Reply.trace`` carries it, notebook
    transcripts and evaluation read it. Plain data; pydantic sees it only where it is stored
    (``dialogkit.store``'s record codecs).
    """

    turn: int
    user_text: str
    confidence: float | None = None
    intent: str | None = None
    entities: dict[str, Any] = field(default_factory=dict)
    dialogue_act: str | None = None
    node_before: str | None
    """None only where it is not known (the opening reply of a remote session)."""
    node_after: str
    reply: str
    fallback: str | None = None
    latency_ms: float = 0.0
    error: bool = False
    tier: str | None = None
    """Which NLU tier decided: rules, embeddings, llm, or gate (the input gate)."""
    tier_score: float | None = None
    """The embedding tier's cosine for its best intent, when it was asked (decided or not)."""
    runner_up: str | None = None
    """The embedding tier's second-best intent, when it was asked."""

    def as_dict(self, columns: Iterable[str] | None = None) -> dict[str, Any]:
        """The row as a plain dict (``columns`` only, in their order; all fields by default)."""
        return {
            name: dict(value) if isinstance(value, dict) else value
            for name in (TURN_RECORD_FIELDS if columns is None else columns)
            for value in (getattr(self, name),)
        }


TURN_RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TurnRecord))


@dataclass(slots=True, frozen=True)
class Visit:
    """A node entered; ``source`` is the node it was entered from by a transition (none for
    the opening greeting and for the entry node entered by the first message)."""

    node: str
    source: str | None = None


@dataclass(slots=True)
class Records:
    """A session's records as read (``history`` derived from the rows), or what one turn
    appends (``transcript`` and ``visits`` only)."""

    history: list[HistoryEntry] = field(default_factory=list)
    transcript: list[TurnRecord] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)

    @property
    def path(self) -> list[str]:
        """Every node entered, in order (nodes passed through included)."""
        return [visit.node for visit in self.visits]

    @property
    def transitions(self) -> list[tuple[str, str]]:
        """Every (source, target) move taken by a transition, in order."""
        return [(v.source, v.node) for v in self.visits if v.source is not None]


def history_of(rows: Iterable[TurnRecord]) -> list[HistoryEntry]:
    """The conversation history of transcript rows: each turn's user message (when the turn
    had input) then its reply, exactly as the turn wrote them to its recent window."""
    history: list[HistoryEntry] = []
    for row in rows:
        if row.confidence is not None:
            history.append(HistoryEntry(role="user", message=row.user_text))
        history.append(HistoryEntry(role="assistant", message=row.reply))
    return history


@dataclass(slots=True, kw_only=True)
class DialogueState:
    """What a turn reads and writes (kept 3,600 s after the last save by default).

    ``history`` and ``visits`` are recent windows (``RECENT_HISTORY``, ``RECENT_VISITS``); the
    whole conversation lives in the session's ``Records``. Plain data: a turn reads and writes
    attributes; the Redis store encodes it with pydantic (``dialogkit.store._base``), the memory
    store keeps the object itself and hands each turn a ``copy()``.
    """

    current_node: str
    turn_count: int = 0
    slots: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    session_complete: bool = False
    completion_reason: str | None = None
    """The reason of the last completing transition that gave one."""
    history: list[HistoryEntry] = field(default_factory=list)
    """The last ``RECENT_HISTORY`` messages."""
    said: list[str] = field(default_factory=list)
    """The assistant's last ``RECENT_SAID`` replies."""
    node_turns: int = 0
    fallback_retries: int = 0
    visits: list[str] = field(default_factory=list)
    """The last ``RECENT_VISITS`` nodes entered, in order."""
    pending_entry: bool = False
    """The entry node was not entered yet (bot_first false)."""
    last_question: str = ""
    last_reply: str = ""
    """The last reply of a normal turn (for ``repeat``)."""
    usage: Usage = field(default_factory=Usage)

    def assistant_messages(self) -> list[str]:
        """The assistant's recent replies: what the no-repeat rule compares against."""
        return self.said

    def copy(self) -> DialogueState:
        """A private copy for one turn: a turn that fails half-way leaves this one untouched."""
        return DialogueState.thaw(self.freeze())

    def freeze(self) -> FrozenState:
        """The state as a snapshot no turn can change: what the memory store keeps.

        A plain tuple of the fields in order, lists as tuples and history entries as pairs:
        made of strings, numbers, tuples and dicts of those, it becomes invisible to the
        garbage collector once a collection has seen it (CPython untracks such tuples and
        dicts), so thousands of idle sessions add nothing to a full collection's pause. The
        texts are interned: sessions that said the same template sentence share one string
        (interned strings are freed with their last user).
        """
        usage = self.usage
        return (
            self.current_node,
            self.turn_count,
            freeze_value(self.slots),
            freeze_value(self.context),
            self.session_complete,
            self.completion_reason,
            tuple((entry.role, intern(entry.message)) for entry in self.history),
            tuple(intern(text) for text in self.said),
            self.node_turns,
            self.fallback_retries,
            tuple(self.visits),
            self.pending_entry,
            intern(self.last_question),
            intern(self.last_reply),
            usage.copied() if usage.by_purpose or usage.by_model or usage.warnings else None,
        )

    @classmethod
    def thaw(cls, frozen: FrozenState) -> DialogueState:
        """A state a turn may change, from a ``freeze`` snapshot. Lists inside slots and
        context were tuples there and are lists again, as a JSON round trip gives them."""
        (
            current_node,
            turn_count,
            slots,
            context,
            session_complete,
            completion_reason,
            history,
            said,
            node_turns,
            fallback_retries,
            visits,
            pending_entry,
            last_question,
            last_reply,
            usage,
        ) = frozen
        return cls(
            current_node=current_node,
            turn_count=turn_count,
            slots=thaw_value(slots),
            context=thaw_value(context),
            session_complete=session_complete,
            completion_reason=completion_reason,
            history=[HistoryEntry(role, message) for role, message in history],
            said=list(said),
            node_turns=node_turns,
            fallback_retries=fallback_retries,
            visits=list(visits),
            pending_entry=pending_entry,
            last_question=last_question,
            last_reply=last_reply,
            usage=Usage() if usage is None else usage.copied(),
        )


FrozenState = tuple[Any, ...]
"""A ``DialogueState.freeze`` snapshot (an exact tuple: CPython untracks only those)."""


_DICT = object()
"""Marks a frozen dict, ``(_DICT, key, value, key, value, ...)``. The collector keeps any dict
holding a dict tracked, but untracks an exact tuple of untracked values, and a bare
``object()`` is not tracked at all."""


def freeze_value(value: Any) -> Any:
    """``value`` as nested tuples (see ``_DICT`` for dicts): the JSON shapes a state holds,
    none left that a turn could change in place."""
    kind = type(value)
    if kind is dict:
        items: list[Any] = [_DICT]
        for key, item in value.items():
            items.append(key)
            items.append(freeze_value(item))
        return tuple(items)
    if kind is list or kind is tuple:
        return tuple(freeze_value(item) for item in value)
    return value


def thaw_value(value: Any) -> Any:
    """A frozen value as a turn sees it: fresh dicts and lists."""
    if type(value) is tuple:
        if value and value[0] is _DICT:
            return {value[i]: thaw_value(value[i + 1]) for i in range(1, len(value), 2)}
        return [thaw_value(item) for item in value]
    return value
