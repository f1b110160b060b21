"""Hybrid NLU: the rules answer when they are sure, the model only otherwise."""

from __future__ import annotations

from dialogkit.llm._router import ModelRouter
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._hybrid import HybridNLU
from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.openai_server import ScriptedOpenAIServer
from tests.llm.conftest import MODEL, make_settings, nlu_request

MODEL_ANSWER = {
    "intent": "order_card",
    "entities": {"card_type": "credit"},
    "confidence": 0.7,
    "dialogue_act": "request",
}


async def test_confident_rules_answer_without_a_model_call(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    nlu = ModelRouter(make_settings(server, hybrid_nlu=True)).nlu(MODEL)
    request = nlu_request(scenario, "issue me a card")
    result = await nlu.understand(request)
    assert (result.intent, result.source) == ("order_card", "rules")
    assert server.requests == []
    assert request.usage.calls == 0


async def test_unsure_rules_hand_over_to_the_model(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    nlu = ModelRouter(make_settings(server, hybrid_nlu=True)).nlu(MODEL)
    server.queue(MODEL_ANSWER)
    text = "could I get some plastic to pay with, the borrowing kind"
    result = await nlu.understand(nlu_request(scenario, text))
    assert result.source == "llm"
    assert (result.intent, result.entities) == ("order_card", {"card_type": "credit"})
    assert server.chat_requests[0].last_user == text


async def test_the_threshold_setting_decides_what_confident_means(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    settings = make_settings(server, hybrid_nlu=True, hybrid_nlu_threshold=1.01)
    nlu = ModelRouter(settings).nlu(MODEL)
    server.queue(MODEL_ANSWER)
    result = await nlu.understand(nlu_request(scenario, "issue me a card"))
    assert result.source == "llm"
    assert len(server.chat_requests) == 1


class Fixed:
    def __init__(self, result: NLUResult) -> None:
        self.result = result
        self.calls = 0

    async def understand(self, request: NLURequest) -> NLUResult:
        self.calls += 1
        return self.result


async def test_a_rule_confidence_equal_to_the_threshold_is_enough(scenario: Scenario) -> None:
    rules = Fixed(NLUResult(intent="affirm", confidence=0.8))
    model = Fixed(NLUResult(intent="deny", confidence=0.9, source="llm"))
    result = await HybridNLU(rules, model, 0.8).understand(nlu_request(scenario, "yes"))
    assert result.intent == "affirm"
    assert model.calls == 0
