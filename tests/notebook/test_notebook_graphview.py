"""Graph pictures: Mermaid text, and the offline SVG and HTML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.notebook import GraphView, Transcript
from dialogkit.scenario.graphview import condition_text, to_html, to_mermaid, to_svg
from dialogkit.scenario.model import Transition
from tests.helpers import make_graph

SVG = "{http://www.w3.org/2000/svg}"
ORDER_PATH = ["welcome", "take_order", "confirm", "done"]


def mermaid_keys(text: str) -> dict[str, str]:
    """Node id -> Mermaid key, read from the node declarations."""
    return {node: key for key, node in re.findall(r'^\s+(n\d+)\(?\["([^"<]+)', text, re.M)}


def nodes_of(svg: str) -> dict[str, set[str]]:
    """Node id -> CSS classes of its box, for every node box of the picture."""
    root = ET.fromstring(svg)
    return {
        group.attrib["data-node"]: set(group.attrib["class"].split())
        for group in root.iter(f"{SVG}g")
        if "data-node" in group.attrib
    }


@pytest.mark.parametrize(
    ("condition", "text"),
    [
        ({"field": "nlu.intent", "operator": "equals", "value": "affirm"}, "intent = affirm"),
        ({"field": "slots.x", "operator": "exists"}, "slots.x exists"),
        ({"field": "slots.x", "operator": "not_exists"}, "slots.x not exists"),
        ({"field": "turn.count", "operator": "gte", "value": 3}, "turn.count ≥ 3"),
        ({"field": "slots.n", "operator": "not_equals", "value": 2}, "slots.n ≠ 2"),
        ({"field": "input.text", "operator": "matches", "value": "^no"}, "input.text matches ^no"),
        ({"field": "nlu.intent", "operator": "in", "value": ["a", "b"]}, "intent in [a, b]"),
        (
            {"any": [{"field": "slots.x", "operator": "exists"}, {"not": {"field": "slots.y"}}]},
            "any(slots.x exists, not(slots.y = null))",
        ),
        (
            {"all": [{"field": "context.k", "operator": "contains", "value": "v"}]},
            "all(context.k contains v)",
        ),
    ],
)
def test_conditions_read_compactly(condition: dict[str, Any], text: str) -> None:
    transition = Transition.model_validate({"target": "x", "condition": condition})
    assert condition_text(transition.condition) == text


def test_mermaid_has_every_node_and_labelled_edge(coffee: Scenario) -> None:
    text = to_mermaid(coffee)
    keys = mermaid_keys(text)

    assert text.startswith("flowchart TD\n")
    assert set(keys) == {node.id for node in coffee.nodes}
    assert f'{keys["welcome"]} -->|"intent = goodbye"| {keys["bye"]}' in text
    assert f'{keys["welcome"]} -.->|"default"| {keys["take_order"]}' in text
    assert f'{keys["confirm"]} -->|"intent in [deny, change]"| {keys["take_order"]}' in text
    assert '-->|"any(entities.drink exists, entities.size exists)"|' in text
    # global transitions start from the "*" pseudo-node; actions are self-loops
    assert 'g(("*"))' in text
    assert 'g -->|"help if intent = help"| g' in text
    assert f"class {keys['done']},{keys['bye']} terminal" in text
    assert f"class {keys['welcome']} entry" in text
    assert not re.search(r"^\s+class \S+ (path|visited)$", text, re.M)
    assert "linkStyle" not in text


def test_mermaid_highlights_the_path_and_shades_coverage(coffee: Scenario) -> None:
    text = to_mermaid(coffee, path=ORDER_PATH, coverage={"welcome", "take_order"})
    keys = mermaid_keys(text)
    edges = [line.strip() for line in text.splitlines() if "->" in line]

    assert f"class {','.join(keys[n] for n in ORDER_PATH)} path" in text
    assert f"class {keys['welcome']},{keys['take_order']} visited" in text
    styled = re.search(r"linkStyle ([\d,]+) ", text)
    assert styled is not None
    highlighted = [edges[int(i)] for i in styled.group(1).split(",")]
    assert highlighted == [
        f'{keys["welcome"]} -.->|"default"| {keys["take_order"]}',
        f'{keys["take_order"]} -.->|"default"| {keys["confirm"]}',
        f'{keys["confirm"]} -->|"intent = affirm"| {keys["done"]}',
    ]


def test_a_move_by_global_transition_highlights_the_global_edge() -> None:
    goodbye = {"field": "nlu.intent", "operator": "equals", "value": "goodbye"}
    scenario = Scenario.from_dict(
        make_graph(
            [
                {"id": "a", "default_next": "b"},
                {"id": "b", "default_next": "a"},
                {"id": "end", "terminal": True},
            ],
            global_transitions=[{"condition": goodbye, "target": "end"}],
        )
    )
    text = to_mermaid(scenario, path=["a", "b", "end"])
    assert 'g -->|"intent = goodbye"| n2' in text
    assert "linkStyle 0,1 " in text  # the global edge (first) and a -> b


def test_the_svg_is_well_formed_with_one_box_per_node(coffee: Scenario) -> None:
    svg = to_svg(coffee, path=ORDER_PATH, coverage={"welcome"})
    classes = nodes_of(svg)

    root = ET.fromstring(svg)
    assert len([g for g in root.iter(f"{SVG}g") if "data-node" in g.attrib]) == 5
    assert set(classes) == {node.id for node in coffee.nodes}
    assert {n for n, c in classes.items() if "dk-terminal" in c} == {"done", "bye"}
    assert {n for n, c in classes.items() if "dk-entry" in c} == {"welcome"}
    assert {n for n, c in classes.items() if "dk-path" in c} == set(ORDER_PATH)
    assert {n for n, c in classes.items() if "dk-visited" in c} == {"welcome"}
    texts = "".join(root.itertext())
    assert "intent = goodbye" in texts and "default" in texts


def test_the_svg_draws_dangling_targets_and_escapes_text() -> None:
    scenario = Scenario.from_dict(
        make_graph(
            [
                {"id": "start", "name": "시작 <인사>", "next_nodes": [{"target": "ghost"}]},
                {"id": "orphan", "terminal": True},
            ]
        )
    )
    svg = to_svg(scenario)
    classes = nodes_of(svg)
    assert "dk-missing" in classes["ghost"]
    assert set(classes) == {"start", "orphan", "ghost"}
    assert "시작 <인사>" in "".join(ET.fromstring(svg).itertext())


def test_html_works_offline(coffee: Scenario) -> None:
    page = to_html(coffee, path=ORDER_PATH)
    assert "<svg" in page
    assert "<script" not in page.lower()
    assert not re.search(r"(src|href)=\"https?:", page)
    assert "flowchart TD" in page  # the Mermaid source, for copying


def test_a_graph_view_shows_the_path_of_a_conversation(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(coffee)
    session.send("a large latte please")
    transcript = Transcript.from_session(session)
    view = GraphView.of_transcript(coffee, transcript)

    assert transcript.path == ["welcome", "confirm"]
    classes = nodes_of(view.to_svg())
    assert {n for n, c in classes.items() if "dk-path" in c} == {"welcome", "confirm"}
    assert "<svg" in view._repr_html_()
    assert "class n0,n2 visited" in view.to_mermaid()
