"""The plain values a turn's steps pass to each other.

Nothing here crosses a boundary, so nothing here is a pydantic model: these are slotted
dataclasses that cost an allocation, not a validation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from dialogkit.engine.state import DialogueState, SessionConfig
from dialogkit.nlg._base import FallbackKind, NLGProvider
from dialogkit.nlu._base import NLUProvider
from dialogkit.nlu._result import NLUResult
from dialogkit.sanitize import DEFAULT_MAX_TEXT_CHARS
from dialogkit.scenario.model import Node, Transition
from dialogkit.scenario.scenario import Scenario
from dialogkit.skills._base import SkillRunner

MoveKind = Literal["goto", "stay", "repeat", "help", "back", "restart"]


@dataclass(slots=True, frozen=True)
class TurnInput:
    """What the user sent. The bot-first opening has no input: its confidence is None, which
    is also what keeps an opening out of the recent history as a user message."""

    text: str = ""
    confidence: float | None = None

    @property
    def sent(self) -> bool:
        """Whether a user message came in (every message has a confidence, 0.0 if omitted)."""
        return self.confidence is not None

    def scope(self) -> dict[str, Any]:
        """The ``input`` root of a turn's scope."""
        return {"text": self.text, "confidence": self.confidence}


@dataclass(slots=True)
class Move:
    """Where a turn goes: a node to enter, or an action at the current node."""

    kind: MoveKind
    target: str = ""
    transition: Transition | None = None
    reason: str | None = None


@dataclass(slots=True)
class TurnOutcome:
    """What a turn produced: its reply, the fallback it gave (if any), and what came in and
    was understood (the transcript row's facts). The opening has no input."""

    reply: str
    fallback: FallbackKind | None = None
    nlu: NLUResult = field(default_factory=NLUResult)
    turn_input: TurnInput = field(default_factory=TurnInput)


@dataclass(slots=True, frozen=True)
class Runtime:
    """What a turn runs with, fixed for its duration: the scenario, the session's settings,
    the providers and the limits."""

    scenario: Scenario
    config: SessionConfig
    nlu_provider: NLUProvider
    nlg_provider: NLGProvider
    skills: SkillRunner
    nlu_model: str = ""
    nlg_model: str = ""
    deadline: float | None = None
    """When the turn must have its reply (``time.monotonic()``); providers and skills stop
    by then and the turn answers with what it has (templates, fallbacks)."""
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS


@dataclass(slots=True, frozen=True)
class Moment:
    """Where a turn stands once it knows what was said: the steps that act (entering nodes,
    replies, skills) read these four, and write only to ``state``."""

    runtime: Runtime
    state: DialogueState
    turn_input: TurnInput
    nlu: NLUResult

    @property
    def scenario(self) -> Scenario:
        return self.runtime.scenario

    @property
    def node(self) -> Node:
        """The node the session is at now (entering a node moves it)."""
        return self.runtime.scenario.node(self.state.current_node)

    def scope(self) -> dict[str, Any]:
        """The roots that conditions, templates and input maps read from."""
        return turn_scope(self.state, self.runtime.config.user, self.turn_input, self.nlu)


def turn_scope(
    state: DialogueState,
    user: dict[str, Any],
    turn_input: TurnInput,
    nlu: NLUResult,
    slots: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The roots that conditions, templates and input maps read from; ``slots`` stands in
    for the state's slots while a move is being chosen (values not yet accepted)."""
    return {
        "nlu": nlu.scope(),
        "slots": state.slots if slots is None else slots,
        "context": state.context,
        "user": user,
        "input": turn_input.scope(),
        "turn": {
            "node": state.current_node,
            "count": state.turn_count,
            "node_turns": state.node_turns,
            "fallbacks": state.fallback_retries,
        },
    }
