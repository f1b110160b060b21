"""Which terminal nodes mean the user's goal was met: declared by the scenario, else judged.

A scenario marks a terminal node ``"outcome": "success"`` or ``"failure"``. A terminal node
without one is judged from how the graph reaches it, before any session has completed:

- it is a *failure* end when every way into it is a way out of the task: a transition
  that listens for a leave intent (``cancel``, ``goodbye``), one that checks a failed
  skill (``context.last_skill_status``), or a node's turn limit;
- it is *unreachable* for evaluation when it can only be reached after another terminal
  node (the session already completed there: a "farewell" after "goodbye");
- otherwise it is a *success* end.

When that leaves no success end at all (a small-talk graph that only ends when the user
says goodbye), the ends reached only by a leave intent count as success: leaving is what
it is built for.

A conversation is judged where it first completes, so a node reachable only after
completion never counts as success.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from dialogkit.evaluate.routes import Edge, routes_of
from dialogkit.scenario.conditions import iter_conditions
from dialogkit.scenario.scenario import Scenario

Outcome = Literal["success", "failure", "after_completion"]

LEAVE_INTENTS: Final = frozenset({"cancel", "goodbye"})
"""Intents that end a task without doing it (``goodbye`` is built in; ``cancel`` is the
name scenarios give their own cancel intent)."""

SKILL_STATUS: Final = "context.last_skill_status"


@dataclass(frozen=True)
class Outcomes:
    """The outcome of every terminal node of one scenario."""

    of: dict[str, Outcome]
    declared: frozenset[str]

    @property
    def success_ends(self) -> list[str]:
        return [node for node, outcome in self.of.items() if outcome == "success"]

    def is_success(self, node: str) -> bool:
        return self.of.get(node) == "success"


def outcomes_of(scenario: Scenario) -> Outcomes:
    """Declared outcomes, and judged ones for the terminal nodes that declare none."""
    return routes_of(scenario).memo("outcomes", lambda: _outcomes_of(scenario))


def _outcomes_of(scenario: Scenario) -> Outcomes:
    routes = routes_of(scenario)
    reachable = routes.reachable(scenario.entry)
    of: dict[str, Outcome] = {}
    declared = set()
    goodbyes = set()
    for node in scenario.nodes:
        if not node.terminal:
            continue
        if node.outcome is not None:
            of[node.id] = node.outcome
            declared.add(node.id)
        elif node.id not in reachable:
            of[node.id] = "after_completion"
        else:
            ways = [_leaves(e) for e in routes.incoming(node.id) if e.source in reachable]
            leaving = bool(ways) and all(ways)
            of[node.id] = "failure" if leaving else "success"
            if leaving and set(ways) == {"intent"}:
                goodbyes.add(node.id)
    if "success" not in of.values():
        # Nothing else ends the conversation: leaving is how it is meant to end (small talk).
        of |= dict.fromkeys(goodbyes, "success")
    return Outcomes(of, frozenset(declared))


def _leaves(edge: Edge) -> Literal["intent", "skill", "turn_limit"] | None:
    """How taking ``edge`` gives up the task (see the module docstring), or None."""
    if edge.kind == "turn_limit":
        return "turn_limit"
    if edge.transition is None or edge.transition.condition is None:
        return None
    for condition, _ in iter_conditions(edge.transition.condition, ""):
        if condition.field == SKILL_STATUS and _skill_failed(condition.operator, condition.value):
            return "skill"
        if condition.field == "nlu.intent" and _names(condition.value) & LEAVE_INTENTS:
            return "intent"
    return None


def _skill_failed(operator: str, value: Any) -> bool:
    """A condition that holds when the last skill call failed."""
    return (operator == "equals" and value == "error") or (
        operator == "not_equals" and value == "success"
    )


def _names(value: Any) -> set[str]:
    return {str(item) for item in value} if isinstance(value, list) else {str(value)}
