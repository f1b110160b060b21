"""Slot-collecting, skill and pass-through nodes."""

from __future__ import annotations

from typing import Any

from dialogkit import Engine, Session
from dialogkit.engine.providers import OfflineRouter
from dialogkit.skills._base import SkillOutcome
from tests.helpers import RecordingSkills, make_graph

SLOTS: dict[str, Any] = {
    "name": {"type": "text", "prompt": "What is your name?"},
    "age": {"type": "integer", "prompt": "How old are you?", "validation": {"min": 0, "max": 130}},
    "email": {"type": "email", "prompt": "Your email?"},
}
FORM = {
    "id": "form",
    "description": "Collect details.",
    "collect_slots": ["name", "age", "email"],
    "responses": {"default": "Let's sign you up."},
    "default_next": "thanks",
}
THANKS = {
    "id": "thanks",
    "description": "Thank.",
    "terminal": True,
    "responses": {"default": "Thanks {name}, {age}, {email}."},
}


def start(engine: Engine, nodes: list[dict[str, Any]], **options: Any) -> Session:
    return engine.start(make_graph(nodes, slots=SLOTS), bot_first=True, **options)


def test_collecting_node_asks_each_missing_slot_then_moves_on(engine: Engine) -> None:
    session = start(engine, [FORM, THANKS])
    assert session.initial_reply.response == "Let's sign you up."
    assert session.send("Mina Park").response == "How old are you?"
    assert session.send("I am 34").response == "Your email?"
    reply = session.send("it's mina@example.org")
    assert reply.response == "Thanks Mina Park, 34, mina@example.org."
    assert reply.session_complete
    assert session.info().slots == {"name": "Mina Park", "age": 34, "email": "mina@example.org"}


def test_invalid_values_are_not_filled_and_fall_back(engine: Engine) -> None:
    session = start(engine, [FORM, THANKS])
    session.send("Mina")
    reply = session.send("I am 300")
    assert reply.trace is not None and reply.trace.fallback == "not_understood"
    assert "age" not in session.info().slots


def test_several_slots_in_one_utterance(engine: Engine) -> None:
    form = dict(FORM, collect_slots=["email", "age"])
    session = start(engine, [form, THANKS])
    reply = session.send("mina@example.org")
    assert reply.response == "How old are you?"


def test_collecting_node_with_slots_already_filled_passes_on(engine: Engine) -> None:
    welcome = {
        "id": "welcome",
        "description": "Welcome.",
        "accept_slots": ["email"],
        "responses": {"default": "Hello!"},
        "default_next": "contact",
    }
    contact = {
        "id": "contact",
        "description": "Email.",
        "collect_slots": ["email"],
        "default_next": "end",
    }
    end = {
        "id": "end",
        "description": "End.",
        "terminal": True,
        "responses": {"default": "Noted {email}."},
    }
    session = start(engine, [welcome, contact, end])
    reply = session.send("reach me at a@b.co")
    assert (reply.current_node, reply.response) == ("end", "Noted a@b.co.")


def test_skill_runs_once_per_visit_and_passes_straight_on() -> None:
    skills = RecordingSkills(SkillOutcome(status="success", reply="Card issued."))
    engine = Engine(router=OfflineRouter(), skills=skills)
    ask = {
        "id": "ask",
        "description": "Ask.",
        "responses": {"default": "Issue a card?"},
        "next_nodes": [
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "affirm"},
                "target": "issue",
            }
        ],
    }
    issue = {
        "id": "issue",
        "description": "Issue.",
        "params": {"skill": "issue_card"},
        "wait_for_input": False,
        "default_next": "after",
    }
    after = {
        "id": "after",
        "description": "After.",
        "responses": {"default": "Anything else?"},
        "next_nodes": [{"action": "stay"}],
    }
    session = engine.start(make_graph([ask, issue, after]), bot_first=True)
    reply = session.send("yes")
    assert reply.response == "Card issued. Anything else?"
    assert reply.current_node == "after"
    session.send("no thanks")
    session.send("really nothing")
    assert len(skills.calls) == 1
    call = skills.calls[0]
    assert call.session_id == session.id and call.node.id == "issue"
    assert call.scope["input"]["text"] == "yes"


def test_skill_updates_slots_and_context_and_records_status() -> None:
    outcome = SkillOutcome(
        status="error",
        reply="Sorry, failed.",
        slot_updates={"name": "X"},
        context_updates={"k": 1, "_secret": 2},
        error_code="SKILL_RUNTIME_TIMEOUT",
    )
    skills = RecordingSkills(outcome)
    engine = Engine(router=OfflineRouter(), skills=skills)
    node = {"id": "s", "description": "S.", "params": {"skill": "x"}, "default_next": "end"}
    end = {"id": "end", "description": "End.", "terminal": True}
    session = engine.start(make_graph([node, end], slots=SLOTS), bot_first=True)
    assert session.initial_reply.response == "Sorry, failed."
    info = session.info()
    assert info.slots == {"name": "X"}
    assert info.context["k"] == 1 and "_secret" not in info.context
    assert info.context["last_skill_status"] == "error"


def test_entry_skill_without_bot_first_runs_on_the_first_message() -> None:
    skills = RecordingSkills(SkillOutcome(status="success", reply="Looked it up."))
    engine = Engine(router=OfflineRouter(), skills=skills)
    node = {
        "id": "s",
        "description": "S.",
        "params": {"skill": "lookup"},
        "responses": {"default": "More?"},
        "next_nodes": [{"action": "stay"}],
    }
    session = engine.start(make_graph([node]), bot_first=False)
    assert skills.calls == []
    reply = session.send("what is the weather")
    assert reply.response == "Looked it up. More?"
    assert skills.calls[0].scope["input"]["text"] == "what is the weather"
    # Once per turn: the first message entered the node (skill ran once), the next one
    # stays there and the skill answers it with that turn's input.
    assert len(skills.calls) == 1
    assert session.send("and tomorrow").response == "ran lookup"
    assert [c.scope["input"]["text"] for c in skills.calls] == [
        "what is the weather",
        "and tomorrow",
    ]


def test_a_crashing_skill_runner_becomes_the_error_reply() -> None:
    class Crashing:
        async def run(self, call: object) -> SkillOutcome:
            raise RuntimeError("boom")

    engine = Engine(router=OfflineRouter(), skills=Crashing())
    node = {
        "id": "s",
        "description": "S.",
        "params": {"skill": "x"},
        "responses": {"skill_error": "Service unavailable."},
        "default_next": "end",
    }
    end = {"id": "end", "description": "End.", "terminal": True}
    reply = engine.start(make_graph([node, end]), bot_first=True).initial_reply
    assert reply.response == "Service unavailable." and not reply.error


def test_pass_through_chain_is_bounded_on_cycles(engine: Engine) -> None:
    a = {
        "id": "a",
        "description": "A.",
        "responses": {"default": "a"},
        "wait_for_input": False,
        "default_next": "b",
    }
    b = {
        "id": "b",
        "description": "B.",
        "responses": {"default": "b"},
        "wait_for_input": False,
        "default_next": "a",
    }
    session = engine.start(make_graph([a, b]), bot_first=True)
    assert session.initial_reply.response == "a"  # the greeting alone
    assert session.path() == ["a", "b"] * 8


def test_a_skill_node_answers_a_turn_no_transition_takes_and_a_resume() -> None:
    skills = RecordingSkills()
    engine = Engine(router=OfflineRouter(), skills=skills)
    ask = {
        "id": "ask",
        "description": "Ask anything.",
        "params": {"skill": "ask", "input_map": {"q": "input.text"}},
        "next_nodes": [
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "thanks"},
                "target": "end",
            }
        ],
    }
    end = {
        "id": "end",
        "description": "Done.",
        "params": {"skill": "wrap", "input_map": {"q": "input.text"}},
        "terminal": True,
    }
    session = engine.start(make_graph([ask, end]), bot_first=True)
    assert [c.node.id for c in skills.calls] == ["ask"]
    reply = session.send("is it raining")
    assert (reply.current_node, reply.trace and reply.trace.fallback) == ("ask", None)
    assert reply.response == "ran ask"
    assert session.send("thank you").current_node == "end"
    resumed = session.send("one more thing")
    assert (resumed.current_node, resumed.session_complete) == ("end", True)
    assert [(c.node.id, c.scope["input"]["text"]) for c in skills.calls] == [
        ("ask", ""),
        ("ask", "is it raining"),
        ("end", "thank you"),
        ("end", "one more thing"),
    ]
