"""The worked examples in docs/examples open as a user expects: the first reply asks something.

A bot-first greeting lands on the node that collects the first answer, but its text is only the
entry node's ``responses.default``; a greeting without the question leaves the user guessing
what to say.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dialogkit import Engine, Scenario
from tests.helpers import ROOT

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))

ASKING_ENDS = ("?", "？", "ください。", "お願いします。", "주세요.", "please.")
"""How a reply that asks for something ends: a question, or a polite request (ja, ko, en)."""


@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_the_opening_asks_the_first_question(example: Path) -> None:
    with Engine() as engine:
        opening = engine.start(Scenario.from_file(example)).initial_reply
    assert opening.turn_count == 1
    assert opening.response.rstrip().endswith(ASKING_ENDS), opening.response
