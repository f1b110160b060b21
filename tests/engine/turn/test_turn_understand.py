"""Understanding: what a provider is asked, and what of its answer is kept."""

from __future__ import annotations

from dialogkit.engine.turn.understand import understand
from dialogkit.nlu._result import NLUResult
from dialogkit.wire import HistoryEntry
from tests.engine.turn.parts import ScriptedNLU, moment, node, scenario, state

SLOTS = {
    "size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"},
    "name": {"type": "text", "prompt": "Your name?"},
    "note": {"type": "text"},
}
GRAPH = scenario(
    [node("order", collect_slots=["name", "size"], default_next="done"), node("done")],
    slots=SLOTS,
    intents={"order_coffee": {"description": "Order.", "examples": ["a coffee please"]}},
)


async def test_the_request_names_what_the_node_can_use_and_the_recent_history() -> None:
    provider = ScriptedNLU(NLUResult(source="rules"))
    working = state("order", slots={"name": "Mina"})
    working.history = [HistoryEntry(role="user", message=f"m{i}") for i in range(12)]
    runtime = moment(GRAPH, working, nlu_provider=provider, nlu_model="m").runtime
    await understand(runtime, working, GRAPH.node("order"), "large please")
    (request,) = provider.requests
    assert request.text == "large please"
    assert set(request.slots) == {"name", "size"}
    assert request.expected_slot == "size"
    assert [entry.message for entry in request.history] == [f"m{i}" for i in range(4, 12)]
    assert request.filled_slots == {"name": "Mina"}
    assert request.filled_slots is not working.slots
    assert request.model == "m"


async def test_a_model_answer_keeps_known_intents_usable_slots_and_a_bounded_confidence() -> None:
    answer = NLUResult(
        intent="book_flight",
        entities={"size": "large", "note": "hot"},
        confidence=1.7,
        source="llm",
    )
    working = state("order")
    runtime = moment(GRAPH, working, nlu_provider=ScriptedNLU(answer)).runtime
    result = await understand(runtime, working, GRAPH.node("order"), "large, hot")
    assert result.intent is None
    assert result.entities == {"size": "large"}
    assert result.confidence == 1.0
    assert result.source == "llm"


async def test_a_declared_intent_from_a_model_is_kept() -> None:
    answer = NLUResult(intent="order_coffee", confidence=-0.2, source="llm")
    working = state("order")
    runtime = moment(GRAPH, working, nlu_provider=ScriptedNLU(answer)).runtime
    result = await understand(runtime, working, GRAPH.node("order"), "a coffee")
    assert (result.intent, result.confidence) == ("order_coffee", 0.0)


async def test_the_rules_answer_is_kept_as_it_is() -> None:
    answer = NLUResult(intent="order_coffee", entities={"note": "x"}, confidence=0.9)
    working = state("order")
    runtime = moment(GRAPH, working, nlu_provider=ScriptedNLU(answer)).runtime
    assert await understand(runtime, working, GRAPH.node("order"), "x") is answer
