"""An answer node that does not wait and goes ``back`` returns to where the question was
asked, in the same turn: at the greeting, mid-way or at the read-back, that node asks its
question again, and no slot is lost. Authors of every blind set built a routing node and a
"booking started" flag for this; one transition does it."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.scenario.validate import validate_document
from tests.helpers import make_graph


def on(intent: str, target: str) -> dict[str, Any]:
    return {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
        "target": target,
    }


def escape_room() -> Scenario:
    nodes: list[dict[str, Any]] = [
        {
            "id": "welcome",
            "description": "Greet.",
            "responses": {"default": "Hi! Book a game, or ask me anything."},
            "next_nodes": [on("book", "ask_day")],
        },
        *(
            {
                "id": f"ask_{slot}",
                "description": "Ask.",
                "collect_slots": [slot],
                "default_next": then,
            }
            for slot, then in (("day", "ask_people"), ("people", "confirm"))
        ),
        {
            "id": "confirm",
            "description": "Read back.",
            "responses": {"default": "{people} players on {day}, right?"},
            "next_nodes": [on("affirm", "done")],
        },
        {
            "id": "faq_hours",
            "description": "Answer: opening hours.",
            "responses": {"default": "We're open 10 to 10."},
            "wait_for_input": False,
            "next_nodes": [{"action": "back"}],
        },
        {"id": "done", "description": "Booked.", "terminal": True},
    ]
    slots = {
        "day": {"type": "date", "prompt": "Which day?"},
        "people": {"type": "integer", "unit": "people", "prompt": "How many players?"},
    }
    intents = {
        "book": {"examples": ["I'd like to book a game"]},
        "ask_hours": {"examples": ["What are your opening hours?", "When are you open?"]},
    }
    document = make_graph(
        nodes,
        slots=slots,
        intents=intents,
        global_transitions=[on("ask_hours", "faq_hours")],
        bot_first=True,
    )
    return Scenario.from_dict(document)


@pytest.mark.parametrize(
    ("before", "node", "question"),
    [
        ([], "welcome", "Hi! Book a game, or ask me anything."),
        (["I'd like to book a game"], "ask_day", "Which day?"),
        (["I'd like to book a game", "November 30"], "ask_people", "How many players?"),
        (["I'd like to book a game", "November 30", "4 players"], "confirm", "4 players on"),
    ],
)
def test_an_answer_that_goes_back_asks_the_question_it_interrupted(
    engine: Engine, before: list[str], node: str, question: str
) -> None:
    session = engine.start(escape_room(), user={"date_time": "2026-11-25T10:00:00"})
    for text in before:
        session.send(text)
    slots = session.info().slots
    reply = session.send("When are you open?")
    assert reply.current_node == node
    assert reply.response.startswith("We're open 10 to 10. ")
    assert question in reply.response
    assert session.info().slots == slots


def test_the_greeting_it_returns_to_still_takes_the_request(engine: Engine) -> None:
    session = engine.start(escape_room(), user={"date_time": "2026-11-25T10:00:00"})
    session.send("When are you open?")
    assert session.send("I'd like to book a game").current_node == "ask_day"


def test_an_answer_that_goes_back_passes_on_for_the_validator() -> None:
    _, problems = validate_document(escape_room().to_dict())
    assert [p.path for p in problems if p.path.endswith("wait_for_input")] == []
