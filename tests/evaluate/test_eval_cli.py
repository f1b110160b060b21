"""``dialogkit eval`` as a user types it: defaults, the skill runtime it starts, the report,
``--goals``, ``--end-node``, the clock, and errors that say what to do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dialogkit import Scenario
from dialogkit.cli import main
from dialogkit.evaluate import Goal, Results, evaluate
from dialogkit.evaluate.clock import Clock
from dialogkit.evaluate.paraphrase import ACTS
from dialogkit.evaluate.report import warnings
from dialogkit.evaluate.rule_user import RuleUser
from dialogkit.evaluate.users import PERSONAS
from dialogkit.scenario.validate import validate_document
from tests.helpers import COFFEE, ROOT, make_graph

RESTAURANT = COFFEE.parent / "restaurant_ja.json"


def dialogkit_command() -> list[str]:
    """The installed ``dialogkit`` script next to this interpreter (else ``-m``)."""
    script = Path(sys.executable).parent / "dialogkit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "dialogkit.cli"]


def test_eval_with_no_flags_starts_the_skill_runtime_and_reports_per_persona() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SKILL_RUNTIME_BASE_URL"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [*dialogkit_command(), "eval", "card_issuance", "--users", "60", "--models", "offline"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first = out.splitlines()[0]
    assert first.startswith("skill runtime: started the embedded reference runtime for issue_card")
    assert "success per persona:" in out
    for persona in PERSONAS:
        assert persona in out
    assert "SKILL_RUNTIME_UNAVAILABLE" not in out


def test_help_lists_personas_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for persona in PERSONAS:
        assert persona in text
    assert "(default: 100)" in text and "(default: mix)" in text
    assert "--end-node" in text and "--goals FILE" in text
    assert "(default: 2026-01-05T10:00:00+00:00)" in text


def test_a_failing_run_prints_a_transcript_turn_by_turn_and_saves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    goals = tmp_path / "goals.jsonl"
    goals.write_text(
        json.dumps({"slots": {"drink": "latte", "size": "small"}, "end_reason": "vip"}) + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ["eval", str(COFFEE), "--goals", str(goals), "--persona", "cooperative"]
    assert main([*args, "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "wrong_end: completed, but not at the end (node or end reason) the goal names" in text
    assert "--- a wrong_end conversation (offline/0/0):" in text
    assert "[welcome -> confirm]" in text and "user: " in text and "nlu:  " in text
    assert '"drink": "latte"' in text  # the slots after a turn
    assert (out / "report.txt").read_text(encoding="utf-8") in text
    saved = Results.load(out)
    assert saved.conversations.loc[0, "kind"] == "wrong_end"
    assert saved.turns.iloc[-1]["slots"]["drink"] == "latte"


def test_end_node_and_goals_errors_say_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", str(COFFEE), "--end-node", "vip", "--no-progress"]) == 2
    assert "--end-node 'vip' is not a node; terminal nodes: ['done', 'bye']" in (
        capsys.readouterr().out
    )
    bad = tmp_path / "goals.json"
    bad.write_text('[{"slots": {}, "mood": "happy"}]', encoding="utf-8")
    assert main(["eval", str(COFFEE), "--goals", str(bad), "--no-progress"]) == 2
    assert "goal [0].mood: Extra inputs are not permitted" in capsys.readouterr().out
    assert main(["eval", str(COFFEE), "--goals", str(tmp_path / "none.json")]) == 2
    assert "cannot read it" in capsys.readouterr().out


def test_end_node_sends_every_goal_to_that_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(COFFEE), "--users", "4", "--end-node", "bye", "--no-progress"]) == 0
    assert "success per persona" in capsys.readouterr().out
    results = evaluate(
        Scenario.from_file(COFFEE), 4, end_node="bye", persona="cooperative", progress=False
    )
    assert set(results.conversations["end_node"]) == {"bye"}
    # Saying goodbye straight away reaches it, but asks for nothing the user wanted.
    assert set(results.conversations["kind"]) == {"asked_nothing"}


def test_goals_and_sessions_share_one_clock() -> None:
    # A relative example ("明日", "来週の金曜日") means the same day to goal and session.
    clock = Clock("2031-03-02T21:00:00+09:00", "Asia/Tokyo")
    scenario = Scenario.from_file(RESTAURANT)
    goals = Goal.sample_many(scenario, 20, clock=clock)
    assert all(goal.slots["visit_date"] > "2031-03-02" for goal in goals)
    results = evaluate(
        scenario,
        goals,
        persona="cooperative",
        date_time=clock.date_time,
        timezone=clock.timezone,
        progress=False,
    )
    assert results.conversations["success"].all()
    assert results.meta["date_time"] == clock.date_time


def test_eval_values_must_be_values_the_slot_accepts() -> None:
    data = json.loads(RESTAURANT.read_text(encoding="utf-8"))
    data["slots"]["party_size"]["eval_values"] = ["2名", "12名"]
    _, problems = validate_document(data)
    assert [str(p) for p in problems if "eval_values" in p.path] == [
        "error: slots.party_size.eval_values[1]: '12名' is not a valid integer value for this "
        "slot (type, values, pattern and validation); fix or remove it."
    ]
    data["slots"]["party_size"]["eval_values"] = ["3名"]
    goals = Goal.sample_many(Scenario.from_dict(data), 5)
    assert {goal.slots["party_size"] for goal in goals} == {3}


def test_paraphrasing_users_do_not_use_the_scenarios_examples() -> None:
    scenario = Scenario.from_file(COFFEE)
    examples = {e for intent in scenario.document.intents.values() for e in intent.examples}
    results = evaluate(scenario, 30, persona="paraphrasing", seed=2, progress=False)
    said = set(results.turns["user_text"])
    assert not said & examples
    assert said & set(ACTS["affirm"]["en"])
    assert RuleUser(Goal(), "paraphrasing").persona == "paraphrasing"


def test_a_scenario_mostly_won_by_nonsense_is_warned_about() -> None:
    # "yes" at the start completes the session before the drink is ever asked for.
    scenario = Scenario.from_dict(
        make_graph(
            [
                {
                    "id": "start",
                    "description": "Start.",
                    "next_nodes": [
                        {
                            "condition": {
                                "field": "nlu.intent",
                                "operator": "equals",
                                "value": "affirm",
                            },
                            "target": "done",
                        }
                    ],
                    "default_next": "ask",
                },
                {
                    "id": "ask",
                    "description": "Ask.",
                    "collect_slots": ["drink"],
                    "default_next": "done",
                },
                {"id": "done", "description": "Done.", "terminal": True},
            ],
            slots={"drink": {"type": "enum", "values": ["tea"], "prompt": "Drink?"}},
        )
    )
    results = evaluate(scenario, 5, persona="cooperative", progress=False)
    assert results.summary().loc["offline", "nonsense"] == 5
    assert warnings(results) == [
        "offline: 5 of 5 runs that ended well by the graph are nonsense (see the asked_nothing "
        "/ loop / goal_unaskable kinds); the success rate says little about this scenario"
    ]
    assert "warning: offline: 5 of 5" in results.report()


def test_without_the_embedded_runtime_the_error_names_the_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SKILL_RUNTIME_BASE_URL", raising=False)
    monkeypatch.setitem(sys.modules, "dialogkit.skills.runtime", None)  # the extra is missing
    assert main(["eval", "card_issuance", "--users", "2", "--no-progress"]) == 2
    said = capsys.readouterr().out
    assert said.startswith("error: The scenario calls skills (issue_card)")
    assert "SKILL_RUNTIME_BASE_URL" in said and "--skill-runtime embedded" in said
