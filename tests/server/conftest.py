"""Live servers for the HTTP contract tests: real Sanic servers on 127.0.0.1, offline engines.

Each server runs in a background thread of this process (``RuntimeServer`` serves any Sanic
app), so a test can reach into its engine (a fake clock for expiry, a gated skill runner for
locking) while every request still goes through a real socket.
"""

from __future__ import annotations

import asyncio
import copy
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from dialogkit.client import Client
from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.settings import Settings
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit.store._memory import MemoryStore
from dialogkit_server import create_app

DEMO: dict[str, Any] = {
    "metadata": {
        "slug": "demo",
        "name": "Demo",
        "description": "Asks for a topic, chats until the user says finish.",
        "language": "en",
        "version": "1",
    },
    "prompts": {"bot": "Be brief."},
    "intents": {
        "finish": {"examples": ["finish", "I am done"], "keywords": ["finish"]},
        "lookup": {"examples": ["look it up"], "keywords": ["lookup"]},
    },
    "slots": {"topic": {"type": "text", "prompt": "What would you like to talk about?"}},
    "graph": {
        "entry": "ask_topic",
        "bot_first": True,
        "nodes": [
            {
                "id": "ask_topic",
                "description": "Ask for the topic.",
                "collect_slots": ["topic"],
                "default_next": "chat",
            },
            {
                "id": "chat",
                "description": "Chat about the topic.",
                "responses": {"default": "Tell me more, or say finish."},
                "next_nodes": [
                    {
                        "condition": {
                            "field": "nlu.intent",
                            "operator": "equals",
                            "value": "finish",
                        },
                        "target": "end",
                    },
                    {
                        "condition": {
                            "field": "nlu.intent",
                            "operator": "equals",
                            "value": "lookup",
                        },
                        "target": "lookup",
                    },
                ],
                "default_next": "chat",
            },
            {
                "id": "lookup",
                "description": "Look the topic up.",
                "params": {"skill": "lookup"},
                "wait_for_input": False,
                "default_next": "chat",
            },
            {
                "id": "end",
                "description": "Say goodbye.",
                "terminal": True,
                "responses": {"default": "Goodbye."},
            },
        ],
    },
}
"""bot-first: "ask_topic" (turn 1) -> any text fills ``topic`` -> "chat" until "finish"."""

GREETING_NODE = "ask_topic"


class FakeClock:
    """Wall time plus an offset the test controls, so expiry needs no sleeping."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


class GatedSkills:
    """A skill runner that holds each call until the test releases it."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.release.set()

    async def run(self, call: SkillCall) -> SkillOutcome:
        self.entered.set()
        await asyncio.to_thread(self.release.wait, 5)
        return SkillOutcome(status="success", reply="Looked it up.")


@dataclass
class Live:
    """A running server and the engine behind it."""

    base_url: str
    engine: Engine
    clock: FakeClock
    skills: GatedSkills


def offline_engine(clock: FakeClock, skills: GatedSkills) -> Engine:
    return Engine(Settings(), store=MemoryStore(clock=clock), router=OfflineRouter(), skills=skills)


@contextmanager
def running(
    engine: Engine | None = None, *, root_path: str = "", settings: Settings | None = None
) -> Iterator[Live]:
    """Serve ``engine`` (default: an offline one with a fake clock) until the block ends;
    ``settings`` are the service's (default: only ``root_path``)."""
    clock, skills = FakeClock(), GatedSkills()
    engine = engine or offline_engine(clock, skills)
    app = create_app(engine, settings or Settings(DIALOGKIT_ROOT_PATH=root_path))
    try:
        with RuntimeServer(app) as server:
            yield Live(server.base_url, engine, clock, skills)
    finally:
        engine.close()


@pytest.fixture(scope="package", autouse=True)
def scenario_registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A scenario folder registering ``demo`` (also as ``card_issuance``, the docs' example)."""
    folder = tmp_path_factory.mktemp("scenarios")
    (folder / "registry.json").write_text(
        json.dumps({"demo": "demo.json", "card_issuance": "demo.json"}), encoding="utf-8"
    )
    (folder / "demo.json").write_text(json.dumps(DEMO), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DIALOGKIT_SCENARIOS_DIR", str(folder))
        yield folder


@pytest.fixture(scope="package")
def server(scenario_registry: Path) -> Iterator[Live]:
    with running() as live:
        yield live


@pytest.fixture(scope="package")
def dm_server(scenario_registry: Path) -> Iterator[Live]:
    """Served with ``DIALOGKIT_ROOT_PATH=/dm``."""
    with running(root_path="/dm") as live:
        yield live


@pytest.fixture
def graph() -> dict[str, Any]:
    return copy.deepcopy(DEMO)


@pytest.fixture(scope="package")
def http(server: Live) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield client


@pytest.fixture(scope="package")
def client(server: Live) -> Iterator[Client]:
    with Client(server.base_url, timeout=10) as client:
        yield client
