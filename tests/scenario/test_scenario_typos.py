"""Typos in scenarios: unknown keys are kept but reported, names get "did you mean"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.cli import main
from dialogkit.scenario.validate import one_edit_apart, validate_document
from tests.helpers import make_graph

END = {"id": "end", "description": "End.", "terminal": True}


def problems(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    _, found = validate_document(data)
    return {p.path: (p.severity, p.message) for p in found}


def test_an_unknown_key_is_a_warning_with_its_path_and_a_suggestion(engine: Engine) -> None:
    data = make_graph([{"id": "a", "description": "A.", "defualt_next": "end"}, END])
    data["graph"]["nodes"][0]["params"] = {"skil": "x", "response_mode": "direct"}
    found = problems(data)
    assert found["graph.nodes[0].defualt_next"] == (
        "warning",
        "Unknown key `defualt_next`; did you mean `default_next`? As written it is ignored, "
        "so the field does nothing.",
    )
    assert "did you mean `skill`?" in found["graph.nodes[0].params.skil"][1]
    engine.start(data)  # kept and ignored: still a usable graph


def test_an_unknown_key_with_nothing_close_is_still_reported() -> None:
    data = make_graph([{"id": "a", "description": "A.", "terminal": True, "colour": "red"}])
    assert problems(data)["graph.nodes[0].colour"] == (
        "warning",
        "Unknown key `colour`; it is kept and ignored.",
    )


def test_unknown_keys_inside_conditions_and_transitions_have_paths() -> None:
    condition = {"field": "slots.x", "operater": "exists"}
    node = {
        "id": "a",
        "description": "A.",
        "next_nodes": [{"target": "end", "condition": condition}],
    }
    data = make_graph([node, END], slots={"x": {"type": "text", "prompt": "X?"}})
    found = problems(data)
    assert "did you mean `operator`?" in found["graph.nodes[0].next_nodes[0].condition.operater"][1]


@pytest.mark.parametrize(
    ("change", "path", "hint"),
    [
        ({"default_next": "ned"}, "graph.nodes[0].default_next", "did you mean `end`?"),
        ({"collect_slots": ["nmae"]}, "graph.nodes[0].collect_slots[0]", "did you mean `name`?"),
        (
            {
                "next_nodes": [
                    {"target": "end", "condition": {"field": "slots.name", "operator": "equal"}}
                ]
            },
            "graph.nodes[0].next_nodes[0].condition.operator",
            "did you mean `equals`?",
        ),
        (
            {
                "next_nodes": [
                    {"target": "end", "condition": {"field": "slots.nmae", "operator": "exists"}}
                ]
            },
            "graph.nodes[0].next_nodes[0].condition.field",
            "did you mean `name`?",
        ),
    ],
)
def test_unknown_targets_slots_and_operators_suggest_the_close_name(
    change: dict[str, Any], path: str, hint: str
) -> None:
    node = {"id": "a", "description": "A.", **change}
    name = {"type": "text", "prompt": "Name?", "examples": ["Emma"]}
    data = make_graph([node, END], slots={"name": name})
    severity, message = problems(data)[path]
    assert severity == "error" and hint in message


def test_an_undeclared_intent_is_a_warning_that_suggests_a_declared_one() -> None:
    condition = {"field": "nlu.intent", "operator": "equals", "value": "order_piza"}
    node = {
        "id": "a",
        "description": "A.",
        "next_nodes": [{"target": "end", "condition": condition}],
    }
    data = make_graph([node, END], intents={"order_pizza": {"examples": ["a pizza please"]}})
    severity, message = problems(data)["graph.nodes[0].next_nodes[0].condition.value"]
    assert severity == "warning" and "did you mean `order_pizza`? Language-model NLU" in message
    assert "?." not in message  # the suggestion ends the sentence


def write(folder: Path, data: dict[str, Any]) -> str:
    path = folder / "graph.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cli_strict_fails_on_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = write(
        tmp_path, make_graph([{"id": "a", "description": "A.", "terminal": True, "x": 1}])
    )
    assert main(["validate", target]) == 0
    assert main(["validate", "--strict", target]) == 1
    out = capsys.readouterr().out
    assert "Unknown key `x`" in out


def test_cli_says_a_missing_file_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.json")
    assert main(["validate", missing]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line == f"{missing}: the file does not exist."
    assert line.count("missing.json") == 1


def test_cli_messages_do_not_repeat_the_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.count("bad.json") == 1 and "invalid JSON" in out


@pytest.mark.parametrize(
    ("typed", "known", "near"),
    [
        ("colect_slots", "collect_slots", True),  # a letter left out
        ("collect_sslots", "collect_slots", True),  # a letter doubled
        ("collect_slits", "collect_slots", True),  # a letter replaced
        ("defualt_next", "default_next", True),  # neighbours swapped
        ("Terminal", "terminal", True),  # case only
        ("terminal", "terminal", False),
        ("colect_slot", "collect_slots", False),  # two edits
        ("deafult_nxet", "default_next", False),
    ],
)
def test_one_edit_apart(typed: str, known: str, near: bool) -> None:
    assert one_edit_apart(typed, known) is near


def test_cli_fails_on_a_key_one_edit_from_a_known_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: Engine
) -> None:
    """`colect_slots` makes the node collect nothing: the graph still runs (the library and
    the HTTP validate endpoint call it a warning), but `dialogkit validate` fails."""
    node = {"id": "a", "description": "A.", "colect_slots": ["name"], "default_next": "end"}
    name = {"type": "text", "prompt": "Name?", "examples": ["Emma"]}
    data = make_graph([node, END], slots={"name": name})
    assert problems(data)["graph.nodes[0].colect_slots"][0] == "warning"
    engine.start(data)
    assert main(["validate", write(tmp_path, data)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(": invalid (1 error, 0 warnings)")
    assert out[1] == (
        "  error: graph.nodes[0].colect_slots: Unknown key `colect_slots`; did you mean "
        "`collect_slots`? As written it is ignored, so the field does nothing."
    )


def test_structure_errors_do_not_hide_the_content_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two type errors and three content problems, all in the first run."""
    node = {
        "id": "a",
        "description": "A.",
        "collect_slots": ["nmae"],
        "wait_for_input": "sometimes",
        "default_next": "ned",
    }
    name = {"type": "text", "prompt": "Name?", "examples": ["Emma"]}
    data = make_graph([node, END], slots={"name": name})
    data["graph"]["nodes"][1]["terminal"] = "yes please"
    data["graph"]["global_transitions"] = [{"target": "nowhere"}]
    found = problems(data)
    assert found["graph.nodes[0].wait_for_input"][0] == "error"
    assert found["graph.nodes[1].terminal"][0] == "error"
    assert "did you mean `name`?" in found["graph.nodes[0].collect_slots[0]"][1]
    assert "did you mean `end`?" in found["graph.nodes[0].default_next"][1]
    assert found["graph.global_transitions[0].target"][0] == "error"

    assert main(["validate", write(tmp_path, data)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{tmp_path / 'graph.json'}: invalid, the graph cannot be parsed\n")
    assert out.count("  error: ") == 5


def test_a_document_that_cannot_be_read_further_reports_its_structure_only() -> None:
    data = make_graph([{"description": "No id.", "default_next": "ned"}, END], entry="end")
    found = problems(data)
    assert found["graph.nodes[0].id"] == ("error", "This field is required.")
    assert "graph.nodes[0].default_next" not in found


def test_a_suggestion_ends_the_sentence_without_a_stray_full_stop() -> None:
    slot_condition = {"field": "slots.nmae", "operator": "exists"}
    entity = {"field": "nlu.entities.nmae", "operator": "exists"}
    node = {
        "id": "a",
        "description": "A.",
        "next_nodes": [
            {"target": "end", "condition": slot_condition},
            {"target": "end", "condition": entity},
        ],
    }
    name = {"type": "text", "prompt": "Name?", "examples": ["Emma"]}
    data = make_graph([node, END], slots={"name": name})
    messages = [text for _severity, text in problems(data).values()]
    assert sum("did you mean `name`?" in text for text in messages) == 2
    for text in messages:
        assert "?." not in text and ".." not in text, text
