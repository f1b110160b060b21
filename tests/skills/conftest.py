"""Fixtures for the skill tests: a recording runtime, a runner aimed at it, call builders."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.skills._base import SkillCall
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.testing.skill_runtime import RecordingSkillRuntime

SCENARIO_VERSION = "1.4.0"


def default_scope() -> dict[str, Any]:
    return {
        "input": {"text": "when does the sun rise?", "confidence": 0.93},
        "nlu": {"intent": "ask_sun", "entities": {"city": "Busan"}, "confidence": 0.9},
        "slots": {"city": "Seoul", "date": "2024-06-21", "nothing": None},
        "context": {"mood": "calm", "last_skill_status": "success"},
        "user": {"name": "Mina", "location": {"latitude": 37.5665, "longitude": 126.978}},
        "turn": {"count": 3, "node_turns": 1, "fallbacks": 0},
    }


def build_call(
    params: dict[str, Any] | None = None,
    responses: dict[str, str] | None = None,
    scope: dict[str, Any] | None = None,
    *,
    scenario_responses: dict[str, str] | None = None,
    language: str = "en",
    version: str = SCENARIO_VERSION,
    locale: str = "en-US",
    timezone: str = "Asia/Seoul",
    session_id: str = "session-1",
) -> SkillCall:
    node = {
        "id": "skill_node",
        "description": "Calls a skill.",
        "params": {"skill": "sun_times", **(params or {})},
        "responses": responses or {},
        "terminal": True,
    }
    scenario = Scenario.from_dict(
        {
            "metadata": {"slug": "t", "name": "T", "language": language, "version": version},
            "slots": {"city": {"type": "text"}, "date": {"type": "date"}},
            "responses": scenario_responses or {},
            "graph": {"entry": "skill_node", "nodes": [node]},
        }
    )
    return SkillCall(
        scenario=scenario,
        node=scenario.node("skill_node"),
        scope=default_scope() if scope is None else scope,
        session_id=session_id,
        locale=locale,
        timezone=timezone,
    )


@pytest.fixture
def make_call() -> Callable[..., SkillCall]:
    """Build a SkillCall for one skill node: params, responses, scope, scenario settings."""
    return build_call


@pytest.fixture
def runtime() -> Iterator[RecordingSkillRuntime]:
    with RecordingSkillRuntime() as recording:
        yield recording


@pytest.fixture
def settings(runtime: RecordingSkillRuntime) -> Settings:
    return Settings(skill_runtime_base_url=runtime.base_url, skill_runtime_timeout_s=5.0)


@pytest.fixture
async def runner(settings: Settings) -> AsyncIterator[HTTPSkillRunner]:
    async with HTTPSkillRunner(settings) as skill_runner:
        yield skill_runner
