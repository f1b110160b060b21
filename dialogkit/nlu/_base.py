"""The NLU provider interface shared by the rule-based and the LLM implementations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.model import Intent, Node, Slot
from dialogkit.scenario.scenario import Scenario
from dialogkit.usage import Usage
from dialogkit.wire import HistoryEntry


@dataclass(frozen=True)
class NLURequest:
    """Everything an NLU provider may use for one utterance.

    ``intents`` and ``slots`` are what the current node can use (the scenario's and the
    built-in intents; the slots the node collects, accepts or tests in its conditions), so
    a provider can never pick an intent or fill a slot the scenario did not declare.
    """

    scenario: Scenario
    node: Node
    text: str
    intents: dict[str, Intent]
    slots: dict[str, Slot]
    expected_slot: str | None = None
    history: list[HistoryEntry] = field(default_factory=list)
    filled_slots: dict[str, Any] = field(default_factory=dict)
    user: dict[str, Any] = field(default_factory=dict)
    model: str = ""
    usage: Usage = field(default_factory=Usage)
    deadline: float | None = None
    """The turn's deadline (a ``time.monotonic()`` instant): a model call ends by then."""


class NLUProvider(Protocol):
    async def understand(self, request: NLURequest) -> NLUResult:
        """Analyse ``request.text``; must not raise (return an empty result instead).

        Entity values must already be typed: pass model output through
        ``dialogkit.nlu._entities.coerce``. The engine drops undeclared intents and slots the
        node cannot use, but does not coerce values a second time.
        """
        ...
