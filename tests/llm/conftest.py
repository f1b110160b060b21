"""Fixtures for the language-model tests: a scripted server on loopback and small requests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from dialogkit import Engine
from dialogkit.nlg._base import NLGRequest
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit.testing.openai_server import ScriptedOpenAIServer
from tests.helpers import make_graph

MODEL = "test-model"


def card_graph() -> dict[str, Any]:
    """A two-step card order: intents with examples, an enum and an integer slot."""
    return make_graph(
        [
            {
                "id": "ask_card",
                "description": "Ask which kind of card and how many the user wants.",
                "responses": {"default": "Which card would you like, credit or debit?"},
                "collect_slots": ["card_type", "quantity"],
                "default_next": "done",
            },
            {
                "id": "done",
                "description": "Confirm the order.",
                "responses": {"default": "Your {quantity} {card_type} card is on its way."},
                "terminal": True,
            },
        ],
        prompts={"bot": "You are Ava, a cheerful bank assistant.", "nlu": "Users order cards."},
        intents={
            "order_card": {
                "description": "The user wants a new card.",
                "examples": ["I want a new card", "issue me a card"],
            }
        },
        slots={
            "card_type": {
                "type": "enum",
                "values": ["credit", "debit"],
                "description": "Kind of card.",
                "prompt": "Credit or debit?",
            },
            "quantity": {
                "type": "integer",
                "description": "How many cards.",
                "prompt": "How many cards?",
                "validation": {"min": 1, "max": 5},
            },
            "balance": {"type": "number", "description": "Account balance (never from users)."},
        },
    )


def make_settings(server: ScriptedOpenAIServer | None = None, **values: Any) -> Settings:
    """Settings that ignore the environment's model configuration; no retries, short timeout."""
    defaults: dict[str, Any] = {
        "openai_base_url": server.base_url if server else "",
        "openai_api_key": "default-key",
        "core_default_llm": "",
        "core_nlu_llm": "",
        "llm_endpoints": "",
        # Every name on the scripted server; the allow-list tests set their own list.
        "llm_models": "*",
        "llm_timeout_s": 5.0,
        "llm_max_retries": 0,
        "hybrid_nlu": False,
    }
    return Settings.model_validate({**defaults, **values})


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as scripted:
        yield scripted


@pytest.fixture
def scenario() -> Scenario:
    return Scenario.from_dict(card_graph())


def nlu_request(scenario: Scenario, text: str, **values: Any) -> NLURequest:
    """What the engine asks NLU at the card node: built-in plus scenario intents, its slots."""
    slots = scenario.document.slots
    fields: dict[str, Any] = {
        "scenario": scenario,
        "node": scenario.node("ask_card"),
        "text": text,
        "intents": {**BUILTIN_INTENTS, **scenario.document.intents},
        "slots": {name: slots[name] for name in ("card_type", "quantity")},
        "expected_slot": "card_type",
        "model": MODEL,
    }
    return NLURequest(**{**fields, **values})


def nlg_request(scenario: Scenario, **values: Any) -> NLGRequest:
    fields: dict[str, Any] = {
        "kind": "reply",
        "scenario": scenario,
        "node": scenario.node("ask_card"),
        "model": MODEL,
    }
    return NLGRequest(**{**fields, **values})


@contextmanager
def serving(engine: Engine) -> Iterator[httpx.Client]:
    """``engine`` behind the real HTTP server on loopback, and a client for it."""
    from dialogkit_server import create_app

    try:
        with (
            RuntimeServer(create_app(engine, engine.settings)) as live,
            httpx.Client(base_url=live.base_url, timeout=30) as http,
        ):
            yield http
    finally:
        engine.close()
