"""What the rule NLU reads at a node of a whole scenario, as the turn would ask it."""

from __future__ import annotations

from typing import Any

from dialogkit import Scenario
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU


def analyse(
    scenario: Scenario,
    node_id: str,
    text: str,
    expected: str | None,
    filled: dict[str, Any] | None = None,
) -> NLUResult:
    """What the rules NLU reads in ``text`` at ``node_id`` asking for ``expected``, with the
    intents and slots the scenario's index gives that node."""
    node = scenario.node(node_id)
    return RuleNLU().analyse(
        NLURequest(
            scenario=scenario,
            node=node,
            text=text,
            intents=scenario.index.intents,
            slots=scenario.index.node(node.id).slots,
            expected_slot=expected,
            filled_slots=filled or {},
        )
    )
