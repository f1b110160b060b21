"""docs/scenario-format.md stays true: its example runs and it names every field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

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


@pytest.mark.timeout(120)
def test_the_schema_link_goes_to_the_repository_file_and_the_site_publishes_it(
    tmp_path: Path,
) -> None:
    """The page links the committed schema (not json-schema.org); the strict docs build adds
    the file to the site and points the link at its copy there."""
    schema = ROOT / "scenarios" / "scenario.schema.json"
    links = re.findall(r"\[`scenarios/scenario.schema.json`\]\(([^)]+)\)", DOC)
    assert links == ["../scenarios/scenario.schema.json"]
    assert (ROOT / "docs" / links[0]).resolve() == schema
    assert "json-schema.org" not in DOC

    build(load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path), strict=True))
    assert (tmp_path / "scenario.schema.json").read_bytes() == schema.read_bytes()
    page = (tmp_path / "scenario-format" / "index.html").read_text(encoding="utf-8")
    assert 'href="../scenario.schema.json"' in page
