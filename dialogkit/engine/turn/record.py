"""Bookkeeping: the recent windows a turn keeps in the state, and what it appends to the
session's records."""

from __future__ import annotations

from dialogkit.engine.state import (
    RECENT_HISTORY,
    RECENT_SAID,
    RECENT_VISITS,
    DialogueState,
    Records,
    TurnRecord,
    Visit,
)
from dialogkit.engine.turn.data import TurnInput, TurnOutcome
from dialogkit.wire import HistoryEntry


def record_exchange(state: DialogueState, turn_input: TurnInput, reply: str) -> None:
    """Append the exchange to the state's recent window (the session's full history is
    derived from its transcript rows, which hold the same user text and reply)."""
    entries = [HistoryEntry(role="assistant", message=reply)]
    if turn_input.sent:
        entries.insert(0, HistoryEntry(role="user", message=turn_input.text))
    recent = state.history
    recent.extend(entries)
    del recent[:-RECENT_HISTORY]
    said = state.said
    said.append(reply)
    del said[:-RECENT_SAID]


def record_visit(state: DialogueState, records: Records, node_id: str, source: str | None) -> None:
    """A node entered: appended to the records, and to the state's recent window (``back``)."""
    records.visits.append(Visit(node=node_id, source=source))
    recent = state.visits
    recent.append(node_id)
    del recent[:-RECENT_VISITS]


def transcript_row(
    state: DialogueState, outcome: TurnOutcome, node_before: str, latency_ms: float
) -> TurnRecord:
    """The turn's transcript row (also the reply's trace)."""
    turn_input = outcome.turn_input
    return TurnRecord(
        turn=state.turn_count,
        user_text=turn_input.text,
        confidence=turn_input.confidence,
        intent=outcome.nlu.intent,
        entities=dict(outcome.nlu.entities),
        dialogue_act=outcome.nlu.dialogue_act,
        node_before=node_before,
        node_after=state.current_node,
        reply=outcome.reply,
        fallback=outcome.fallback,
        latency_ms=round(latency_ms, 3),
    )
