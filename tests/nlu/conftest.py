"""Fixtures shared by the rule NLU's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dialogkit import Engine
from dialogkit.engine.providers import OfflineRouter
from tests.helpers import RecordingSkills


@pytest.fixture(scope="module")
def offline() -> Iterator[Engine]:
    """One offline engine per test module: what a step stores is read through real turns."""
    engine = Engine(router=OfflineRouter(), skills=RecordingSkills())
    yield engine
    engine.portal.close()
