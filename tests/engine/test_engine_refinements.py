"""Behaviour scenario authors asked for: fills before global moves, variants, routing nodes."""

from __future__ import annotations

from typing import Any

from dialogkit import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.nlg._base import NLGRequest
from tests.helpers import RecordingSkills, make_graph

SLOTS: dict[str, Any] = {
    "sleep": {
        "type": "enum",
        "values": ["good", "bad"],
        "synonyms": {"bad": ["no sleep"]},
        "prompt": "How did you sleep?",
    },
    "note": {"type": "text", "prompt": "Anything else?"},
    "name": {"type": "text", "prompt": "Your name?", "pattern": r"name is (?P<value>\w+)"},
}
INTENTS = {"pain": {"keywords": ["hurts"]}}
PAIN = [
    {"condition": {"field": "nlu.intent", "operator": "equals", "value": "pain"}, "target": "pain"}
]
PAIN_NODE = {
    "id": "pain",
    "description": "Pain.",
    "responses": {"default": "I'm sorry."},
    "terminal": True,
}


def test_distinctive_values_are_kept_when_a_global_transition_fires(engine: Engine) -> None:
    ask = {
        "id": "ask",
        "description": "Ask sleep.",
        "collect_slots": ["sleep"],
        "default_next": "pain",
    }
    data = make_graph([ask, PAIN_NODE], slots=SLOTS, intents=INTENTS, global_transitions=PAIN)
    session = engine.start(data, bot_first=True)
    reply = session.send("my knee hurts, no sleep at all")
    assert reply.current_node == "pain"
    assert session.info().slots == {"sleep": "bad"}


def test_open_values_are_not_taken_when_a_global_transition_fires(engine: Engine) -> None:
    ask = {"id": "ask", "description": "Ask.", "collect_slots": ["note"], "default_next": "pain"}
    data = make_graph([ask, PAIN_NODE], slots=SLOTS, intents=INTENTS, global_transitions=PAIN)
    session = engine.start(data, bot_first=True)
    session.send("my knee hurts")
    assert session.info().slots == {}


def test_accepted_text_slot_with_a_pattern_takes_corrections(engine: Engine) -> None:
    ask = {
        "id": "ask",
        "description": "Ask the name.",
        "collect_slots": ["name"],
        "default_next": "confirm",
    }
    confirm = {
        "id": "confirm",
        "description": "Confirm.",
        "accept_slots": ["name"],
        "responses": {"default": "You are {name}?"},
        "next_nodes": [{"action": "stay"}],
    }
    session = engine.start(make_graph([ask, confirm], slots=SLOTS), bot_first=True)
    assert session.send("my name is Mina").response == "You are Mina?"
    assert session.send("sorry, my name is Minji").response == "You are Minji?"
    assert session.send("sounds good").response == "You are Minji?"


def test_conditions_can_test_the_current_node(engine: Engine) -> None:
    glob = [
        {
            "condition": {
                "all": [
                    {"field": "nlu.intent", "operator": "equals", "value": "pain"},
                    {"field": "turn.node", "operator": "not_equals", "value": "pain"},
                ]
            },
            "target": "pain",
            "append": {"context.reports": "{input.text}"},
        }
    ]
    start = {
        "id": "start",
        "description": "Start.",
        "responses": {"default": "Hi."},
        "next_nodes": [{"action": "stay"}],
    }
    pain = {
        "id": "pain",
        "description": "Pain.",
        "responses": {"default": "Where?"},
        "next_nodes": [{"action": "stay"}],
    }
    session = engine.start(
        make_graph([start, pain], intents=INTENTS, global_transitions=glob), bot_first=True
    )
    assert session.send("it hurts").current_node == "pain"
    session.send("it still hurts")
    assert session.info().context["reports"] == ["it hurts"]


def test_template_variants_are_used_before_repeating(engine: Engine) -> None:
    node = {
        "id": "a",
        "description": "A.",
        "next_nodes": [{"action": "stay"}],
        "responses": {"default": ["One?", "Two?"], "no_input": ["Hello?", "Still there?"]},
    }
    session = engine.start(make_graph([node]), bot_first=True, max_fallback_retries=5)
    assert session.initial_reply.response == "One?"
    assert session.send("x").response == "Two?"
    assert [session.send("").response for _ in range(2)] == ["Hello?", "Still there?"]


class RecordingNLG:
    def __init__(self) -> None:
        self.nodes: list[str] = []

    async def generate(self, request: NLGRequest) -> str | None:
        self.nodes.append(request.node.id)
        return request.reference or None


def test_a_routing_node_says_nothing_and_costs_no_generation() -> None:
    nlg = RecordingNLG()

    class Router(OfflineRouter):
        def nlg(self, model: str) -> RecordingNLG:  # type: ignore[override]
            return nlg

    route = {
        "id": "route",
        "description": "Route.",
        "wait_for_input": False,
        "next_nodes": [{"target": "end"}],
    }
    end = {"id": "end", "description": "End.", "responses": {"default": "Bye."}, "terminal": True}
    start = {
        "id": "start",
        "description": "Start.",
        "responses": {"default": "Hi."},
        "wait_for_input": True,
        "default_next": "route",
    }
    engine = Engine(router=Router(), skills=RecordingSkills())
    session = engine.start(make_graph([start, route, end]), bot_first=True)
    nlg.nodes.clear()
    assert session.send("ok").response == "Bye."
    assert nlg.nodes == ["end"]


def test_provider_values_are_kept_as_typed_and_undeclared_ones_dropped() -> None:
    from dialogkit.nlu._base import NLURequest
    from dialogkit.nlu._result import NLUResult

    class ModelLike:
        async def understand(self, request: NLURequest) -> NLUResult:
            return NLUResult(
                intent="admin",
                entities={"grid": "1234 5678", "secret": "x"},
                confidence=3.0,
                source="llm",
            )

    class Router(OfflineRouter):
        def nlu(self, model: str, *, hybrid: bool | None = None) -> ModelLike:  # type: ignore[override]
            return ModelLike()

    slots = {
        "grid": {
            "type": "pattern",
            "pattern": r"grid\s*(?P<value>\d{4}\s?\d{4})",
            "prompt": "Grid?",
        },
        "secret": {"type": "text", "prompt": "Secret?"},
    }
    ask = {
        "id": "ask",
        "description": "Ask the grid.",
        "collect_slots": ["grid"],
        "default_next": "end",
    }
    end = {
        "id": "end",
        "description": "End.",
        "responses": {"default": "Grid {grid}."},
        "terminal": True,
    }
    engine = Engine(router=Router(), skills=RecordingSkills())
    session = engine.start(make_graph([ask, end], slots=slots), bot_first=True)
    reply = session.send("grid 1234 5678")
    assert reply.response == "Grid 1234 5678."
    assert reply.trace is not None and reply.trace.intent is None
    assert session.info().slots == {"grid": "1234 5678"}
