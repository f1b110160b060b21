"""Choosing the move: a hand-built node, NLU result and state in, a ``Move`` out; no
engine, no store, and the state is never written."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dialogkit.engine.state import DialogueState
from dialogkit.engine.turn.data import Move, TurnInput, turn_scope
from dialogkit.engine.turn.moves import (
    Choice,
    abandons_confirmation,
    choose_move,
    first_move,
    move_for,
    opening_move,
)
from dialogkit.nlg import _phrases as phrases
from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.model import Transition
from dialogkit.scenario.scenario import Scenario
from tests.engine.turn.parts import node, scenario, state, when

SLOTS = {
    "size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"},
    "note": {"type": "text", "prompt": "Anything else?"},
}
INTENTS = {"cancel": {"description": "Cancel.", "examples": ["cancel it"]}}
ORDER = node(
    "order",
    collect_slots=["size"],
    accept_slots=["note"],
    next_nodes=[when("slots.size", "equals", "large", target="big")],
    default_next="done",
)
GRAPH = scenario(
    [ORDER, node("big"), node("done"), node("bye", terminal=True)],
    slots=SLOTS,
    intents=INTENTS,
    global_transitions=[when("nlu.intent", "equals", "cancel", target="bye", reason="cancel")],
)


def choose(
    graph: Scenario,
    at: str,
    nlu: NLUResult,
    working: DialogueState | None = None,
    *,
    text: str = "",
    exhausted: bool = False,
) -> Choice:
    working = working or state(at)
    before = copy.deepcopy(working)
    choice = choose_move(
        graph,
        graph.node(at),
        nlu,
        working,
        turn_input=TurnInput(text, 0.0),
        user={},
        today=None,
        exhausted=exhausted,
    )
    assert working == before, "choose_move must not write the state"
    return choice


def goto(target: str, reason: str | None = None) -> tuple[str, str, str | None]:
    return ("goto", target, reason)


def summary(choice: Choice) -> tuple[str, str, str | None] | None:
    move = choice.move
    return None if move is None else (move.kind, move.target, move.reason)


def test_a_global_move_wins_and_keeps_only_the_distinctive_values() -> None:
    nlu = NLUResult(intent="cancel", entities={"size": "large", "note": "extra hot"})
    choice = choose(GRAPH, "order", nlu, text="large, extra hot, no, cancel")
    assert summary(choice) == goto("bye", "cancel")
    assert choice.accepted == {"size": "large"}


def test_node_transitions_see_the_values_the_turn_accepts() -> None:
    choice = choose(GRAPH, "order", NLUResult(entities={"size": "large"}), text="large")
    assert summary(choice) == goto("big")
    assert choice.accepted == {"size": "large"}


def test_an_open_value_alone_keeps_a_collecting_node_asking() -> None:
    choice = choose(GRAPH, "order", NLUResult(entities={"note": "extra hot"}), text="extra hot")
    assert summary(choice) == ("stay", "", None)
    assert choice.accepted == {"note": "extra hot"}


def test_nothing_usable_is_no_move_and_accepts_nothing() -> None:
    nlu = NLUResult(entities={"note": "why do you ask"})
    choice = choose(GRAPH, "order", nlu, text="why do you ask?")  # a question is no value
    assert choice == Choice(None)
    assert choice.accepted == {}


def test_an_exhausted_collecting_node_asks_again_instead_of_falling_back() -> None:
    assert summary(choose(GRAPH, "order", NLUResult(), exhausted=True)) == ("stay", "", None)


def test_default_next_once_the_node_has_its_slots() -> None:
    working = state("order", slots={"size": "small"})
    assert summary(choose(GRAPH, "order", NLUResult(), working)) == goto("done")


def test_a_node_without_default_next_moves_on_only_when_exhausted() -> None:
    assert choose(GRAPH, "big", NLUResult()) == Choice(None)
    assert summary(choose(GRAPH, "big", NLUResult(), exhausted=True)) == ("stay", "", None)


def limited(**params: Any) -> Scenario:
    chat = node(
        "chat",
        params={"turn_limit_enabled": True, "turn_limit": 3, "turn_limit_next": "done", **params},
        next_nodes=[when("nlu.intent", "equals", "cancel", action="stay")],
    )
    return scenario([chat, node("done")], intents=INTENTS)


@pytest.mark.parametrize(("node_turns", "limit_reached"), [(1, False), (2, True)])
def test_the_turn_limit_overrides_a_stay(node_turns: int, limit_reached: bool) -> None:
    graph = limited()
    choice = choose(graph, "chat", NLUResult(intent="cancel"), state("chat", node_turns=node_turns))
    expected = goto("done", "turn_limit") if limit_reached else ("stay", "", None)
    assert summary(choice) == expected


def test_a_skill_node_answers_what_no_transition_takes() -> None:
    graph = scenario([node("ask", params={"skill": "search"})])
    assert summary(choose(graph, "ask", NLUResult())) == ("stay", "", None)


def test_a_transition_becomes_a_move_and_an_unknown_action_stays() -> None:
    assert move_for(Transition(target="b", reason="r")) == Move(
        "goto", "b", Transition(target="b", reason="r"), "r"
    )
    assert move_for(Transition(action="help")).kind == "help"
    assert move_for(Transition(action="dance")).kind == "stay"
    assert move_for(Transition()).kind == "stay"


def scope(working: DialogueState) -> dict[str, Any]:
    return turn_scope(working, {}, TurnInput(), NLUResult())


def test_the_first_move_of_a_node_is_a_move_to_another_node_only() -> None:
    graph = scenario(
        [node("a", next_nodes=[{"action": "repeat"}], default_next="b"), node("b")],
    )
    assert first_move(graph, graph.node("a"), scope(state("a"))) is None
    graph = scenario([node("a", default_next="b"), node("b")])
    move = first_move(graph, graph.node("a"), scope(state("a")))
    assert move is not None and (move.kind, move.target) == ("goto", "b")


def test_the_opening_moves_on_unless_the_entry_waits() -> None:
    graph = scenario(
        [
            node("hello", default_next="order"),
            ORDER,
            node("listen", next_nodes=[when("nlu.intent", "equals", "cancel", target="bye")]),
            node("big"),
            node("done"),
            node("bye", terminal=True),
        ],
        slots=SLOTS,
        intents=INTENTS,
    )

    def opening(at: str, **fields: Any) -> str | None:
        working = state(at, **fields)
        move = opening_move(graph, graph.node(at), working.slots, scope(working))
        return None if move is None else move.target

    assert opening("hello") == "order"
    assert opening("order") is None  # a slot to collect
    assert opening("order", slots={"size": "small"}) == "done"
    assert opening("listen") is None  # it tests nlu.*
    assert opening("bye") is None  # terminal


CONFIRM = scenario(
    [
        node(
            "confirm",
            next_nodes=[
                when("nlu.intent", "equals", "affirm", target="done"),
                when("nlu.intent", "equals", "goodbye", target="bye"),
            ],
        ),
        node("done", terminal=True),
        node("bye", terminal=True),
    ],
)


@pytest.mark.parametrize(
    ("text", "last_reply", "asks"),
    [
        ("thanks, bye", "", True),
        ("bye", "", False),
        ("thanks, bye", phrases.confirm_leaving("en"), False),
    ],
)
def test_a_thank_you_goodbye_at_a_confirmation_is_asked_about_once(
    text: str, last_reply: str, asks: bool
) -> None:
    move = Move("goto", "bye")
    working = state("confirm", last_reply=last_reply, slots={"size": "small"})
    nlu = NLUResult(intent="goodbye")
    confirm = CONFIRM.node("confirm")
    assert abandons_confirmation(CONFIRM, confirm, move, nlu, working, text) is asks


def test_a_goodbye_that_stays_or_comes_elsewhere_is_not_asked_about() -> None:
    working = state("confirm")
    goodbye = NLUResult(intent="goodbye")
    confirm = CONFIRM.node("confirm")
    text = "thanks, bye"
    assert not abandons_confirmation(CONFIRM, confirm, Move("stay"), goodbye, working, text)
    affirm = NLUResult(intent="affirm")
    assert not abandons_confirmation(CONFIRM, confirm, Move("goto", "bye"), affirm, working, text)


def test_a_thank_you_goodbye_with_nothing_collected_is_taken() -> None:
    """An offer ("anything else? I can book one now") is a yes/no node too, but leaving it
    before anything was said abandons nothing."""
    working = state("confirm", slots={"size": None})
    goodbye = NLUResult(intent="goodbye")
    confirm = CONFIRM.node("confirm")
    assert not abandons_confirmation(
        CONFIRM, confirm, Move("goto", "bye"), goodbye, working, "thanks, bye"
    )
