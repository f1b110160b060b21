"""Routing model names: offline providers, the default endpoint, per-model endpoints, hybrid."""

from __future__ import annotations

import json

import pytest

from dialogkit.errors import LLMError
from dialogkit.llm._endpoints import NO_API_KEY, Endpoint, parse_endpoints
from dialogkit.llm._router import ModelRouter
from dialogkit.nlg._llm import LLMNLG
from dialogkit.nlg._templates import TemplateNLG
from dialogkit.nlu._hybrid import HybridNLU
from dialogkit.nlu._llm import LLMNLU
from dialogkit.nlu._rules import RuleNLU
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import OFFLINE_MODEL
from dialogkit.testing.openai_server import ScriptedOpenAIServer
from tests.llm.conftest import make_settings, nlg_request, nlu_request

NLU_ANSWER = {"intent": "affirm", "entities": {}, "confidence": 0.9, "dialogue_act": "affirm"}


async def test_model_names_go_to_the_default_endpoint_with_its_key(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    router = ModelRouter(make_settings(server))
    server.queue(NLU_ANSWER, "Sure.")
    await router.nlu("nlu-model").understand(nlu_request(scenario, "yes"))
    await router.nlg("nlg-model").generate(nlg_request(scenario))
    await router.aclose()
    assert [(r.model, r.api_key) for r in server.chat_requests] == [
        ("nlu-model", "default-key"),
        ("nlg-model", "default-key"),
    ]


@pytest.mark.parametrize("spelling", ["compact", "json"])
async def test_mapped_models_go_to_their_own_endpoint(
    server: ScriptedOpenAIServer, scenario: Scenario, spelling: str
) -> None:
    with ScriptedOpenAIServer() as local:
        if spelling == "compact":
            mapping = f"llama = {local.base_url} | local-key ; qwen={local.base_url}"
        else:
            mapping = json.dumps(
                {
                    "llama": {"base_url": local.base_url, "api_key": "local-key"},
                    "qwen": {"base_url": local.base_url},
                }
            )
        router = ModelRouter(make_settings(server, llm_endpoints=mapping))
        local.queue(NLU_ANSWER, "From qwen.")
        server.queue("From the default endpoint.")

        await router.nlu("llama").understand(nlu_request(scenario, "yes"))
        assert await router.nlg("qwen").generate(nlg_request(scenario)) == "From qwen."
        assert await router.nlg("gpt-4o-mini").generate(nlg_request(scenario)) == (
            "From the default endpoint."
        )
        await router.aclose()

        assert [(r.model, r.api_key) for r in local.chat_requests] == [
            ("llama", "local-key"),
            ("qwen", NO_API_KEY),  # never the default OpenAI key
        ]
        assert [(r.model, r.api_key) for r in server.chat_requests] == [
            ("gpt-4o-mini", "default-key")
        ]


def test_both_spellings_of_the_mapping_read_the_same() -> None:
    compact = parse_endpoints("a=http://h:1/v1|k1; b=http://h:2/v1 ;")
    spelled = parse_endpoints(
        '{"a": {"base_url": "http://h:1/v1", "api_key": "k1"}, "b": {"base_url": "http://h:2/v1"}}'
    )
    assert (
        compact
        == spelled
        == {
            "a": Endpoint(base_url="http://h:1/v1", api_key="k1"),
            "b": Endpoint(base_url="http://h:2/v1"),
        }
    )
    assert parse_endpoints("  ") == {}


@pytest.mark.parametrize(
    "mapping",
    [
        "llama",
        "=http://h/v1",
        "llama=",
        "llama=|key",
        "{not json",
        '{"llama": "http://h/v1"}',
        '{"llama": {"baseurl": "http://h/v1"}}',
        '["llama"]',
    ],
)
def test_a_bad_mapping_fails_at_start_up_saying_what_is_expected(mapping: str) -> None:
    with pytest.raises(LLMError, match="DIALOGKIT_LLM_ENDPOINTS"):
        ModelRouter(make_settings(llm_endpoints=mapping))


@pytest.mark.parametrize("name", ["", OFFLINE_MODEL, " offline "])
async def test_the_offline_names_select_rules_and_templates_without_calls(
    server: ScriptedOpenAIServer, scenario: Scenario, name: str
) -> None:
    router = ModelRouter(make_settings(server, hybrid_nlu=True))
    nlu = router.nlu(name, hybrid=True)
    nlg = router.nlg(name)
    assert isinstance(nlu, RuleNLU)
    assert isinstance(nlg, TemplateNLG)
    result = await nlu.understand(nlu_request(scenario, "issue me a card"))
    assert result.intent == "order_card"
    assert await nlg.generate(nlg_request(scenario, reference="Which card?")) == "Which card?"
    assert server.requests == []


@pytest.mark.parametrize(
    ("setting", "argument", "hybrid"),
    [
        (False, None, False),
        (True, None, True),
        (True, False, False),
        (False, True, True),
    ],
)
def test_the_session_choice_of_hybrid_nlu_overrides_the_setting(
    setting: bool, argument: bool | None, hybrid: bool
) -> None:
    router = ModelRouter(make_settings(openai_base_url="http://127.0.0.1:9/v1", hybrid_nlu=setting))
    provider = router.nlu("some-model", hybrid=argument)
    assert isinstance(provider, HybridNLU if hybrid else LLMNLU)
    assert isinstance(router.nlg("some-model"), LLMNLG)


def test_providers_are_built_once_per_name_and_kept_within_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every turn asks the router for its providers; building them each time showed in the
    rule-decided turn's latency. Invented names (a ``*`` allow-list) must not grow memory."""
    monkeypatch.setattr("dialogkit.llm._router.MAX_PROVIDERS", 4)
    router = ModelRouter(make_settings(openai_base_url="http://127.0.0.1:9/v1", hybrid_nlu=True))
    nlu, nlg = router.nlu("some-model"), router.nlg("some-model")
    assert router.nlu("some-model") is nlu
    assert router.nlu("some-model", hybrid=True) is nlu
    assert isinstance(router.nlu("some-model", hybrid=False), LLMNLU)
    assert router.nlg("some-model") is nlg
    assert router.nlu(OFFLINE_MODEL) is router.nlu(OFFLINE_MODEL)
    for n in range(10):
        router.nlu(f"invented-{n}")
    assert len(router._nlus) <= 4
    assert isinstance(router.nlu("some-model"), HybridNLU)
