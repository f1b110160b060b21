"""LLM NLG over real HTTP: the prompt a reply is written from, and failures as None."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.llm._router import ModelRouter
from dialogkit.nlg._base import NLGProvider
from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.openai_server import (
    Completion,
    Delay,
    ErrorReply,
    RawBody,
    Reply,
    ScriptedOpenAIServer,
)
from dialogkit.wire import HistoryEntry
from tests.llm.conftest import MODEL, card_graph, make_settings, nlg_request

HISTORY = [
    HistoryEntry(role="assistant", message="Hi! Which card would you like, credit or debit?"),
    HistoryEntry(role="user", message="uh, the blue one"),
    HistoryEntry(role="assistant", message="Sorry, could you say credit or debit?"),
]


def nlg(server: ScriptedOpenAIServer, **settings: Any) -> NLGProvider:
    return ModelRouter(make_settings(server, **settings)).nlg(MODEL)


async def test_a_reply_is_written_from_persona_node_reference_facts_and_user(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    server.queue("  Debit it is! How many cards would you like?  \n")
    request = nlg_request(
        scenario,
        reference="Which card would you like, credit or debit?",
        user_system_prompt="Address the user formally.",
        facts={"slots_filled": {"card_type": "debit"}, "question": "How many cards?"},
        question="How many cards?",
        user={"name": "Mina", "locale": "en-GB"},
        history=HISTORY,
        user_text="debit please",
    )
    text = await nlg(server).generate(request)

    assert text == "Debit it is! How many cards would you like?"
    sent = server.chat_requests[0]
    assert sent.model == MODEL
    assert sent.response_format is None
    assert [(m["role"], m["content"]) for m in sent.messages[1:]] == [
        ("assistant", HISTORY[0].message),
        ("user", HISTORY[1].message),
        ("assistant", HISTORY[2].message),
        ("user", "debit please"),
    ]
    for expected in (
        "You are Ava, a cheerful bank assistant.",
        "Address the user formally.",
        "Write in English only",
        "Ask which kind of card and how many the user wants.",
        "Reference text",
        "Which card would you like, credit or debit?",
        '"slots_filled": {"card_type": "debit"}',
        "word for word: How many cards?",
        '"name": "Mina"',
    ):
        assert expected in sent.system
    assert "debit please" not in sent.system


async def test_the_current_utterance_is_sent_once_even_when_already_in_history(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    server.queue("Great.")
    history = [*HISTORY, HistoryEntry(role="user", message="debit please")]
    await nlg(server).generate(nlg_request(scenario, history=history, user_text="debit please"))
    assert server.chat_requests[0].contents("user") == ["uh, the blue one", "debit please"]


async def test_a_greeting_without_history_ends_with_a_user_turn(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    server.queue("Hello! I'm Ava. Would you like a credit or a debit card?")
    text = await nlg(server).generate(
        nlg_request(scenario, kind="greeting", reference="Which card would you like?")
    )
    assert text == "Hello! I'm Ava. Would you like a credit or a debit card?"
    sent = server.chat_requests[0]
    assert [m["role"] for m in sent.messages] == ["system", "user"]
    assert "opening message" in sent.system


async def test_the_language_of_the_scenario_is_requested(server: ScriptedOpenAIServer) -> None:
    graph = card_graph()
    graph["metadata"]["language"] = "ko"
    server.queue("안녕하세요!")
    await nlg(server).generate(nlg_request(Scenario.from_dict(graph), kind="greeting"))
    assert "Write in Korean only" in server.chat_requests[0].system


@pytest.mark.parametrize(
    ("kind", "said"),
    [("not_understood", "not understood"), ("no_input", "Nothing was heard")],
)
async def test_a_fallback_says_what_went_wrong_and_asks_again(
    server: ScriptedOpenAIServer, scenario: Scenario, kind: Any, said: str
) -> None:
    server.queue("Sorry, I missed that. Credit or debit?")
    request = nlg_request(
        scenario,
        kind="fallback",
        fallback_kind=kind,
        question="Which card would you like, credit or debit?",
        history=HISTORY,
        user_text="mumble" if kind == "not_understood" else "",
    )
    assert await nlg(server).generate(request) == "Sorry, I missed that. Credit or debit?"
    sent = server.chat_requests[0]
    assert said in sent.system
    assert "ask again: Which card would you like, credit or debit?" in sent.system
    assert "Do not repeat" not in sent.system
    assert sent.messages[-1]["role"] == "user"


async def test_from_the_second_attempt_the_avoid_list_is_in_the_prompt(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    provider = nlg(server)
    avoid = ["Sorry, could you say credit or debit?", HISTORY[0].message]
    server.queue("Sorry, could you say credit or debit?", "Let me ask differently: which card?")
    for attempt in (1, 2):
        request = nlg_request(
            scenario,
            kind="fallback",
            fallback_kind="not_understood",
            question="Credit or debit?",
            avoid=avoid if attempt > 1 else [],
            attempt=attempt,
        )
        await provider.generate(request)
    first, second = (r.system for r in server.chat_requests)
    assert "Do not repeat" not in first
    assert "Do not repeat any of these earlier sentences" in second
    for sentence in avoid:
        assert f"- {sentence}" in second


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(ErrorReply(400), id="400"),
        pytest.param(ErrorReply(429), id="429"),
        pytest.param(ErrorReply(500), id="500"),
        pytest.param(Completion(None), id="null-content"),
        pytest.param(Completion(" \n"), id="blank-content"),
        pytest.param(RawBody("not json at all"), id="garbage-body"),
    ],
)
async def test_a_failed_generation_is_none_and_counted(
    server: ScriptedOpenAIServer, scenario: Scenario, reply: Reply
) -> None:
    request = nlg_request(scenario, reference="Which card?")
    server.queue(reply)
    assert await nlg(server).generate(request) is None
    nlg_usage = request.usage.by_purpose["nlg"]
    assert (nlg_usage.calls, nlg_usage.failures) == (1, 1)


async def test_a_timeout_is_none(server: ScriptedOpenAIServer, scenario: Scenario) -> None:
    server.queue(Delay(5.0, "too late"))
    assert await nlg(server, llm_timeout_s=0.2).generate(nlg_request(scenario)) is None


async def test_usage_counts_generation_tokens(
    server: ScriptedOpenAIServer, scenario: Scenario
) -> None:
    request = nlg_request(scenario)
    server.queue(Completion("Hi there.", prompt_tokens=300, completion_tokens=4))
    await nlg(server).generate(request)
    assert request.usage.by_model[MODEL].model_dump(exclude={"latency_ms"}) == {
        "calls": 1,
        "failures": 0,
        "prompt_tokens": 300,
        "completion_tokens": 4,
    }
    assert request.usage.total_tokens == 304
