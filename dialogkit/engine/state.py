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
from typing import Any, Literal

from pydantic import BaseModel, Field

from dialogkit.usage import Usage
from dialogkit.wire import CompletionOptions, HistoryEntry

RECENT_HISTORY = 8
"""History entries the state keeps for the prompts of language models (4 exchanges)."""
RECENT_SAID = 24
"""Assistant replies the state keeps for the no-repeat rule: a fallback never repeats a
sentence of the last ``RECENT_SAID`` replies (older ones may come back)."""
RECENT_VISITS = 8
"""Nodes entered that the state keeps for the ``back`` action."""

RecordKind = Literal["history", "transcript", "visits"]
"""What can be read; ``history`` is derived from the stored transcript rows."""
RECORD_KINDS: tuple[RecordKind, ...] = ("history", "transcript", "visits")


class SessionConfig(BaseModel):
    """Settings fixed when the session is created (kept 24 h at most, and no longer than
    its dialogue state)."""

    session_id: str
    scenario_key: str = Field(description="The scenario's fingerprint (see the scenario cache).")
    user: dict[str, Any] = Field(default_factory=dict)
    llm_choice: str = ""
    nlu_llm_choice: str = ""
    user_system_prompt: str = ""
    bot_first: bool = False
    max_fallback_retries: int | None = None
    stt_confidence_threshold: float = -0.7
    completion_options: CompletionOptions = Field(default_factory=CompletionOptions)
    hybrid_nlu: bool | None = None
    created_at: float = Field(default_factory=time.time)


class TurnRecord(BaseModel):
    """One row of a session's transcript: what came in, what NLU saw, where the graph went."""

    turn: int
    user_text: str
    confidence: float | None = None
    intent: str | None = None
    entities: dict[str, Any] = Field(default_factory=dict)
    dialogue_act: str | None = None
    node_before: str
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


class Visit(BaseModel):
    """A node entered; ``source`` is the node it was entered from by a transition (none for
    the opening greeting and for the entry node entered by the first message)."""

    node: str
    source: str | None = None


class Records(BaseModel):
    """A session's records as read (``history`` derived from the rows), or what one turn
    appends (``transcript`` and ``visits`` only)."""

    history: list[HistoryEntry] = Field(default_factory=list)
    transcript: list[TurnRecord] = Field(default_factory=list)
    visits: list[Visit] = Field(default_factory=list)

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


class DialogueState(BaseModel):
    """What a turn reads and writes (kept 3,600 s after the last save by default).

    ``history`` and ``visits`` are recent windows (``RECENT_HISTORY``, ``RECENT_VISITS``); the
    whole conversation lives in the session's ``Records``.
    """

    current_node: str
    turn_count: int = 0
    slots: dict[str, Any] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    session_complete: bool = False
    completion_reason: str | None = Field(
        None, description="The reason of the last completing transition that gave one."
    )
    history: list[HistoryEntry] = Field(
        default_factory=list, description="The last RECENT_HISTORY messages."
    )
    said: list[str] = Field(
        default_factory=list, description="The assistant's last RECENT_SAID replies."
    )
    node_turns: int = 0
    fallback_retries: int = 0
    visits: list[str] = Field(
        default_factory=list, description="The last RECENT_VISITS nodes entered, in order."
    )
    pending_entry: bool = Field(
        False, description="The entry node was not entered yet (bot_first false)."
    )
    last_question: str = ""
    last_reply: str = Field("", description="The last reply of a normal turn (for `repeat`).")
    usage: Usage = Field(default_factory=Usage)

    def assistant_messages(self) -> list[str]:
        """The assistant's recent replies: what the no-repeat rule compares against."""
        return self.said
