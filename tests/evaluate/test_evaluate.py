"""The batch runner, goals, metrics and results, offline and against loopback models."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path
from typing import Any

import matplotlib
import pytest

from dialogkit import Engine, Scenario, Settings
from dialogkit.cli import main
from dialogkit.engine.providers import OfflineRouter
from dialogkit.errors import DialogkitError
from dialogkit.evaluate import (
    Goal,
    LLMUser,
    Results,
    RuleUser,
    Situation,
    Task,
    aevaluate,
    evaluate,
    pass_hat_k,
    task_pass_hat_k,
)
from dialogkit.evaluate import results as results_module
from dialogkit.evaluate.goal import Trail
from dialogkit.evaluate.language import language_of
from dialogkit.notebook import Transcript
from dialogkit.testing import ScriptedOpenAIServer, StandInModel, StandInServer
from tests.helpers import COFFEE, ROOT

matplotlib.use("Agg")

VOLATILE = ["latency_ms", "session_id"]


def run(coffee: Scenario, **options: Any) -> Results:
    options.setdefault("progress", False)
    return evaluate(coffee, options.pop("users", 12), **options)


def test_the_same_seed_gives_identical_results(coffee: Scenario) -> None:
    first = run(coffee, repeats=2, seed=11, concurrency=8)
    second = run(coffee, repeats=2, seed=11, concurrency=3)
    other = run(coffee, repeats=2, seed=12)
    assert first.conversations.drop(columns=VOLATILE).equals(
        second.conversations.drop(columns=VOLATILE)
    )
    assert first.turns.drop(columns=["latency_ms"]).equals(
        second.turns.drop(columns=["latency_ms"])
    )
    assert list(other.turns["user_text"]) != list(first.turns["user_text"])


def test_every_persona_reaches_the_goal_offline(coffee: Scenario) -> None:
    results = run(coffee, users=40, repeats=2, seed=3)
    table = results.conversations
    assert set(table["persona"]) == {
        "cooperative",
        "terse",
        "over_informative",
        "self_correcting",
        "paraphrasing",
        "noisy",
    }
    assert table["success"].all(), table[~table["success"]][["persona", "failure"]]
    assert results.summary().loc["offline", "success"] == 1.0


def test_noisy_users_are_gated_and_silent_sometimes(coffee: Scenario) -> None:
    results = run(coffee, users=30, persona="noisy", seed=3)
    turns = results.turns
    assert turns["stt_gate"].any() and (turns["user_text"] == "").any()
    assert turns["fallback"].notna().any()
    assert results.summary().loc["offline", "stt_gate_rate"] > 0
    assert results.conversations["success"].mean() > 0.8


def test_a_goal_the_scenario_cannot_reach_fails_with_the_node_where_it_stopped(
    coffee_data: dict[str, Any],
) -> None:
    coffee_data["graph"]["nodes"].append(
        {"id": "vip", "description": "Never linked.", "terminal": True}
    )
    scenario = Scenario.from_dict(coffee_data)
    goal = Goal(slots={"drink": "latte", "size": "small"}, end_node="vip")
    results = evaluate(scenario, [goal], persona="cooperative", progress=False, max_turns=6)
    row = results.conversations.iloc[0]
    assert not row["success"]
    assert row["end_node"] == "bye"
    assert row["failure"] == "ended at node bye, expected vip"


def test_a_goal_cut_short_by_max_turns_names_the_node(coffee: Scenario) -> None:
    goal = Goal(slots={"drink": "latte", "size": "small"}, end_node="done")
    results = evaluate(coffee, [goal], persona="terse", progress=False, max_turns=1)
    row = results.conversations.iloc[0]
    assert (
        not row["success"] and row["failure"] == f"not complete: stopped at node {row['end_node']}"
    )


def test_wrong_slot_values_fail_the_goal(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(coffee)
    session.send("a large latte")
    final = session.send("yes")
    info = session.info()
    trail = Trail(final, info, session.path())
    wanted = Goal(slots={"drink": "latte", "size": "small"}, end_node="done")
    verdict = wanted.judge(coffee, trail)
    assert (verdict.kind, verdict.failure) == ("wrong_value", "slot size: 'large', wanted 'small'")
    assert (
        Goal(slots={"drink": "latte"}, skills=["brew"]).judge(coffee, trail).failure
        == "skill brew was not called"
    )
    assert Goal(slots={"size": "LARGE"}, end_reason="order_placed").judge(coffee, trail).success


def test_pass_hat_k_matches_a_hand_computed_example() -> None:
    # Three tasks, four trials each, with 2, 4 and 0 successes; k = 2:
    # C(2,2)/C(4,2) = 1/6, C(4,2)/C(4,2) = 1, 0 -> mean 7/18.
    assert task_pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_hat_k([(4, 2), (4, 4), (4, 0)], 2) == pytest.approx(7 / 18)
    assert pass_hat_k([(4, 2), (4, 4), (4, 0)], 1) == pytest.approx(0.5)
    rows = [
        _row("m", task, repeat, success)
        for task, wins in enumerate((2, 4, 0))
        for repeat, success in enumerate([True] * wins + [False] * (4 - wins))
    ]
    results = Results(rows, [], {"repeats": 4, "models": ["m"]})
    assert results.pass_hat_k(2) == {"m": pytest.approx(7 / 18)}
    assert results.summary().loc["m", "pass^4"] == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="k <= trials"):
        task_pass_hat_k(4, 2, 5)


def _row(model: str, task: int, repeat: int, success: bool) -> dict[str, Any]:
    return {
        "model": model,
        "task": task,
        "repeat": repeat,
        "success": success,
        "complete": success,
        "turn_count": 3,
        "user_turns": 2,
        "fallbacks": 0,
        "stt_gates": 0,
        "llm_calls": 0,
        "tokens": 0,
        "path": ["a", "b"] if success else ["a"],
        "transitions": [["a", "b"]] if success else [],
        "error": None,
    }


def test_funnel_transitions_and_plot(coffee: Scenario) -> None:
    results = run(coffee, users=10, seed=5)
    funnel = results.funnel().set_index("node")
    assert funnel.loc["welcome", "reached"] == 10
    assert funnel.loc["done", "completed"] == 10
    assert (funnel["dropped"] == 0).all()
    moves = results.transitions()
    assert {"welcome", "confirm"} <= set(moves["source"])
    figure = results.plot()
    assert len(figure.axes) == 4


@pytest.mark.parametrize("parquet", [True, False], ids=["parquet", "jsonl"])
def test_results_save_and_load(
    coffee: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parquet: bool
) -> None:
    monkeypatch.setattr(results_module, "_has_pyarrow", lambda: parquet)
    results = run(coffee, users=6, repeats=2, seed=2)
    folder = results.save(tmp_path / "run")
    assert (folder / ("conversations.parquet" if parquet else "conversations.csv")).is_file()
    loaded = Results.load(folder)
    assert loaded.meta == results.meta
    assert loaded.conversations.to_dict("records") == results.conversations.to_dict("records")
    assert loaded.summary().equals(results.summary())


def test_rule_users_speak_the_scenario_language() -> None:
    scenario = Scenario.load("companion")
    goal = Goal.sample(scenario, 1)
    session_engine = Engine(router=OfflineRouter())
    try:
        session = session_engine.start(scenario)
        reply = session.initial_reply
        said = RuleUser(goal, "cooperative", 1).next(
            Situation(scenario, reply, session.info().slots, 0)
        )
    finally:
        session_engine.close()
    assert said is not None and any("\uac00" <= ch <= "\ud7a3" for ch in said.text)


def test_over_informative_users_give_several_values_at_once(coffee: Scenario) -> None:
    goal = Goal(slots={"drink": "latte", "size": "large"})
    engine = Engine(router=OfflineRouter())
    try:
        session = engine.start(coffee)
        session.send("hello there")  # welcome -> take_order, which asks for the drink
        reply = session.send("")
        said = RuleUser(goal, "over_informative", 0).next(
            Situation(coffee, reply, session.info().slots, 1)
        )
    finally:
        engine.close()
    assert said is not None and "latte" in said.text and "large" in said.text


def test_transcript_to_pandas(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(coffee)
    session.send("a large latte")
    frame = Transcript.from_session(session).to_pandas()
    assert list(frame.columns)[:2] == ["turn", "user_text"]
    assert frame.iloc[-1]["node_after"] == "confirm"
    assert frame.iloc[-1]["user_text"] == "a large latte"


def test_stand_in_models_compare_through_loopback_http(coffee: Scenario) -> None:
    models = {
        "careful": StandInModel(coffee),
        "sloppy": StandInModel(coffee, miss_rate=0.3, style="chatty"),
    }
    with StandInServer(models) as server:
        results, rerun = (
            run(
                coffee,
                users=8,
                models=["careful", "sloppy"],
                seed=4,
                engine_options={"settings": server.settings()},
            )
            for _ in range(2)
        )
        assert {r.model for r in server.chat_requests} == {"careful", "sloppy"}
    summary = results.summary()
    assert summary.loc["careful", "llm_calls"] > 0 and summary.loc["careful", "tokens"] > 0
    assert summary.loc["sloppy", "fallback_rate"] > summary.loc["careful", "fallback_rate"]
    stable = results.conversations.drop(columns=VOLATILE)
    assert stable.equals(rerun.conversations.drop(columns=VOLATILE))


def test_llm_user_plays_the_goal_with_roles_turned_around(coffee: Scenario) -> None:
    with ScriptedOpenAIServer("a large latte please", "yes", "<END>") as server:
        settings = Settings(
            openai_base_url=server.base_url, openai_api_key="k", llm_models="player"
        )
        goal = Goal(slots={"drink": "latte", "size": "large"}, end_node="done")
        engine = Engine(settings, router=None)
        try:
            results = evaluate(
                coffee,
                [Task(goal, "terse")],
                user=LLMUser.factory("player", engine),
                engine=engine,
                progress=False,
            )
        finally:
            engine.close()
        first, second = server.chat_requests[:2]
    assert results.conversations.iloc[0]["success"]
    assert "latte" in first.system and first.model == "player"
    assert [m["role"] for m in second.messages] == ["system", "user", "assistant", "user"]


def test_an_llm_user_needs_a_served_model(coffee: Scenario) -> None:
    engine = Engine(router=None)
    try:
        with pytest.raises(DialogkitError, match="No endpoint serves"):
            evaluate(
                coffee, 1, user=LLMUser.factory("nobody", engine), engine=engine, progress=False
            )
    finally:
        engine.close()


def test_cli_eval_sets_the_exit_code_for_ci(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["eval", str(COFFEE), "--users", "6", "--seed", "7", "--no-progress"]
    level = logging.getLogger("dialogkit").level
    assert main([*common, "--min-success", "0.9", "--out", str(tmp_path / "out")]) == 0
    assert "offline" in capsys.readouterr().out
    assert Results.load(tmp_path / "out").conversations.shape[0] == 6
    assert main([*common, "--min-success", "1.01"]) == 1
    assert "FAIL offline" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["eval", str(COFFEE), "--persona", "grumpy", "--no-progress"])
    assert exit_.value.code == 2
    assert "invalid choice: 'grumpy'" in capsys.readouterr().err
    assert logging.getLogger("dialogkit").level == level  # quiet during the run only


def test_the_async_runner_runs_on_the_callers_loop(coffee_data: dict[str, Any]) -> None:
    scenario = Scenario.from_dict(copy.deepcopy(coffee_data))

    async def go() -> Results:
        engine = Engine(router=OfflineRouter())
        try:
            return await aevaluate(scenario, 4, engine=engine, progress=False)
        finally:
            await engine.aclose()

    assert asyncio.run(go()).conversations["success"].all()


def test_self_correcting_users_name_a_wrong_value_then_fix_it(coffee: Scenario) -> None:
    results = run(coffee, users=20, persona="self_correcting", seed=8)
    corrections = results.turns[results.turns["user_text"].str.startswith("no, I meant")]
    assert len(corrections) > 0
    assert results.conversations["success"].all()


def test_rule_users_speak_japanese_in_a_japanese_scenario() -> None:
    scenario = Scenario.from_file(ROOT / "scenarios" / "general_conversation.json")
    results = evaluate(scenario, 6, persona="cooperative", seed=1, progress=False)
    said = [text for text in results.turns["user_text"] if text]
    assert said and all(language_of(text) == "ja" for text in said)
    assert results.conversations["success"].all()


def test_a_replayed_run_equals_the_recorded_one(coffee: Scenario, tmp_path: Path) -> None:
    cassette = tmp_path / "models.jsonl"
    models = {"careful": StandInModel(coffee), "sloppy": StandInModel(coffee, miss_rate=0.3)}
    choices = ["offline", "careful", "sloppy"]
    with StandInServer(models) as server:
        engine = Engine(server.settings(), llm_cassette=cassette, llm_cassette_mode="record")
        try:
            recorded = run(coffee, users=8, models=choices, seed=4, engine=engine, max_turns=8)
        finally:
            engine.close()
        sent = len(server.chat_requests)
    # The model server is gone: every call is answered from the cassette.
    engine = Engine(Settings(), llm_cassette=cassette, llm_cassette_mode="replay")
    try:
        replayed = run(coffee, users=8, models=choices, seed=4, engine=engine, max_turns=8)
    finally:
        engine.close()
    assert sent > 0 and recorded.summary().loc["sloppy", "llm_calls"] > 0
    assert replayed.conversations["error"].isna().all()
    stable = replayed.conversations.drop(columns=VOLATILE)
    assert stable.equals(recorded.conversations.drop(columns=VOLATILE))
    assert list(replayed.turns["reply"]) == list(recorded.turns["reply"])


def test_a_replay_missing_calls_reports_errors_not_a_crash(
    coffee: Scenario, tmp_path: Path
) -> None:
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("", encoding="utf-8")
    models = {"careful": StandInModel(coffee)}
    with StandInServer(models) as server:
        engine = Engine(server.settings(), llm_cassette=cassette, llm_cassette_mode="replay")
        try:
            results = run(coffee, users=2, models=["careful"], engine=engine)
        finally:
            engine.close()
    assert results.summary().loc["careful", "errors"] == 2
    assert results.conversations["failure"].str.contains("CassetteMiss").all()
