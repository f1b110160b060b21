"""The conversation test runner behind ``dialogkit test``: cases, reports, coverage, exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.conversations import ScenarioReport, arun, run_paths
from dialogkit.testing.coverage import ANY_NODE, static_edges, taken_edges
from tests.helpers import make_graph

SLOTS: dict[str, Any] = {
    "size": {
        "type": "enum",
        "prompt": "Which size: small or large?",
        "values": ["small", "large"],
    },
}
NODES: list[dict[str, Any]] = [
    {
        "id": "start",
        "description": "Greet.",
        "responses": {"default": "Hi! Small or large?"},
        "accept_slots": ["size"],
        "next_nodes": [
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"},
                "target": "bye",
            }
        ],
        "default_next": "ask",
    },
    {
        "id": "ask",
        "description": "Ask the size.",
        "collect_slots": ["size"],
        "responses": {"not_understood": "Small or large, please."},
        "params": {"turn_limit_enabled": True, "turn_limit": 5, "turn_limit_next": "done"},
        "default_next": "done",
    },
    {
        "id": "done",
        "description": "Confirm.",
        "responses": {"default": "One {size} coffee."},
        "terminal": True,
    },
    {"id": "bye", "description": "Leave.", "responses": {"default": "Bye."}, "terminal": True},
]
GLOBALS = [
    {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": "goodbye"},
        "target": "bye",
    },
    {"condition": {"field": "nlu.intent", "operator": "equals", "value": "help"}, "action": "help"},
]
HAPPY = {
    "name": "happy",
    "options": {"bot_first": True},
    "initial": {"node": "start", "reply": "Hi! Small or large?", "turn_count": 1},
    "turns": [
        {"user": "a large one", "expect": {"node": "done", "reply": "One large coffee."}},
    ],
    "final": {"complete": True, "end_reason": "completed", "slots": {"size": "large"}},
}


def write_suite(folder: Path, cases: list[dict[str, Any]], **graph: Any) -> Path:
    """A scenario file and a test file referring to it by relative path; returns the latter."""
    nodes = graph.pop("nodes", NODES)
    globals_ = graph.pop("global_transitions", GLOBALS)
    document = make_graph(nodes, slots=SLOTS, global_transitions=globals_)
    document["graph"].update(graph)
    (folder / "coffee.json").write_text(json.dumps(document), encoding="utf-8")
    tests = folder / "tests"
    tests.mkdir(exist_ok=True)
    path = tests / "coffee.json"
    path.write_text(json.dumps({"scenario": "../coffee.json", "cases": cases}), encoding="utf-8")
    return path


def run(paths: list[Path], **options: Any) -> tuple[int, str]:
    out = io.StringIO()
    code = run_paths(paths, out=out, **options)
    return code, out.getvalue()


async def report_of(path: Path) -> ScenarioReport:
    reports, missing = await arun([path])
    assert missing == []
    [report] = reports
    return report


def test_passing_cases_print_one_summary_line_per_scenario(tmp_path: Path) -> None:
    path = write_suite(tmp_path, [HAPPY, {**HAPPY, "name": "happy again"}])
    code, output = run([path])
    assert code == 0
    assert output.splitlines() == [
        f"t: 2 passed, 0 failed; coverage: nodes 3/4 (75%), transitions 2/4 (50%) ({path})",
        "  unvisited nodes: bye",
        "  untaken transitions: * -> bye, start -> bye",
        "2 passed, 0 failed",
    ]
    code, listed = run([path], list_passed=True)
    assert (code, listed.splitlines()[1:3]) == (0, ["  PASS happy", "  PASS happy again"])


def test_failed_expectation_names_turn_values_and_reply(tmp_path: Path) -> None:
    failing = {
        "name": "wrong node",
        "options": {"bot_first": True},
        "turns": [
            {"user": "hmm", "expect": {"node": "ask"}},
            {"user": "small please", "expect": {"node": "ask"}},
            {"user": "never reached", "expect": {"node": "ask"}},
        ],
    }
    code, output = run([write_suite(tmp_path, [HAPPY, failing])])
    assert code == 1
    assert output.startswith("t: 1 passed, 1 failed; coverage: ")
    assert "PASS" not in output
    assert "  FAIL wrong node\n" in output
    assert "turn 2 (user: 'small please'): node: expected 'ask', got 'done'" in output
    assert "reply: 'One small coffee.'" in output
    assert output.endswith("1 passed, 1 failed\n")


@pytest.mark.parametrize(
    ("expect", "message"),
    [
        (
            {"reply_matches": "^Small"},
            "reply_matches: expected '^Small', got 'Hi! Small or large?'",
        ),
        ({"reply_contains": ["Hi", "medium"]}, "reply_contains: expected 'medium'"),
        ({"reply_not_contains": "large"}, "reply_not_contains: expected 'large'"),
        ({"complete": True}, "complete: expected True, got False"),
        ({"context": {"session_user": {"name": "Ann"}}}, "context.session_user.name"),
        ({"slots": {"size": None}}, "slots.size: expected None, got '<missing>'"),
        ({"intent": "greet"}, "intent: expected 'greet', got None"),
    ],
)
def test_each_expectation_kind_reports_what_differs(
    tmp_path: Path, expect: dict[str, Any], message: str
) -> None:
    case = {"name": "c", "options": {"bot_first": True}, "user": {"name": "Bo"}, "initial": expect}
    code, output = run([write_suite(tmp_path, [case])])
    assert code == 1
    assert f"initial: {message}" in output


def test_fallbacks_silence_and_low_confidence_are_checked(tmp_path: Path) -> None:
    case = {
        "name": "fallbacks",
        "options": {"bot_first": True},
        "turns": [
            {"user": "hmm", "expect": {"node": "ask", "fallback": None}},
            {"user": "", "expect": {"fallback": "no_input", "turn_count": 2}},
            {
                "user": "large",
                "confidence": -0.9,
                "expect": {
                    "fallback": "not_understood",
                    "intent": "stt_low_confidence",
                    "reply": "Small or large, please.",
                    "slots_absent": ["size"],
                },
            },
        ],
    }
    code, output = run([write_suite(tmp_path, [case])])
    assert (code, output.splitlines()[0].split(";")[0]) == (0, "t: 1 passed, 0 failed")


async def test_coverage_is_the_union_over_cases(tmp_path: Path) -> None:
    to_bye = {"name": "bye", "options": {"bot_first": True}, "turns": [{"user": "no"}]}
    report = await report_of(write_suite(tmp_path, [HAPPY, to_bye]))
    coverage = report.coverage
    assert coverage is not None
    assert coverage.edges == {
        ("start", "bye"),
        ("start", "ask"),
        ("ask", "done"),
        (ANY_NODE, "bye"),
    }
    assert coverage.taken == {("start", "ask"), ("ask", "done"), ("start", "bye")}
    assert (coverage.node_ratio, coverage.transition_ratio) == (1.0, 3 / 4)
    assert coverage.untaken_edges == [("*", "bye")]


async def test_a_global_transition_counts_once_from_any_node(tmp_path: Path) -> None:
    goodbye = {
        "name": "g",
        "options": {"bot_first": True},
        "turns": [{"user": "hmm"}, {"user": "bye"}],
    }
    report = await report_of(write_suite(tmp_path, [goodbye]))
    coverage = report.coverage
    assert coverage is not None
    assert coverage.taken == {("start", "ask"), (ANY_NODE, "bye")}
    assert coverage.unvisited_nodes == ["done"]
    assert coverage.node_ratio == 3 / 4


def test_edges_are_distinct_and_action_moves_do_not_count(coffee: Scenario) -> None:
    scenario = Scenario.from_dict(make_graph(NODES, slots=SLOTS, global_transitions=GLOBALS))
    assert len(static_edges(scenario)) == 4
    assert (ANY_NODE, "bye") not in static_edges(coffee)
    assert taken_edges(scenario, [("done", "start"), ("start", "ask")]) == {("start", "ask")}


def test_min_coverage_bar_decides_the_exit_code(tmp_path: Path) -> None:
    path = write_suite(tmp_path, [HAPPY])
    assert run([path], min_coverage=0.5)[0] == 0
    code, output = run([path], min_coverage=0.9)
    assert code == 1
    assert "coverage: nodes 3/4 (75%), transitions 2/4 (50%)" in output
    assert "unvisited nodes: bye" in output
    assert "coverage below 90%: t" in output


def test_a_folder_runs_the_json_files_of_its_tests_subfolder(tmp_path: Path) -> None:
    write_suite(tmp_path, [HAPPY])
    code, output = run([tmp_path])
    assert code == 0
    assert "1 passed, 0 failed" in output


async def test_files_about_one_scenario_share_one_report(tmp_path: Path) -> None:
    first = write_suite(tmp_path, [HAPPY])
    second = first.with_name("more.json")
    to_bye = {"name": "bye", "options": {"bot_first": True}, "turns": [{"user": "no"}]}
    suite = {"scenario": "../coffee.json", "cases": [to_bye]}
    second.write_text(json.dumps(suite), encoding="utf-8")
    reports, _ = await arun([tmp_path])
    [report] = reports
    assert report.files == [first, second]
    assert [case.name for case in report.cases] == ["happy", "bye"]
    assert report.coverage is not None and report.coverage.node_ratio == 1.0


def test_missing_paths_and_broken_files_fail_the_run(tmp_path: Path) -> None:
    path = write_suite(tmp_path, [{**HAPPY, "final": {"compelte": True}}])
    code, output = run([path, tmp_path / "nowhere.json"])
    assert code == 1
    assert f"ERROR {tmp_path / 'nowhere.json'}: no such file or folder" in output
    assert "cases.0.final.compelte: Extra inputs are not permitted" in output
    assert output.endswith("0 passed, 2 failed\n")


def test_nothing_to_run_is_an_error(tmp_path: Path) -> None:
    assert run([tmp_path]) == (1, "no test cases found\n")


def test_unknown_registered_scenario_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"scenario": "no_such_scenario", "cases": []}), encoding="utf-8")
    code, output = run([path])
    assert code == 1
    assert "'no_such_scenario' is not registered" in output


SKILL_NODES: list[dict[str, Any]] = [
    {
        "id": "clock",
        "description": "Tell the local time.",
        "params": {
            "skill": "local_time",
            "arguments": {"timezone": "Asia/Seoul"},
            "result_map": {"context.local_time": "local_time"},
        },
        "responses": {"skill_error": "The clock is broken."},
        "wait_for_input": False,
        "default_next": "end",
    },
    {"id": "end", "description": "End.", "responses": {"default": "Done."}, "terminal": True},
]


def test_skill_cases_reach_the_reference_runtime_or_a_closed_port(tmp_path: Path) -> None:
    base = {"options": {"bot_first": True}, "final": {"node": "end", "complete": True}}
    up = {
        **base,
        "name": "up",
        "initial": {"context": {"last_skill_status": "success"}, "reply_matches": r"\d\d:\d\d"},
    }
    down = {
        **base,
        "name": "down",
        "skill_runtime": "down",
        "initial": {"reply": "The clock is broken.", "error": False},
    }
    path = write_suite(tmp_path, [up, down], nodes=SKILL_NODES, global_transitions=[])
    code, output = run([path])
    assert output.endswith("2 passed, 0 failed\n")
    assert code == 0
