"""The scenario graph as a simulated user plans over it: which moves lead towards a goal node.

Edges come from a node's ``next_nodes`` and ``default_next``, its turn limit, and the global
transitions (which apply at every node); a ``back`` transition leads to every node that has
a way in. A terminal node ends the session, so routes never
pass *through* one. Distances are counted in edges; a node from which the goal cannot be
reached has no distance.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from dialogkit.scenario.model import Transition
from dialogkit.scenario.scenario import Scenario

T = TypeVar("T")

EdgeKind = Literal["node", "global", "default", "turn_limit"]


@dataclass(frozen=True)
class Edge:
    """One way out of a node: through a transition, or by ``default_next`` (no transition)."""

    source: str
    target: str
    transition: Transition | None = None
    kind: EdgeKind = "node"

    def sets_slots(self) -> set[str]:
        """Slots the transition writes (``set: {"slots.NAME": ...}``)."""
        if self.transition is None:
            return set()
        return {
            key.removeprefix("slots.")
            for key in self.transition.set_values
            if key.startswith("slots.")
        }


class Routes:
    """Edges and distances of one scenario; build with ``routes_of`` (cached per scenario)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        graph = scenario.document.graph
        known = {node.id for node in scenario.nodes}
        self.edges: dict[str, list[Edge]] = {}
        for node in scenario.nodes:
            edges = [Edge(node.id, t.target, t) for t in node.next_nodes if t.target in known]
            edges += [
                Edge(node.id, t.target, t, "global")
                for t in graph.global_transitions
                if t.target in known
            ]
            limit = node.params.turn_limit_next
            if limit is not None and limit in known:
                edges.append(Edge(node.id, limit, kind="turn_limit"))
            if node.default_next is not None and node.default_next in known:
                edges.append(Edge(node.id, node.default_next, kind="default"))
            self.edges[node.id] = [] if node.terminal else edges
        self._add_back_edges()
        self._distances: dict[tuple[str, ...], dict[str, int]] = {}
        self._facts: dict[str, Any] = {}

    def _add_back_edges(self) -> None:
        """A ``back`` transition returns to the node the session came from: any node with a
        way in (an FAQ reached by a global transition goes back to wherever it was asked)."""
        sources: dict[str, list[str]] = {}
        for edges in self.edges.values():
            for edge in edges:
                sources.setdefault(edge.target, []).append(edge.source)
        for node in self.scenario.nodes:
            if node.terminal:
                continue
            for transition in node.next_nodes:
                if transition.action == "back" and transition.target is None:
                    self.edges[node.id] += [
                        Edge(node.id, source, transition)
                        for source in dict.fromkeys(sources.get(node.id, []))
                        if source != node.id
                    ]

    def memo(self, name: str, compute: Callable[[], T]) -> T:
        """A fact about the graph (checklist slots, outcomes), computed once per scenario:
        simulated users ask for them on every turn."""
        if name not in self._facts:
            self._facts[name] = compute()
        found: T = self._facts[name]
        return found

    def distances_to_any(self, goals: tuple[str, ...]) -> dict[str, int]:
        """Edges from each node to the nearest of ``goals`` (absent: none reachable)."""
        cached = self._distances.get(goals)
        if cached is not None:
            return cached
        incoming: dict[str, list[str]] = {}
        for edges in self.edges.values():
            for edge in edges:
                incoming.setdefault(edge.target, []).append(edge.source)
        distances = dict.fromkeys(goals, 0)
        queue = deque(goals)
        while queue:
            current = queue.popleft()
            for source in incoming.get(current, []):
                if source not in distances:
                    distances[source] = distances[current] + 1
                    queue.append(source)
        self._distances[goals] = distances
        return distances

    def reachable(self, start: str) -> dict[str, int]:
        """Edges from ``start`` to each node it can reach."""
        distances = {start: 0}
        queue = deque([start])
        while queue:
            current = queue.popleft()
            for edge in self.edges.get(current, []):
                if edge.target not in distances:
                    distances[edge.target] = distances[current] + 1
                    queue.append(edge.target)
        return distances

    def incoming(self, target: str) -> list[Edge]:
        """Edges into ``target`` from nodes a conversation can be at (not terminal ones)."""
        return [e for edges in self.edges.values() for e in edges if e.target == target]


_CACHE_SIZE = 32
_ROUTES: dict[str, Routes] = {}


def routes_of(scenario: Scenario) -> Routes:
    """The routes of ``scenario``, computed once per scenario content."""
    found = _ROUTES.get(scenario.fingerprint)
    if found is None:
        if len(_ROUTES) >= _CACHE_SIZE:
            _ROUTES.pop(next(iter(_ROUTES)))
        found = _ROUTES[scenario.fingerprint] = Routes(scenario)
    return found
