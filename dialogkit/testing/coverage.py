"""Graph coverage of scripted conversations: which nodes and edges of a scenario they used.

Edges are the scenario's *static* ones, the moves a reader of the JSON can see: every
distinct ``(node, target)`` of ``next_nodes``, ``default_next`` and ``turn_limit_next``, and
one ``("*", target)`` per global-transition target, because a global transition is a single
line of the graph however many nodes it fires from. Moves made by actions (``back``,
``restart``) have no static edge and are not counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dialogkit.scenario.scenario import Scenario

ANY_NODE = "*"
"""The source of a global transition's edge."""

Edge = tuple[str, str]


def static_edges(scenario: Scenario) -> set[Edge]:
    """Every edge the scenario declares (see the module docstring)."""
    graph = scenario.document.graph
    edges: set[Edge] = set()
    for node in graph.nodes:
        targets = [t.target for t in node.next_nodes]
        targets += [node.default_next, node.params.turn_limit_next]
        edges.update((node.id, target) for target in targets if target is not None)
    edges.update((ANY_NODE, t.target) for t in graph.global_transitions if t.target is not None)
    return edges


def taken_edges(scenario: Scenario, moves: Iterable[Edge]) -> set[Edge]:
    """The static edges that a session's recorded moves ``(source, target)`` used.

    A move that is a node's own edge counts as that edge; otherwise, when its target is a
    global-transition target, it counts as the global edge. The state does not record which
    transition fired, so a move that both a node edge and a global transition could explain
    is credited to the node edge.
    """
    declared = static_edges(scenario)
    global_targets = {target for source, target in declared if source == ANY_NODE}
    taken: set[Edge] = set()
    for source, target in moves:
        if (source, target) in declared:
            taken.add((source, target))
        elif target in global_targets:
            taken.add((ANY_NODE, target))
    return taken


@dataclass(frozen=True)
class Coverage:
    """Nodes and edges of one scenario used by a set of conversations."""

    nodes: frozenset[str]
    visited_nodes: frozenset[str]
    edges: frozenset[Edge]
    taken: frozenset[Edge]

    @classmethod
    def of(cls, scenario: Scenario, visits: Iterable[str], moves: Iterable[Edge]) -> Coverage:
        nodes = frozenset(node.id for node in scenario.document.graph.nodes)
        return cls(
            nodes=nodes,
            visited_nodes=frozenset(visits) & nodes,
            edges=frozenset(static_edges(scenario)),
            taken=frozenset(taken_edges(scenario, moves)),
        )

    @property
    def node_ratio(self) -> float:
        return _ratio(len(self.visited_nodes), len(self.nodes))

    @property
    def transition_ratio(self) -> float:
        return _ratio(len(self.taken), len(self.edges))

    @property
    def unvisited_nodes(self) -> list[str]:
        return sorted(self.nodes - self.visited_nodes)

    @property
    def untaken_edges(self) -> list[Edge]:
        return sorted(self.edges - self.taken)


def _ratio(part: int, whole: int) -> float:
    """An empty whole is fully covered: a graph without edges has nothing left to take."""
    return part / whole if whole else 1.0
