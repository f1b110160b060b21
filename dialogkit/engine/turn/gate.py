"""The input gate: what a message too empty or too poorly heard to understand gets.

Empty text is a ``no_input`` fallback (dialogue act ``silence``); an STT confidence at or
below the session's threshold is a ``not_understood`` fallback with intent
``stt_low_confidence``. Either skips NLU. Once the node's fallbacks are exhausted the gate
lets everything through, so the node's own exhaustion rules move the session on.
"""

from __future__ import annotations

from dataclasses import dataclass

from dialogkit.engine.state import SessionConfig
from dialogkit.engine.turn.data import TurnInput
from dialogkit.nlg._base import FallbackKind
from dialogkit.nlu._builtin import STT_LOW_CONFIDENCE
from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.model import Node

DEFAULT_MAX_FALLBACK_RETRIES = 3


@dataclass(slots=True, frozen=True)
class Stopped:
    """The gate's verdict on a message it stops: the fallback and what NLU is said to be."""

    kind: FallbackKind
    nlu: NLUResult


def gate(turn_input: TurnInput, threshold: float, *, exhausted: bool) -> Stopped | None:
    """The fallback of a message the turn must not try to understand, else None."""
    if exhausted:
        return None
    if not turn_input.text.strip():
        return Stopped("no_input", NLUResult(dialogue_act="silence", source="gate"))
    confidence = turn_input.confidence if turn_input.confidence is not None else 0.0
    if confidence <= threshold:
        nlu = NLUResult(intent=STT_LOW_CONFIDENCE, confidence=confidence, source="gate")
        return Stopped("not_understood", nlu)
    return None


def max_retries(node: Node, config: SessionConfig) -> int:
    """Fallbacks in a row the node allows before it stops re-asking: a terminal node that
    declares 0 allows none; else the session's setting, the node's, or the default."""
    declared = node.params.max_fallback_retries
    if node.terminal and declared == 0:
        return 0
    if config.max_fallback_retries is not None:
        return config.max_fallback_retries
    return declared if declared is not None else DEFAULT_MAX_FALLBACK_RETRIES


def exhausted(node: Node, config: SessionConfig, fallback_retries: int) -> bool:
    """Whether the node has used up its fallbacks (then input moves on, whatever it is)."""
    return fallback_retries >= max_retries(node, config)
