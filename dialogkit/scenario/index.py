"""What the engine derives from a scenario's graph, computed once per parsed scenario.

A turn needs, for the node it is at: the slots it may fill or test, the intents its
conditions (and the global ones) can use, and whether the node waits for the user. None of
that changes while the scenario lives, so it is computed here once, when the scenario is
first used, and shared by every session that runs it, instead of on every turn.

Intents need no registry: an intent named in a condition (``nlu.intent`` equals / in) is
usable even when ``intents`` does not declare it. It is then *implied*: its description is
taken from the nodes its transitions lead to, so language-model NLU can choose it and the
rule NLU can match it (see ``dialogkit.nlu._rules``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.scenario.conditions import iter_conditions
from dialogkit.scenario.model import Condition, Intent, Node, ScenarioDocument, Slot, Transition
from dialogkit.scenario.templates import placeholders, variants

NAMING_OPERATORS: Final = frozenset({"equals", "in"})
"""Operators by which a condition names the intents it accepts; any other operator on
``nlu.intent`` (not_equals, exists, matches...) can be decided by every intent."""

LISTING_OPERATORS: Final = NAMING_OPERATORS | {"not_equals", "not_in"}
"""Operators whose value lists intent names (for the intents a scenario can produce)."""

INPUT_ROOTS: Final = ("nlu.", "input.")


@dataclass(frozen=True)
class NodeFacts:
    """The per-node data a turn reads (never mutate: it is shared by every session)."""

    slots: dict[str, Slot]
    """Declared slots the node collects, accepts, or tests in its or global conditions."""
    intents: frozenset[str] | None
    """Intents its own and the global conditions name; None when any intent can matter."""
    own_intents: frozenset[str]
    """Intents its own transitions test by name with any operator: a turn asks whether the
    utterance is one of them (a reply to this node, not a new value)."""
    waits_for_input: bool
    """It answers a user's turn whatever its slots: it says ``wait_for_input: true``, or its
    own transitions test ``nlu.*`` or ``input.*`` (the bot-first opening stops there)."""


class ScenarioIndex:
    """Per-node facts and the usable intents of one scenario (built by ``Scenario.index``)."""

    def __init__(self, document: ScenarioDocument) -> None:
        self.document = document
        global_transitions = document.graph.global_transitions
        self.named_intents: dict[str, list[str]] = {}
        """Every intent named in a condition -> the nodes its transitions lead to."""
        changers: dict[str, set[str]] = {}
        for transition in [
            *global_transitions,
            *(t for node in document.graph.nodes for t in node.next_nodes),
        ]:
            for name in _named_intents(transition)[0]:
                targets = self.named_intents.setdefault(name, [])
                if transition.target and transition.target not in targets:
                    targets.append(transition.target)
                if len(transition.clear_slots) == 1:
                    changers.setdefault(transition.clear_slots[0], set()).add(name)
        self.changers: dict[str, frozenset[str]] = {
            slot: frozenset(names) for slot, names in changers.items()
        }
        """Slot -> the intents a transition that clears that slot alone names: what the
        scenario means by "change the time" (``change_time`` clearing ``visit_time``),
        whatever its name. A transition that clears several (a new mission, a restart) is
        no change of one of them."""
        after_no = set(self.named_intents.get("deny", ()))
        self.asks_what_to_change: frozenset[str] = frozenset(
            node.id
            for node in document.graph.nodes
            if node.id in after_no and not _reads_back(node) and _changes_several(node, changers)
        )
        """Nodes a "no" leads to that offer to change one of several values and read none
        back ("which one should I change?"): there, naming a value is asking to change it
        ("苗字のところです"). A read-back a "no, leave it" returns to is not one."""
        terminal = {node.id for node in document.graph.nodes if node.terminal}
        self.ending_intents: frozenset[str] = frozenset(
            name
            for name, targets in self.named_intents.items()
            if targets and all(target in terminal for target in targets)
        )
        """Intents every transition of which ends the conversation (a cancel, a goodbye, a
        final yes): a wrong one cannot be taken back by the next turn."""
        self.intents: dict[str, Intent] = self._intents()
        """Every intent the scenario can produce (shared: never mutate)."""
        global_names, global_any = _intents_of(global_transitions)
        self._nodes = {
            node.id: self._facts(node, global_names, global_any) for node in document.graph.nodes
        }

    def node(self, node_id: str) -> NodeFacts:
        """The facts of ``node_id`` (a KeyError for an unknown node, as ``Scenario.node``)."""
        return self._nodes[node_id]

    @property
    def implied_intents(self) -> list[str]:
        """Intents named in conditions that neither ``intents`` nor the built-ins declare."""
        declared = self.document.intents
        return [n for n in self.named_intents if n not in declared and n not in BUILTIN_INTENTS]

    def _intents(self) -> dict[str, Intent]:
        """Declared intents, then implied ones, then the built-ins not replaced."""
        own = self.document.intents
        nodes = {node.id: node for node in self.document.graph.nodes}
        implied = {
            name: Intent(
                description=" ".join(
                    nodes[target].description
                    for target in self.named_intents[name]
                    if target in nodes
                ).strip()
            )
            for name in self.implied_intents
        }
        builtin = {name: i for name, i in BUILTIN_INTENTS.items() if name not in own}
        return {**own, **implied, **builtin}

    def _facts(self, node: Node, global_names: set[str], global_any: bool) -> NodeFacts:
        names, any_intent = _intents_of(node.next_nodes)
        transitions = [*node.next_nodes, *self.document.graph.global_transitions]
        slot_names = [*node.collect_slots, *node.accept_slots]
        tests_input = False
        for transition in transitions:
            for condition, _ in iter_conditions(transition.condition, ""):
                parts = condition.field.split(".")
                if parts[:2] == ["nlu", "entities"] and len(parts) > 2:
                    slot_names.append(parts[2])
        for transition in node.next_nodes:
            for condition, _ in iter_conditions(transition.condition, ""):
                tests_input = tests_input or condition.field.startswith(INPUT_ROOTS)
        declared = self.document.slots
        slots = {name: declared[name] for name in dict.fromkeys(slot_names) if name in declared}
        return NodeFacts(
            slots=slots,
            intents=None if any_intent or global_any else frozenset(names | global_names),
            own_intents=frozenset(_tested_intents(node.next_nodes)),
            waits_for_input=tests_input or _says_wait(node),
        )


def _changes_several(node: Node, changers: dict[str, set[str]]) -> bool:
    """Whether the node's own transitions name the changes of two slots or more."""
    tested = _tested_intents(node.next_nodes)
    return sum(bool(names & tested) for names in changers.values()) >= 2


def _reads_back(node: Node) -> bool:
    """Whether a response of the node says a slot's value."""
    return any(
        path.startswith("slots.")
        for template in node.responses.values()
        for text in variants(template)
        for path in placeholders(text)
    )


def _says_wait(node: Node) -> bool:
    """``wait_for_input: true`` written in the graph (the default alone does not say it)."""
    return "wait_for_input" in node.model_fields_set and node.wait_for_input


def _intents_of(transitions: Iterable[Transition]) -> tuple[set[str], bool]:
    """The intents ``transitions`` name, and whether one tests the intent another way."""
    names: set[str] = set()
    any_intent = False
    for transition in transitions:
        named, other = _named_intents(transition)
        names.update(named)
        any_intent = any_intent or other
    return names, any_intent


def _named_intents(transition: Transition) -> tuple[list[str], bool]:
    """The intents a transition's conditions name, and whether one of them can be decided by
    any intent (an operator other than equals / in, or a test under ``not``)."""
    named: list[str] = []
    other = False
    for condition, path in iter_conditions(transition.condition, ""):
        if condition.field != "nlu.intent":
            continue
        if condition.operator in LISTING_OPERATORS:
            named.extend(_values(condition))
        if condition.operator not in NAMING_OPERATORS or "not" in path.split("."):
            other = True
    return named, other


def _tested_intents(transitions: Iterable[Transition]) -> set[str]:
    names: set[str] = set()
    for transition in transitions:
        for condition, _ in iter_conditions(transition.condition, ""):
            if condition.field == "nlu.intent":
                value = condition.value
                names.update(value if isinstance(value, list) else [str(value)])
    return names


def _values(condition: Condition) -> list[str]:
    values = condition.value if isinstance(condition.value, list) else [condition.value]
    return [value for value in values if isinstance(value, str) and value]
