"""The input gate and the fallback budget, on plain values."""

from __future__ import annotations

import pytest

from dialogkit.engine.state import SessionConfig
from dialogkit.engine.turn.data import TurnInput
from dialogkit.engine.turn.gate import DEFAULT_MAX_FALLBACK_RETRIES, exhausted, gate, max_retries
from dialogkit.nlu._builtin import STT_LOW_CONFIDENCE
from dialogkit.scenario.model import Node

THRESHOLD = -0.7


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_text_is_no_input_with_the_silence_act(text: str) -> None:
    stopped = gate(TurnInput(text, 0.0), THRESHOLD, exhausted=False)
    assert stopped is not None
    assert stopped.kind == "no_input"
    assert stopped.nlu.dialogue_act == "silence"
    assert stopped.nlu.source == "gate"


@pytest.mark.parametrize("confidence", [-0.7, -0.9, -1.0])
def test_confidence_at_or_below_the_threshold_is_not_understood(confidence: float) -> None:
    stopped = gate(TurnInput("hello", confidence), THRESHOLD, exhausted=False)
    assert stopped is not None
    assert stopped.kind == "not_understood"
    assert stopped.nlu.intent == STT_LOW_CONFIDENCE
    assert stopped.nlu.confidence == confidence


def test_heard_text_passes() -> None:
    assert gate(TurnInput("hello", -0.69), THRESHOLD, exhausted=False) is None
    assert gate(TurnInput("hello", 0.0), 0.0, exhausted=False) is not None  # boundary included


def test_an_exhausted_node_lets_everything_through() -> None:
    assert gate(TurnInput("", 0.0), THRESHOLD, exhausted=True) is None
    assert gate(TurnInput("hi", -1.0), THRESHOLD, exhausted=True) is None


def config(retries: int | None = None) -> SessionConfig:
    return SessionConfig(session_id="s", scenario_key="k", max_fallback_retries=retries)


def test_fallback_budget_comes_from_the_session_then_the_node_then_the_default() -> None:
    plain = Node(id="a")
    declared = Node.model_validate({"id": "a", "params": {"max_fallback_retries": 1}})
    assert max_retries(plain, config()) == DEFAULT_MAX_FALLBACK_RETRIES
    assert max_retries(declared, config()) == 1
    assert max_retries(declared, config(5)) == 5
    assert exhausted(declared, config(), 1)
    assert not exhausted(declared, config(), 0)


def test_a_terminal_node_that_allows_no_fallback_keeps_it_whatever_the_session_says() -> None:
    closed = Node.model_validate(
        {"id": "end", "terminal": True, "params": {"max_fallback_retries": 0}}
    )
    assert max_retries(closed, config(5)) == 0
