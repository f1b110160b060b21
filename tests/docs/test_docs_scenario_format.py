"""docs/scenario-format.md stays true: its example runs and it names every field."""

from __future__ import annotations

import json
import re
from typing import get_args

import pytest

from dialogkit import Engine, Scenario
from dialogkit.scenario.model import (
    ACTIONS,
    OPERATORS,
    Graph,
    Intent,
    Metadata,
    Node,
    NodeParams,
    Slot,
    SlotType,
    SlotValidation,
    Transition,
)
from tests.helpers import ROOT

DOC = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")


def example() -> Scenario:
    blocks = re.findall(r"```json\n(.*?)```", DOC, re.DOTALL)
    assert blocks, "the scenario format page has no JSON example"
    return Scenario.from_dict(json.loads(blocks[0]))


def test_the_example_graph_is_valid() -> None:
    assert example().validate() == []


def test_the_example_graph_runs_as_described(engine: Engine) -> None:
    session = engine.start(example())
    assert session.initial_reply.response == "Welcome! May I have your name?"
    reply = session.send("Kim")
    assert reply.response == "Nice to meet you, Kim!"
    assert reply.final_data is not None and reply.final_data.end_reason == "completed"
    left = engine.start(example()).send("goodbye")
    assert left.final_data is not None and left.final_data.end_reason == "user_left"


@pytest.mark.parametrize(
    "name",
    sorted(
        OPERATORS
        | ACTIONS
        | set(get_args(SlotType))
        | {
            f.alias or n
            for m in (Metadata, Graph, Node, NodeParams, Intent, Slot, SlotValidation, Transition)
            for n, f in m.model_fields.items()
        }
    ),
)
def test_every_name_is_documented(name: str) -> None:
    assert f"`{name}`" in DOC
