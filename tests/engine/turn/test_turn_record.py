"""Bookkeeping: recent windows stay bounded; the transcript row says what happened."""

from __future__ import annotations

from dialogkit.engine.state import RECENT_HISTORY, RECENT_SAID, RECENT_VISITS, Records
from dialogkit.engine.turn.data import TurnInput, TurnOutcome
from dialogkit.engine.turn.record import record_exchange, record_visit, transcript_row
from dialogkit.nlu._result import NLUResult
from tests.engine.turn.parts import state


def test_an_exchange_with_input_records_the_user_then_the_reply() -> None:
    working = state("a")
    record_exchange(working, TurnInput("hi", 0.0), "Hello.")
    record_exchange(working, TurnInput(), "Welcome.")  # the opening: no user message
    assert [(e.role, e.message) for e in working.history] == [
        ("user", "hi"),
        ("assistant", "Hello."),
        ("assistant", "Welcome."),
    ]
    assert working.said == ["Hello.", "Welcome."]


def test_the_recent_windows_stay_bounded() -> None:
    working, records = state("a"), Records()
    for i in range(40):
        record_exchange(working, TurnInput(f"u{i}", 0.0), f"r{i}")
        record_visit(working, records, f"n{i}", None)
    assert len(working.history) == RECENT_HISTORY
    assert working.history[-1].message == "r39"
    assert working.said == [f"r{i}" for i in range(40 - RECENT_SAID, 40)]
    assert working.visits == [f"n{i}" for i in range(40 - RECENT_VISITS, 40)]
    assert len(records.visits) == 40


def test_the_transcript_row_carries_the_input_the_understanding_and_the_path() -> None:
    working = state("b", turn_count=3)
    nlu = NLUResult(intent="affirm", entities={"x": 1}, dialogue_act="answer")
    outcome = TurnOutcome(reply="Ok.", nlu=nlu, turn_input=TurnInput("yes", 0.4))
    row = transcript_row(working, outcome, "a", 1.23456)
    assert (row.turn, row.user_text, row.confidence, row.intent) == (3, "yes", 0.4, "affirm")
    assert (row.node_before, row.node_after, row.reply, row.latency_ms) == ("a", "b", "Ok.", 1.235)
    assert row.entities == {"x": 1} and row.entities is not nlu.entities
    opening = transcript_row(working, TurnOutcome(reply="Hi."), "a", 0.0)
    assert (opening.user_text, opening.confidence) == ("", None)
    assert TurnInput().scope() == {"text": "", "confidence": None}
    assert not TurnInput().sent and TurnInput("", 0.0).sent
