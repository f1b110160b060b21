"""Fixtures shared by every test folder."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter
from dialogkit.scenario import patterns
from tests.helpers import COFFEE, RecordingSkills


@pytest.fixture(autouse=True)
def full_search_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with the process's lookaround search share full: it is process-wide,
    so a test with slow patterns would otherwise cut the searches of the next one short."""
    shared = patterns.SharedSearchTime(
        patterns.PROCESS_SEARCH_SHARE, patterns.PROCESS_SEARCH_BURST_S
    )
    monkeypatch.setattr(patterns, "SHARED_SEARCH", shared)


@pytest.fixture
def skills() -> RecordingSkills:
    return RecordingSkills()


@pytest.fixture
def engine(skills: RecordingSkills) -> Iterator[Engine]:
    engine = Engine(router=OfflineRouter(), skills=skills)
    yield engine
    engine.portal.close()


@pytest.fixture
def coffee_data() -> dict[str, Any]:
    return copy.deepcopy(json.loads(COFFEE.read_text(encoding="utf-8")))


@pytest.fixture
def coffee() -> Scenario:
    return Scenario.from_file(COFFEE)
