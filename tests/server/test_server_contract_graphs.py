"""Graphs written to the contract alone (no extension keys) run unchanged, over real HTTP.

The graph names intents only in its conditions (no ``intents`` registry), greets at an entry
with ``default_next``, answers questions with a skill node that stays, and has a model
configured in the second run: each rule of the contract is asserted on the wire, offline
and with the scripted OpenAI-compatible server, against a real skill runtime on loopback.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dialogkit.engine.engine import Engine
from dialogkit.settings import Settings
from dialogkit.testing import RecordingSkillRuntime
from dialogkit.testing.openai_server import RecordedRequest, Reply, ScriptedOpenAIServer
from dialogkit.testing.skill_runtime import SkillReply
from tests.server.conftest import Live, running


def intent_is(name: str) -> dict[str, Any]:
    return {"field": "nlu.intent", "operator": "equals", "value": name}


CONTRACT_GRAPH: dict[str, Any] = {
    "metadata": {
        "slug": "cards",
        "name": "Cards",
        "description": "Card applications and questions about cards.",
        "language": "en",
        "version": "1",
    },
    "prompts": {
        "bot": "You are a bank assistant.",
        "nlu": "Users of this bank apply for cards or ask about fees.",
    },
    "slots": {
        "card_type": {"type": "enum", "values": ["credit", "debit"], "prompt": "Credit or debit?"}
    },
    "graph": {
        "entry": "hello",
        "bot_first": True,
        "global_transitions": [{"condition": intent_is("goodbye"), "target": "done"}],
        "nodes": [
            {
                "id": "hello",
                "description": "Welcome the user.",
                "responses": {"default": "Welcome aboard."},
                "default_next": "menu",
            },
            {
                "id": "menu",
                "description": "Ask whether the user wants a card or has a question.",
                "responses": {"default": "Apply for a card, or ask a question?"},
                "next_nodes": [
                    {"condition": intent_is("card_apply"), "target": "apply"},
                    {"condition": intent_is("ask_question"), "target": "faq"},
                ],
            },
            {
                "id": "apply",
                "description": "Take the card application.",
                "collect_slots": ["card_type"],
                "default_next": "done",
            },
            {
                "id": "faq",
                "description": "Answer questions about cards from the FAQ service.",
                "params": {
                    "skill": "faq",
                    "input_map": {"q": "input.text"},
                    "fallback": "The FAQ service is resting; ask me again later.",
                },
                "next_nodes": [{"action": "stay"}],
            },
            {
                "id": "done",
                "description": "Say goodbye.",
                "responses": {"default": "Thank you, goodbye."},
                "terminal": True,
            },
        ],
    },
}
EXTENSION_KEYS = {"intents", "accept_slots", "wait_for_input", "set", "append", "clear_slots"}
ANSWERS = [
    SkillReply.success({"answer": "Sure, ask away."}),
    SkillReply.success({"answer": "The annual fee is 10 dollars.", "citations": []}),
    SkillReply.failure("DOWN", "maintenance"),
]
GENERATED = "A GENERATED SENTENCE."


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys_of(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys_of(item)}
    return set()


def test_the_graph_uses_no_extension_keys() -> None:
    assert not keys_of(CONTRACT_GRAPH) & EXTENSION_KEYS


@pytest.fixture
def registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "registry.json").write_text(json.dumps({"cards": "cards.json"}))
    (tmp_path / "cards.json").write_text(json.dumps(CONTRACT_GRAPH))
    monkeypatch.setenv("DIALOGKIT_SCENARIOS_DIR", str(tmp_path))
    return "cards"


@pytest.fixture
def skills() -> Iterator[RecordingSkillRuntime]:
    with RecordingSkillRuntime(ANSWERS) as runtime:
        yield runtime


def nlu_answer(request: RecordedRequest) -> Reply:
    """The scripted model: NLU by the words of the utterance, NLG always ``GENERATED``."""
    if request.response_format is None:
        return GENERATED
    text = (request.last_user or "").lower()
    intent = (
        "card_apply"
        if "apply" in text
        else "goodbye"
        if "bye" in text
        else "ask_question"
        if "question" in text
        else None
    )
    return {"intent": intent, "entities": {}, "confidence": 0.9, "dialogue_act": "inform"}


@pytest.fixture
def model() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(handler=nlu_answer) as server:
        yield server


def serve(skills: RecordingSkillRuntime, model: ScriptedOpenAIServer | None) -> Any:
    values: dict[str, Any] = {
        "SKILL_RUNTIME_BASE_URL": skills.base_url,
        "OPENAI_BASE_URL": model.base_url if model else "",
        "OPENAI_API_KEY": "sk-test",
        "CORE_DEFAULT_LLM": "m" if model else "",
        "CORE_NLU_LLM": "m" if model else "",
        "DIALOGKIT_LLM_MAX_RETRIES": 0,
    }
    return running(Engine(Settings.model_validate(values)))


def post(live: Live, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{live.base_url}{path}", json=body, timeout=10)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def say(live: Live, session_id: str, text: str) -> dict[str, Any]:
    body = {"session_id": session_id, "message_input": {"text": text, "confidence": 0.95}}
    return post(live, "/v1/message", body)


@pytest.mark.parametrize("with_model", [False, True], ids=["offline", "scripted-model"])
def test_a_contract_graph_runs_as_the_contract_says(
    with_model: bool,
    registered: str,
    skills: RecordingSkillRuntime,
    model: ScriptedOpenAIServer,
) -> None:
    with serve(skills, model if with_model else None) as live:
        graph = copy.deepcopy(CONTRACT_GRAPH)
        assert post(live, "/v1/session/validate", {"scenario_graph": graph})["status"] == (
            "success"
        )

        # The opening transition, by name and by graph: the greeting alone (the entry's
        # responses.default, no model call, nothing of the landed node appended), and the
        # session waits at the landed node.
        created = post(live, "/v1/session", {"scenario_name": registered})
        assert created["initial_response"] == "Welcome aboard."
        assert (created["initial_current_node"], created["initial_turn_count"]) == ("menu", 1)
        opened = post(live, "/v1/session/json", {"scenario_graph": graph})
        assert opened["response"] == "Welcome aboard."
        assert (opened["current_node"], opened["turn_count"]) == ("menu", 1)
        assert model.chat_requests == []
        session_id = opened["session_id"]

        # An undeclared intent routes (rule NLU: the words of its name; the model: its enum).
        entered = say(live, session_id, "Can I ask a question")
        assert entered["current_node"] == "faq"
        assert entered["response"] == "Sure, ask away."

        # The skill answers each turn that stays, verbatim, with that turn's input.
        answered = say(live, session_id, "What is the annual fee")
        assert (answered["current_node"], answered["turn_count"]) == ("faq", 3)
        assert answered["response"] == "The annual fee is 10 dollars."
        second = skills.bodies[1]
        assert (second["skill_id"], second["arguments"]) == ("faq", {"q": "What is the annual fee"})

        # A failure says params.fallback verbatim, model or not.
        failed = say(live, session_id, "And the interest rate")
        assert failed["response"] == "The FAQ service is resting; ask me again later."

        # A turn that leaves the node does not run its skill.
        left = say(live, session_id, "ok bye")
        assert (left["current_node"], left["session_complete"]) == ("done", True)
        assert len(skills.bodies) == 3

        info = httpx.get(f"{live.base_url}/v1/session/{session_id}", timeout=10).json()
        assert info["context"]["last_skill_status"] == "error"

    if with_model:
        nlu = [r for r in model.chat_requests if r.response_format is not None]
        assert nlu, "the model was asked for NLU"
        schema = nlu[0].response_format["json_schema"]["schema"]  # type: ignore[index]
        assert {"card_apply", "ask_question", "goodbye"} <= set(
            schema["properties"]["intent"]["enum"]
        )
        assert "apply for cards or ask about fees" in nlu[0].system
        assert GENERATED not in {answered["response"], failed["response"], entered["response"]}


def test_a_generated_bot_first_greeting_is_the_whole_first_reply(
    skills: RecordingSkillRuntime, model: ScriptedOpenAIServer
) -> None:
    """Without ``responses.default`` the greeting comes from the entry's description; the
    node the opening transition lands on adds nothing, with one model call in all."""
    graph = copy.deepcopy(CONTRACT_GRAPH)
    del graph["graph"]["nodes"][0]["responses"]
    with serve(skills, model) as live:
        opened = post(live, "/v1/session/json", {"scenario_graph": graph})
    assert (opened["response"], opened["current_node"]) == (GENERATED, "menu")
    (greeting,) = model.chat_requests
    assert "Welcome the user." in greeting.system


def test_offline_nlu_also_matches_an_undeclared_intent_by_the_words_of_its_name(
    skills: RecordingSkillRuntime,
) -> None:
    with serve(skills, None) as live:
        opened = post(live, "/v1/session/json", {"scenario_graph": CONTRACT_GRAPH})
        reply = say(live, opened["session_id"], "I would like to apply for a new card")
        assert (reply["current_node"], reply["response"]) == ("apply", "Credit or debit?")
        assert skills.bodies == []
