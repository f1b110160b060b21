"""Fixtures shared by every test folder."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter
from tests.helpers import COFFEE, RecordingSkills


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
