"""Loading scenarios, conditions, templates, the registry and the committed JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Scenario, ScenarioError, ScenarioInvalid, ScenarioNotFound
from dialogkit.cli import schema_json
from dialogkit.scenario.conditions import compile_condition, evaluate
from dialogkit.scenario.model import AllOf, Condition, Transition
from dialogkit.scenario.templates import render
from tests.helpers import ROOT, make_graph

SCOPE: dict[str, Any] = {
    "nlu": {"intent": "order", "entities": {"drink": "latte"}, "confidence": 0.9},
    "slots": {"age": 42, "name": "Kim", "tags": ["a", "b"], "empty": ""},
    "context": {"mood": "low"},
    "user": {"name": "Lee", "location": {"latitude": 37.5, "longitude": 127.0}},
    "input": {"text": "I'd like a latte", "confidence": 0.8},
    "turn": {"count": 3, "node_turns": 1, "fallbacks": 0},
}


def cond(data: dict[str, Any]) -> bool:
    """The condition evaluated, and compiled as the engine runs it: both must agree."""
    expr = Transition.model_validate({"target": "x", "condition": data}).condition
    held = evaluate(expr, SCOPE)
    assert compile_condition(expr)(SCOPE) is held
    return held


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ({"field": "nlu.intent", "operator": "equals", "value": "order"}, True),
        ({"field": "nlu.intent", "operator": "equals", "value": "other"}, False),
        ({"field": "nlu.intent", "operator": "not_equals", "value": "other"}, True),
        ({"field": "slots.missing", "operator": "not_equals", "value": "x"}, True),
        ({"field": "nlu.entities.drink", "operator": "in", "value": ["latte", "mocha"]}, True),
        ({"field": "nlu.entities.drink", "operator": "not_in", "value": ["latte"]}, False),
        ({"field": "input.text", "operator": "contains", "value": "LATTE"}, True),
        ({"field": "slots.tags", "operator": "contains", "value": "b"}, True),
        ({"field": "slots.name", "operator": "exists"}, True),
        ({"field": "slots.empty", "operator": "exists"}, False),
        ({"field": "slots.nope", "operator": "not_exists"}, True),
        ({"field": "slots.age", "operator": "gt", "value": 41}, True),
        ({"field": "slots.age", "operator": "gte", "value": 42}, True),
        ({"field": "slots.age", "operator": "lt", "value": 42}, False),
        ({"field": "slots.age", "operator": "lte", "value": "42"}, True),
        ({"field": "slots.name", "operator": "gt", "value": 3}, False),
        ({"field": "input.text", "operator": "matches", "value": r"\blatte\b"}, True),
        ({"field": "input.text", "operator": "matches", "value": "("}, False),
        ({"field": "user.location.latitude", "operator": "gt", "value": 30}, True),
        ({"field": "turn.count", "operator": "equals", "value": 3}, True),
        ({"field": "context.mood", "operator": "bogus", "value": "low"}, False),
        # Compiled shortcuts: a word compared as written, paths through lists and non-dicts.
        ({"field": "slots.age", "operator": "equals", "value": "forty"}, False),
        ({"field": "slots.age", "operator": "not_equals", "value": "forty"}, True),
        ({"field": "slots.age", "operator": "equals", "value": "42"}, True),
        ({"field": "slots.tags.1", "operator": "equals", "value": "b"}, True),
        ({"field": "slots.name.first", "operator": "equals", "value": "Kim"}, False),
        ({"field": "slots.nope.deeper", "operator": "not_equals", "value": "x"}, True),
        ({"field": "slots.age", "operator": "not_in", "value": ["a", "b"]}, True),
        ({"field": "slots.nope", "operator": "in", "value": ["a", "b"]}, False),
        ({"field": "slots.age", "operator": "in", "value": ["a", "42"]}, True),
        (
            {
                "all": [
                    {"field": "slots.age", "operator": "gt", "value": 1},
                    {"field": "context.mood", "operator": "equals", "value": "low"},
                ]
            },
            True,
        ),
        (
            {
                "any": [
                    {"field": "slots.age", "operator": "lt", "value": 1},
                    {"field": "context.mood", "operator": "equals", "value": "high"},
                ]
            },
            False,
        ),
        ({"not": {"field": "slots.age", "operator": "lt", "value": 1}}, True),
    ],
)
def test_condition_operators(condition: dict[str, Any], expected: bool) -> None:
    assert cond(condition) is expected


def test_absent_condition_always_matches() -> None:
    assert evaluate(None, SCOPE)
    assert compile_condition(None)(SCOPE)


def test_nested_combinators_parse_to_models() -> None:
    transition = Transition.model_validate(
        {"target": "x", "condition": {"all": [{"any": [{"field": "slots.a"}]}]}}
    )
    assert isinstance(transition.condition, AllOf)
    inner = transition.condition.all[0]
    assert isinstance(inner.any[0], Condition)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("Hello {user.name}!", "Hello Lee!"),
        ("Hi {name}", "Hi Kim"),
        ("Hi {slots.nickname|friend}", "Hi friend"),
        ("Tags: {tags}", "Tags: a, b"),
        ("You said {input.text}", "You said I'd like a latte"),
        ("Missing {slots.nope} stays quiet", "Missing stays quiet"),
        ("{{literal}} braces", "{literal} braces"),
        ("Broken {placeholder", "Broken {placeholder"),
        ("{context.mood|ok} mood", "low mood"),
    ],
)
def test_templates_render_safely(template: str, expected: str) -> None:
    assert render(template, SCOPE) == expected


def test_unknown_keys_are_kept_and_ignored(coffee_data: dict[str, Any]) -> None:
    coffee_data["x_owner"] = {"team": "research"}
    coffee_data["graph"]["nodes"][0]["x_color"] = "blue"
    scenario = Scenario.from_dict(coffee_data)
    assert scenario.is_valid
    assert scenario.to_dict()["x_owner"] == {"team": "research"}
    assert scenario.nodes[0].model_extra == {"x_color": "blue"}


def test_docs_example_graph_is_valid_without_warnings(coffee: Scenario) -> None:
    assert coffee.validate() == []


def test_from_file_reports_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioNotFound, match="does not exist"):
        Scenario.from_file(tmp_path / "nope.json")


def test_from_file_reports_json_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"metadata": {\n  "slug": }', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"line 2, column 11"):
        Scenario.from_file(path)


def test_structure_error_names_the_json_path() -> None:
    data = make_graph([{"id": "a", "next_nodes": [{"target": "a", "condition": {"all": "x"}}]}])
    with pytest.raises(ScenarioInvalid) as caught:
        Scenario.from_dict(data)
    assert caught.value.problems[0].path == "graph.nodes[0].next_nodes[0].condition.all"


def test_non_object_scenario_is_rejected() -> None:
    with pytest.raises(ScenarioInvalid, match="must be a JSON object"):
        Scenario.from_dict(["not", "a", "graph"])


def write_registry(folder: Path, entries: dict[str, str], graphs: dict[str, Any]) -> None:
    (folder / "registry.json").write_text(json.dumps(entries), encoding="utf-8")
    for file, graph in graphs.items():
        (folder / file).write_text(json.dumps(graph), encoding="utf-8")


def test_registry_is_case_insensitive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    graph = make_graph([{"id": "a", "terminal": True, "description": "End."}])
    write_registry(tmp_path, {"Demo_One": "demo.json"}, {"demo.json": graph, "other.json": graph})
    monkeypatch.setenv("DIALOGKIT_SCENARIOS_DIR", str(tmp_path))
    assert Scenario.load("demo_one").slug == "t"
    assert Scenario.load("  DEMO_ONE ").slug == "t"
    with pytest.raises(ScenarioNotFound, match="'other' is not registered"):
        Scenario.load("other")
    assert Scenario.from_file(tmp_path / "other.json").slug == "t"
    with pytest.raises(ScenarioNotFound, match="empty"):
        Scenario.load("")


def test_a_misspelt_registered_name_gets_a_suggestion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = make_graph([{"id": "a", "terminal": True, "description": "End."}])
    write_registry(tmp_path, {"card_issuance": "card.json"}, {"card.json": graph})
    monkeypatch.setenv("DIALOGKIT_SCENARIOS_DIR", str(tmp_path))
    with pytest.raises(ScenarioNotFound) as misspelt:
        Scenario.load("card_isuance")
    assert str(misspelt.value).endswith("; did you mean `card_issuance`?")
    with pytest.raises(ScenarioNotFound) as unrelated:
        Scenario.load("weather")
    assert "did you mean" not in str(unrelated.value)
    assert str(unrelated.value).endswith("(registered: card_issuance).")


def test_committed_schema_is_current() -> None:
    committed = (ROOT / "scenarios" / "scenario.schema.json").read_text(encoding="utf-8")
    assert committed == schema_json(), "run `make schema` to regenerate scenario.schema.json"


def test_schema_validates_the_example_graph(coffee_data: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(schema_json())
    jsonschema.validate(coffee_data, schema)
    coffee_data["graph"]["nodes"][0]["terminal"] = "sometimes"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(coffee_data, schema)
