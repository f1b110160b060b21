"""The bot-first opening takes the entry's first-turn transition unless the entry waits."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine
from tests.helpers import make_graph

B = {"id": "b", "description": "B.", "responses": {"default": "Shall we start?"}}
C = {"id": "c", "description": "C.", "responses": {"default": "Plan C."}}
B["default_next"] = C["default_next"] = "end"
END = {"id": "end", "description": "End.", "terminal": True}


def opening(engine: Engine, entry: dict[str, Any], **top: Any) -> Any:
    data = make_graph([entry, B, C, END], **top)
    session = engine.start(data, bot_first=True)
    return session.initial_reply, session


def test_the_greeting_is_the_whole_reply_and_the_session_waits_where_it_landed(
    engine: Engine,
) -> None:
    hello = {"id": "hello", "description": "Hi.", "responses": {"default": "Welcome aboard."}}
    reply, session = opening(engine, {**hello, "default_next": "b"})
    assert reply.response == "Welcome aboard."  # nothing of b's is appended
    assert (reply.current_node, reply.turn_count) == ("b", 1)
    assert session.path() == ["hello", "b"]


def test_the_first_transition_that_holds_wins_over_default_next(engine: Engine) -> None:
    hello = {
        "id": "hello",
        "description": "Hi.",
        "responses": {"default": "Hi."},
        "next_nodes": [
            {"condition": {"field": "context.vip", "operator": "exists"}, "target": "b"},
            {"condition": {"field": "turn.count", "operator": "equals", "value": 0}, "target": "c"},
        ],
        "default_next": "b",
    }
    reply, _ = opening(engine, hello)
    assert (reply.response, reply.current_node) == ("Hi.", "c")


@pytest.mark.parametrize(
    "waiting",
    [
        {"wait_for_input": True, "default_next": "b"},
        {"collect_slots": ["name"], "default_next": "b"},
        {
            "next_nodes": [
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": "affirm"},
                    "target": "b",
                }
            ],
            "default_next": "c",
        },
        {
            "next_nodes": [
                {"condition": {"field": "input.text", "operator": "exists"}, "target": "b"}
            ],
            "default_next": "c",
        },
        {"next_nodes": [{"action": "stay"}], "default_next": "b"},
    ],
    ids=["wait_for_input", "missing-slot", "tests-nlu", "tests-input", "first-is-an-action"],
)
def test_an_entry_that_waits_for_input_keeps_the_session(
    engine: Engine, waiting: dict[str, Any]
) -> None:
    hello = {"id": "hello", "description": "Hi.", "responses": {"default": "Hi."}, **waiting}
    slots = {"name": {"type": "text", "prompt": "Your name?"}}
    reply, _ = opening(engine, hello, slots=slots)
    assert (reply.current_node, reply.turn_count) == ("hello", 1)


def test_without_bot_first_nothing_moves(engine: Engine) -> None:
    hello = {"id": "hello", "description": "Hi.", "default_next": "b"}
    session = engine.start(make_graph([hello, B, C, END]), bot_first=False)
    assert (session.initial_reply.current_node, session.initial_reply.turn_count) == ("hello", 0)
