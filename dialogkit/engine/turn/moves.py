"""Choosing the move: pure functions from a node, what was understood and the state to a
``Move``. Nothing here calls a provider, a skill or a store, or writes to the state.

The order, first match wins: distinctive slot values are accepted first, then the global
transitions; then open slot values and the node's ``next_nodes`` in order; the node's turn
limit (when nothing matched but a stay); ``default_next``; a skill node keeps the turn;
else there is no move and the turn falls back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from dialogkit.engine.state import DialogueState
from dialogkit.engine.turn.data import Move, TurnInput, turn_scope
from dialogkit.engine.turn.slots import accept_values, missing_slots
from dialogkit.nlg import _phrases as phrases
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._discipline import said_wrong
from dialogkit.nlu._morphology import keyword_in, normalize
from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.conditions import CompiledConditions
from dialogkit.scenario.model import Node, Transition
from dialogkit.scenario.scenario import Scenario

ACTIONS = frozenset({"stay", "repeat", "help", "back", "restart"})


@dataclass(slots=True, frozen=True)
class Choice:
    """The move a turn takes (None: it falls back) and the slot values it accepts with it
    (none without a move: a turn that falls back leaves every slot as it was)."""

    move: Move | None
    accepted: dict[str, Any] = field(default_factory=dict)


def choose_move(
    scenario: Scenario,
    node: Node,
    nlu: NLUResult,
    state: DialogueState,
    *,
    turn_input: TurnInput,
    user: dict[str, Any],
    today: date | None,
    exhausted: bool,
) -> Choice:
    """The move of a user message at ``node`` and the slot values it accepts.

    ``exhausted``: the node has used up its fallbacks, so it moves on (or re-asks) rather
    than fall back again. ``today`` is the user's date (birth dates are checked against it).
    """

    def accepted_now(slots: Mapping[str, Any], distinctive_only: bool) -> dict[str, Any]:
        return accept_values(
            scenario,
            node,
            nlu,
            slots,
            state.context,
            text=turn_input.text,
            today=today,
            distinctive_only=distinctive_only,
        )

    def scope(slots: dict[str, Any], accepted: Mapping[str, Any]) -> dict[str, Any]:
        heard = as_accepted(node, nlu, accepted)
        return turn_scope(state, user, turn_input, heard, slots)

    accepted = accepted_now(state.slots, True)
    slots = {**state.slots, **accepted} if accepted else state.slots
    move = match(scenario, scenario.document.graph.global_transitions, scope(slots, accepted))
    if move is None:
        again = ask_again(scenario, node, turn_input.text, state.slots, accepted, nlu)
        if again is not None:
            return again
        more = accepted_now(slots, False)
        if more:
            accepted = {**accepted, **more}
            slots = {**slots, **more}
        move = match(scenario, node.next_nodes, scope(slots, accepted))
        if move is None or move.kind == "stay":
            move = turn_limit(node, state.node_turns) or move
    if move is None:
        changed = any(
            state.slots.get(name) not in (None, "", value) for name, value in accepted.items()
        )
        move = default_move(node, slots, accepted, exhausted=exhausted, changed=changed)
    if move is None and node.params.skill:
        move = Move("stay")  # a skill node answers what no transition takes
    return Choice(move, accepted) if move is not None else Choice(None)


def as_accepted(node: Node, nlu: NLUResult, accepted: Mapping[str, Any]) -> NLUResult:
    """What conditions read as ``nlu.entities``: of the slots the node collects or accepts,
    only the values the turn accepted. A value the engine refused ("오늘" in "오늘 날씨 진짜
    춥네요", a date in a question) moves nothing either, so "nlu.entities.date exists" at a
    greeting does not start a booking that no slot holds. Entities of other slots, which
    only conditions read, stay as heard."""
    if not nlu.entities:
        return nlu
    handled = (*node.collect_slots, *node.accept_slots)
    entities = {
        name: accepted.get(name, value)
        for name, value in nlu.entities.items()
        if name not in handled or name in accepted
    }
    return nlu if entities == nlu.entities else replace(nlu, entities=entities)


def ask_again(
    scenario: Scenario,
    node: Node,
    text: str,
    held: Mapping[str, Any],
    accepted: Mapping[str, Any],
    nlu: NLUResult,
) -> Choice | None:
    """At a read-back (a node that accepts a slot it does not collect), "the name is wrong"
    without a new name (none accepted, none heard but the one it ``held``: "세 시엔 안
    되겠네요") clears that slot and goes to the node that asks for it; every other slot keeps
    its value, so the nodes in between pass on and the read-back comes again.
    So does "I'd like to change the time", unless the NLU heard one of the node's own
    intents other than a no (the scenario's own "change the time" decides where it goes)."""
    own = scenario.index.node(node.id).own_intents
    changes = nlu.intent is None or nlu.intent == "deny" or nlu.intent not in own
    readable = {
        name: slot
        for name in node.accept_slots
        if name not in node.collect_slots
        and held.get(name) not in (None, "")
        and (slot := scenario.slot(name)) is not None
    }
    heard = {**nlu.entities, **accepted}
    for name in said_wrong(
        text, readable, scenario.language, changes=changes, held=held, heard=heard
    ):
        collector = next((n for n in scenario.nodes if name in n.collect_slots), None)
        if collector is not None:
            return Choice(Move("goto", collector.id), {**accepted, name: None})
    return None


def match(
    scenario: Scenario, transitions: Sequence[Transition], scope: Mapping[str, Any]
) -> Move | None:
    """The move of the first transition whose condition holds in ``scope``."""
    conditions = scenario.derived(compiled_conditions)
    for transition in transitions:
        if conditions.holds(transition.condition, scope):
            return move_for(transition)
    return None


def move_for(transition: Transition) -> Move:
    """A transition as a move: to its target, else its action (an unknown one stays)."""
    if transition.target is not None:
        return Move("goto", transition.target, transition, transition.reason)
    kind = transition.action or "stay"
    if kind not in ACTIONS:
        kind = "stay"
    return Move(kind, "", transition, transition.reason)  # type: ignore[arg-type]


def turn_limit(node: Node, node_turns: int) -> Move | None:
    """The move of a node whose turn limit this turn reaches, if it declares one."""
    params = node.params
    if not params.turn_limit_enabled or params.turn_limit is None:
        return None
    if node_turns + 1 < params.turn_limit:
        return None
    target = params.turn_limit_next or node.default_next
    return None if target is None else Move("goto", target, None, "turn_limit")


def default_move(
    node: Node,
    slots: Mapping[str, Any],
    accepted: Mapping[str, Any],
    *,
    exhausted: bool,
    changed: bool = False,
) -> Move | None:
    """What happens when no transition matched: default_next, or re-ask, or nothing.

    ``changed``: the turn replaced the value of a filled slot the node accepts. That answer
    was used even when no transition names it ("no, make it 5 pm instead" at a read-back whose only
    transitions are yes and no): the node stays, so the value is kept and the node speaks
    again with it (a read-back reads the corrected values back), rather than fall back and
    lose it."""
    if node.collect_slots and missing_slots(node, slots):
        return Move("stay") if accepted or exhausted else None
    if node.default_next is not None:
        return Move("goto", node.default_next)
    return Move("stay") if exhausted or changed else None


def first_move(
    scenario: Scenario, node: Node, scope: Mapping[str, Any], *, back: bool = False
) -> Move | None:
    """The first of the node's transitions that holds now, else its ``default_next``; only
    a move to another node counts (an action keeps the session where it is), or with
    ``back`` a return to the node the conversation came from."""
    move = match(scenario, node.next_nodes, scope)
    if move is None and node.default_next is not None:
        move = Move("goto", node.default_next)
    leaves = move is not None and (move.kind == "goto" or (back and move.kind == "back"))
    return move if leaves else None


def pass_on(
    scenario: Scenario, node: Node, scope: Mapping[str, Any], *, slots_complete: bool
) -> Move | None:
    """The move of a node that does not wait (or has nothing left to ask): to another node,
    or ``back`` to the one the conversation came from (an answer that returns to where the
    question was asked)."""
    if node.terminal or (node.wait_for_input and not slots_complete):
        return None
    return first_move(scenario, node, scope, back=True)


def opening_move(
    scenario: Scenario, node: Node, slots: Mapping[str, Any], scope: Mapping[str, Any]
) -> Move | None:
    """The entry's transitions evaluated as for a turn with no input (``nlu.*`` empty): the
    first that holds, else ``default_next``; none while the entry still waits for input (a
    missing slot to collect, transitions that test ``nlu.*`` / ``input.*``, or an explicit
    ``wait_for_input: true``) or is terminal."""
    facts = scenario.index.node(node.id)
    if node.terminal or facts.waits_for_input or missing_slots(node, slots):
        return None
    return first_move(scenario, node, scope)


def abandons_confirmation(
    scenario: Scenario, node: Node, move: Move, nlu: NLUResult, state: DialogueState, text: str
) -> bool:
    """Whether "감사합니다, 수고하세요" / "thanks, bye" at a yes/no confirmation would end the
    session: a thank-you with a goodbye may close a finished task or abandon this one, so
    the engine asks once before cancelling (the next goodbye ends the session). With no slot
    filled there is nothing to lose ("is there anything else? I can book one now": "that's
    all, thanks, bye"), and the goodbye is taken."""
    if move.kind != "goto" or nlu.intent != "goodbye" or node.collect_slots or node.terminal:
        return False
    if not any(value is not None for value in state.slots.values()):
        return False
    own_intents = scenario.index.node(node.id).own_intents
    if not scenario.node(move.target).terminal or "affirm" not in own_intents:
        return False
    if state.last_reply == phrases.confirm_leaving(scenario.language):
        return False
    thanks = BUILTIN_INTENTS["thanks"].keywords
    said = normalize(text)
    return any(keyword_in(said, normalize(keyword)) for keyword in thanks)


def compiled_conditions(scenario: Scenario) -> CompiledConditions:
    """The scenario's transition conditions, compiled once (``Scenario.derived``)."""
    return CompiledConditions(scenario.document)
