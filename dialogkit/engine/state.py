"""What a session stores: its configuration (fixed at creation) and its dialogue state."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, Field

from dialogkit.usage import Usage
from dialogkit.wire import CompletionOptions, HistoryEntry


class SessionConfig(BaseModel):
    """Settings fixed when the session is created (kept 24 h by default)."""

    session_id: str
    scenario: dict[str, Any]
    scenario_key: str
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


class DialogueState(BaseModel):
    """Everything that changes turn by turn (kept 3,600 s after the last save by default)."""

    current_node: str
    turn_count: int = 0
    slots: dict[str, Any] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    session_complete: bool = False
    completion_reason: str | None = Field(
        None, description="The reason of the last completing transition that gave one."
    )
    history: list[HistoryEntry] = Field(default_factory=list)
    node_turns: int = 0
    fallback_retries: int = 0
    visits: list[str] = Field(default_factory=list, description="Nodes entered, in order.")
    transitions: list[tuple[str, str]] = Field(default_factory=list)
    pending_entry: bool = Field(
        False, description="The entry node was not entered yet (bot_first false)."
    )
    last_question: str = ""
    last_reply: str = Field("", description="The last reply of a normal turn (for `repeat`).")
    transcript: list[TurnRecord] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)

    def assistant_messages(self) -> list[str]:
        return [entry.message for entry in self.history if entry.role == "assistant"]
