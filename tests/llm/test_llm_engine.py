"""The engine with language models over real HTTP: model choice, fallbacks, greetings."""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.nlg._phrases import FALLBACKS, GREETINGS
from dialogkit.testing.openai_server import Delay, ErrorReply, RecordedRequest, Reply
from dialogkit.testing.openai_server import ScriptedOpenAIServer as Server
from tests.helpers import RecordingSkills, make_graph
from tests.llm.conftest import make_settings

GREETING = "Hello! Which card would you like, credit or debit?"
NOT_UNDERSTOOD = "Sorry, was that credit or debit?"

ASK_CARD = {
    "id": "ask_card",
    "description": "Ask which card the user wants.",
    "responses": {"default": GREETING, "not_understood": NOT_UNDERSTOOD},
    "collect_slots": ["card_type"],
    "default_next": "done",
}
DONE = {
    "id": "done",
    "description": "Confirm the order.",
    "responses": {"default": "Your {card_type} card is on its way."},
    "terminal": True,
}
SLOTS = {"card_type": {"type": "enum", "values": ["credit", "debit"]}}


def graph(*nodes: dict[str, Any]) -> dict[str, Any]:
    return make_graph(list(nodes or (ASK_CARD, DONE)), slots=SLOTS, bot_first=True)


class Model:
    """NLU finds "debit" when the user says it; NLG says a scripted text, else who it is."""

    def __init__(self, texts: Iterable[Reply] = ()) -> None:
        self.texts = deque(texts)

    def __call__(self, request: RecordedRequest) -> Reply:
        if request.response_format is not None:
            found = "debit" in (request.last_user or "")
            return {
                "intent": None,
                "entities": {"card_type": "debit"} if found else {},
                "confidence": 0.9 if found else 0.1,
                "dialogue_act": "inform",
            }
        return self.texts.popleft() if self.texts else f"Reply from {request.model}."


def calls(server: Server) -> list[tuple[str, str]]:
    """(nlu|nlg, model) of every chat request, in order."""
    return [
        ("nlu" if r.response_format is not None else "nlg", r.model) for r in server.chat_requests
    ]


def nlg_prompts(server: Server) -> list[str]:
    return [r.system for r in server.chat_requests if r.response_format is None]


@pytest.fixture
def model() -> Model:
    return Model()


@pytest.fixture
def server(model: Model) -> Iterator[Server]:
    with Server(handler=model) as scripted:
        yield scripted


@pytest.fixture
async def engine(server: Server) -> AsyncIterator[Engine]:
    settings = make_settings(server, core_default_llm="house-nlg", core_nlu_llm="house-nlu")
    async with Engine(settings, skills=RecordingSkills()) as running:
        yield running


@pytest.mark.parametrize(
    ("llm_choice", "nlu_llm_choice", "nlu_model", "nlg_model"),
    [
        ("", "", "house-nlu", "house-nlg"),
        ("chosen-nlg", "", "house-nlu", "chosen-nlg"),
        ("", "chosen-nlu", "chosen-nlu", "house-nlg"),
        ("chosen-nlg", "chosen-nlu", "chosen-nlu", "chosen-nlg"),
    ],
)
async def test_each_purpose_uses_its_session_choice_else_its_process_default(
    engine: Engine,
    server: Server,
    llm_choice: str,
    nlu_llm_choice: str,
    nlu_model: str,
    nlg_model: str,
) -> None:
    session = await engine.astart(graph(), llm_choice=llm_choice, nlu_llm_choice=nlu_llm_choice)
    reply = await session.asend("debit please")

    assert calls(server) == [("nlu", nlu_model), ("nlg", nlg_model)]
    assert reply.response == f"Reply from {nlg_model}."
    assert reply.session_complete
    usage = (await session.ainfo()).context["llm_usage"]
    assert usage["by_model"][nlu_model]["calls"] == 1
    assert usage["by_purpose"]["nlg"]["calls"] == 1


async def test_llm_choice_never_replaces_an_offline_nlu(server: Server) -> None:
    settings = make_settings(server, core_default_llm="house-nlg", core_nlu_llm="")
    async with Engine(settings, skills=RecordingSkills()) as engine:
        session = await engine.astart(graph(), llm_choice="chosen-nlg")
        reply = await session.asend("debit please")
    assert calls(server) == [("nlg", "chosen-nlg")]
    assert reply.session_complete  # the rule NLU understood "debit"


async def test_a_fallback_repeating_an_earlier_sentence_is_retried_then_built_in(
    engine: Engine, server: Server, model: Model
) -> None:
    session = await engine.astart(graph())
    assert session.initial_reply.response == GREETING
    model.texts.extend([GREETING, f"  {GREETING} ", GREETING.replace(" ", "   ")])

    reply = await session.asend("the blue one")

    assert calls(server) == [("nlu", "house-nlu")] + [("nlg", "house-nlg")] * 3
    first, second, third = nlg_prompts(server)
    assert "Do not repeat" not in first
    for prompt in (second, third):
        assert "Do not repeat any of these earlier sentences" in prompt
        assert f"- {GREETING}" in prompt
    assert reply.response == FALLBACKS["en"]["not_understood"][0]
    assert reply.trace is not None and reply.trace.fallback == "not_understood"
    assert (reply.turn_count, reply.current_node) == (1, "ask_card")


async def test_a_new_sentence_on_the_second_attempt_is_used(
    engine: Engine, server: Server, model: Model
) -> None:
    session = await engine.astart(graph())
    model.texts.extend([GREETING, "Hmm, I missed that. Credit or debit?"])
    reply = await session.asend("the blue one")
    assert reply.response == "Hmm, I missed that. Credit or debit?"
    assert len(nlg_prompts(server)) == 2


@pytest.mark.parametrize(
    "failure",
    [ErrorReply(500, "down"), ErrorReply(429, "slow down"), Delay(5.0), ""],
    ids=["500", "429", "timeout", "empty"],
)
async def test_model_failures_become_fallback_text_never_errors(
    server: Server, failure: Reply
) -> None:
    server.handler = lambda request: failure
    settings = make_settings(server, core_default_llm="m", core_nlu_llm="m", llm_timeout_s=0.2)
    async with Engine(settings, skills=RecordingSkills()) as engine:
        session = await engine.astart(graph())
        not_understood = await session.asend("debit please")
        silence = await session.asend("")
        usage = (await session.ainfo()).context["llm_usage"]["by_model"]["m"]

    assert not not_understood.error and not silence.error
    assert not_understood.response == NOT_UNDERSTOOD
    assert silence.response in FALLBACKS["en"]["no_input"]
    assert usage["failures"] == usage["calls"] == 3  # NLU, then one NLG per fallback


async def test_a_failed_reply_generation_falls_back_to_the_template(
    engine: Engine, server: Server, model: Model
) -> None:
    session = await engine.astart(graph())
    model.texts.append(ErrorReply(503))
    reply = await session.asend("debit please")
    assert reply.response == "Your debit card is on its way."
    assert not reply.error


async def test_a_bot_first_greeting_with_a_default_is_said_without_a_model_call(
    engine: Engine, server: Server
) -> None:
    session = await engine.astart(graph())
    assert session.initial_reply.response == GREETING
    assert server.requests == []


WELCOME = {
    "id": "welcome",
    "description": "Welcome the caller to Ava's bank and ask how you can help.",
    "wait_for_input": True,  # the opening stays here: these tests are about the greeting
    "default_next": "done",
}


async def test_a_bot_first_greeting_without_a_default_is_generated_from_the_node(
    engine: Engine, server: Server, model: Model
) -> None:
    model.texts.append("Welcome to Ava's bank! How can I help you today?")
    session = await engine.astart(graph(WELCOME, DONE))
    assert session.initial_reply.response == "Welcome to Ava's bank! How can I help you today?"
    (prompt,) = nlg_prompts(server)
    assert "opening message" in prompt
    assert WELCOME["description"] in prompt
    assert "Be brief." in prompt  # the scenario's bot prompt


async def test_a_failed_greeting_generation_uses_the_common_greeting(
    engine: Engine, server: Server, model: Model
) -> None:
    model.texts.append(ErrorReply(500))
    session = await engine.astart(graph(WELCOME, DONE))
    assert session.initial_reply.response == GREETINGS["en"]
    assert len(server.chat_requests) == 1


def test_the_sync_facade_talks_to_the_model_from_its_own_loop(server: Server) -> None:
    settings = make_settings(server, core_default_llm="house-nlg", core_nlu_llm="house-nlu")
    with Engine(settings, skills=RecordingSkills()) as engine:
        session = engine.start(graph())
        reply = session.send("debit please")
    assert reply.response == "Reply from house-nlg."
    assert calls(server) == [("nlu", "house-nlu"), ("nlg", "house-nlg")]
