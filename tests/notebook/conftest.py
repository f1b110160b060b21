"""Fixtures of the notebook, widget, graph and terminal tests: an offline world on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dialogkit import Engine, Scenario, Session
from dialogkit.engine.providers import OfflineRouter
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit_server import create_app
from tests.helpers import RecordingSkills

ENVIRONMENT = (
    "CORE_DEFAULT_LLM",
    "CORE_NLU_LLM",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "DIALOGKIT_LLM_ENDPOINTS",
    "DIALOGKIT_REDIS_URL",
    "SKILL_RUNTIME_BASE_URL",
)
"""Settings that would take the tests off their offline, in-memory defaults."""


@pytest.fixture(autouse=True)
def offline_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def session(engine: Engine, coffee: Scenario) -> Session:
    """A fresh bot-first coffee order at the welcome node."""
    return engine.start(coffee)


@pytest.fixture(scope="package")
def service_url() -> Iterator[str]:
    """A real dialogkit service on 127.0.0.1 over an offline engine."""
    engine = Engine(router=OfflineRouter(), skills=RecordingSkills())
    try:
        with RuntimeServer(create_app(engine)) as server:
            yield server.base_url
    finally:
        engine.close()
