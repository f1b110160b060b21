"""Every named failure kind, each from a small graph made to produce it, and the outcomes
a graph implies when its terminal nodes declare none."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter
from dialogkit.evaluate import Goal, Results, evaluate
from dialogkit.evaluate.failures import KINDS, NONSENSE, alternates
from dialogkit.evaluate.outcomes import outcomes_of
from dialogkit.evaluate.runner import turn_budget
from dialogkit.skills._base import SkillOutcome
from tests.helpers import COFFEE, RecordingSkills, make_graph

DRINK = {
    "type": "enum",
    "values": ["latte", "tea"],
    "prompt": "Which drink?",
    "description": "The drink.",
}
GOODBYE_TO_CANCELLED = [
    {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": "goodbye"},
        "target": "cancelled",
    }
]


def node(node_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "description": f"The {node_id} node.", **fields}


def intent_is(name: str) -> dict[str, Any]:
    return {"field": "nlu.intent", "operator": "equals", "value": name}


def only(results: Results) -> dict[str, Any]:
    rows = results.conversations.to_dict("records")
    assert len(rows) == 1
    row: dict[str, Any] = rows[0]
    return row


def run_one(scenario: Scenario, goal: Goal | None = None, **options: Any) -> dict[str, Any]:
    users: Any = [goal] if goal is not None else 1
    options.setdefault("persona", "cooperative")
    return only(evaluate(scenario, users, progress=False, **options))


def test_every_kind_is_described_and_nonsense_kinds_are_kinds() -> None:
    assert set(KINDS) >= NONSENSE
    assert all(text for text in KINDS.values())


def test_completing_without_asking_for_any_goal_slot_is_nonsense() -> None:
    # "yes" at the start ends the session before the drink is ever asked for.
    scenario = Scenario.from_dict(
        make_graph(
            [
                node(
                    "start",
                    next_nodes=[{"condition": intent_is("affirm"), "target": "done"}],
                    default_next="ask",
                ),
                node("ask", collect_slots=["drink"], default_next="done"),
                node("done", terminal=True),
            ],
            slots={"drink": DRINK},
        )
    )
    row = run_one(scenario)
    assert row["complete"] and row["end_node"] == "done"
    assert (row["success"], row["kind"], row["nonsense"]) == (False, "asked_nothing", True)
    assert row["failure"] == "completed at done without asking for any goal slot"


def test_bouncing_between_two_nodes_is_a_loop_and_stops_the_conversation() -> None:
    # "b" looks one step from the end, but its way there needs context nobody sets.
    scenario = Scenario.from_dict(
        make_graph(
            [
                node("a", next_nodes=[{"condition": intent_is("affirm"), "target": "b"}]),
                node(
                    "b",
                    next_nodes=[
                        {
                            "condition": {"field": "context.ready", "operator": "exists"},
                            "target": "done",
                        }
                    ],
                    default_next="a",
                ),
                node("done", terminal=True),
            ]
        )
    )
    row = run_one(scenario, max_turns=30)
    assert (row["kind"], row["nonsense"], row["success"]) == ("loop", True, False)
    assert row["failure"] == "alternated between b and a"
    assert row["user_turns"] == 8


def test_alternation_needs_two_nodes_in_turn() -> None:
    assert alternates(["a", "b"] * 4) == ("a", "b")
    assert alternates(["a", "b"] * 3) is None
    assert alternates(["a"] * 8) is None
    assert alternates(["c", "a", "b", "a", "b", "a", "b", "a"]) is None


def test_a_goal_wanting_a_slot_the_graph_never_asks_is_nonsense(
    coffee_data: dict[str, Any],
) -> None:
    data = coffee_data
    data["slots"]["nickname"] = {"type": "text", "prompt": "Your name?", "description": "N."}
    scenario = Scenario.from_dict(data)
    goal = Goal(slots={"drink": "latte", "size": "small", "nickname": "Al"})
    row = run_one(scenario, goal)
    assert (row["kind"], row["nonsense"]) == ("goal_unaskable", True)
    assert row["failure"] == "the graph never asks for nickname"


def test_a_session_ending_at_a_failure_end_fails() -> None:
    # The success end is cut off: the user can only say goodbye, which cancels.
    scenario = Scenario.from_dict(
        make_graph(
            [
                node("start", collect_slots=["drink"], default_next="start"),
                node("done", terminal=True),
                node("cancelled", terminal=True, outcome="failure"),
            ],
            slots={"drink": DRINK},
            global_transitions=GOODBYE_TO_CANCELLED,
        )
    )
    assert outcomes_of(scenario).of == {"done": "after_completion", "cancelled": "failure"}
    row = run_one(scenario)
    assert (row["kind"], row["end_node"]) == ("failure_end", "cancelled")


def test_a_user_with_no_way_to_its_goal_leaves() -> None:
    scenario = Scenario.from_dict(
        make_graph(
            [
                node("start", collect_slots=["drink"], default_next="start"),
                node("done", terminal=True),
            ],
            slots={"drink": DRINK},
        )
    )
    row = run_one(scenario)
    assert (row["kind"], row["left"], row["complete"]) == ("user_left", True, False)


def test_the_turn_limit_wrong_values_ends_and_expectations_are_kinds(coffee: Scenario) -> None:
    goal = Goal(slots={"drink": "latte", "size": "small"})
    assert run_one(coffee, goal, max_turns=1)["kind"] == "turn_limit"
    wrong_end = run_one(coffee, goal.model_copy(update={"end_reason": "vip"}))
    assert (wrong_end["kind"], wrong_end["failure"]) == (
        "wrong_end",
        "end reason 'order_placed', expected 'vip'",
    )
    skill = run_one(coffee, goal.model_copy(update={"skills": ["brew"]}))
    assert (skill["kind"], skill["failure"]) == ("expectation", "skill brew was not called")
    self_correcting = evaluate(
        coffee, 40, persona="self_correcting", progress=False, seed=1
    ).conversations
    assert set(self_correcting["kind"].dropna()) <= {"wrong_value", "uncorrectable"}


FIRE = {
    "target_grid": {
        "type": "pattern",
        "description": "Target grid.",
        "prompt": "Send target grid.",
        "pattern": r"(?<!\d)(?P<value>\d{4}\s?\d{4})(?!\d)",
        "eval_values": ["grid 9000 9000"],
    }
}


def fire_graph() -> Scenario:
    return Scenario.from_dict(
        make_graph(
            [
                node("ask", collect_slots=["target_grid"], default_next="fire"),
                node(
                    "fire",
                    params={
                        "skill": "fire_mission",
                        "arguments": {"gun_grid": "0950 2230", "observer_grid": "1100 2500"},
                        "input_map": {"target_grid": "slots.target_grid"},
                        "fallback": "No firing data.",
                    },
                    wait_for_input=False,
                    next_nodes=[
                        {
                            "condition": {
                                "field": "context.last_skill_status",
                                "operator": "equals",
                                "value": "error",
                            },
                            "target": "failed",
                        }
                    ],
                    default_next="done",
                ),
                node("done", terminal=True),
                node("failed", terminal=True),
            ],
            slots=FIRE,
        )
    )


def test_a_skill_refusing_the_goals_values_is_its_own_kind() -> None:
    scenario = fire_graph()
    assert outcomes_of(scenario).of == {"done": "success", "failed": "failure"}
    row = run_one(scenario, engine_options={"skill_runtime": "embedded"})
    assert row["end_node"] == "failed"
    assert row["kind"] == "skill_rejected"
    assert "fire_mission at fire: " in row["failure"]
    assert "beyond the greatest range" in row["failure"]


def test_a_skill_that_cannot_run_is_not_a_refusal() -> None:
    down = SkillOutcome(
        status="error", error_code="SKILL_RUNTIME_UNAVAILABLE", error_detail="cannot reach it"
    )
    engine = Engine(router=OfflineRouter(), skills=RecordingSkills(down))
    try:
        row = run_one(fire_graph(), engine=engine)
    finally:
        engine.close()
    assert (row["kind"], row["end_node"]) == ("skill_failed", "failed")
    assert row["failure"].startswith("SKILL_RUNTIME_UNAVAILABLE: fire_mission at fire")
    assert isinstance(engine.skills, RecordingSkills)  # the watch is gone after the run


def test_a_run_that_cannot_start_is_an_error(coffee: Scenario) -> None:
    with pytest.raises(ValueError, match="--end-node 'vip' is not a node"):
        evaluate(coffee, 1, end_node="vip", progress=False)
    with pytest.raises(ValueError, match="Unknown persona"):
        evaluate(coffee, 1, persona="grumpy", progress=False)


def test_declared_outcomes_win_and_the_graph_implies_the_rest() -> None:
    restaurant = Scenario.from_file(COFFEE.parent / "restaurant_ja.json")
    assert outcomes_of(restaurant).of == {
        "booked": "success",
        "cancelled": "failure",
        "closing": "after_completion",
    }
    small_talk = Scenario.from_file(COFFEE.parents[2] / "scenarios" / "general_conversation.json")
    # Its only way to end is goodbye: with nothing else, leaving is the success.
    assert outcomes_of(small_talk).success_ends == ["farewell"]
    companion = outcomes_of(Scenario.load("companion"))
    assert companion.of["goodbye"] == "success" and companion.of["emergency"] == "failure"
    assert companion.declared == {"goodbye", "farewell", "emergency"}


def test_long_goals_get_a_longer_turn_budget() -> None:
    checklist = Goal(slots={f"item_{n}": True for n in range(21)})
    assert turn_budget(checklist, None) == 52
    assert turn_budget(Goal(slots={"drink": "tea"}), None) == 30
    assert turn_budget(checklist, 5) == 5


def test_in_a_menu_the_user_takes_the_branch_its_goal_is_about() -> None:
    # The nearest success end (opening hours) asks for nothing the user wants.
    scenario = Scenario.from_dict(
        make_graph(
            [
                node(
                    "menu",
                    next_nodes=[
                        {"condition": intent_is("hours"), "target": "hours"},
                        {"condition": intent_is("order"), "target": "ask"},
                    ],
                ),
                node("hours", terminal=True),
                node("ask", collect_slots=["drink"], default_next="done"),
                node("done", terminal=True),
            ],
            slots={"drink": DRINK},
            intents={
                "hours": {"examples": ["when are you open"]},
                "order": {"examples": ["I want to order"]},
            },
        )
    )
    assert outcomes_of(scenario).success_ends == ["hours", "done"]
    results = evaluate(scenario, 10, persona="cooperative", progress=False).conversations
    assert set(results["end_node"]) == {"done"} and results["success"].all()


def test_a_confirmation_is_wanted_as_yes_and_denied_when_the_value_is_wrong() -> None:
    # "no" clears the answer and asks again: no goal can want it.
    scenario = Scenario.from_dict(
        make_graph(
            [
                node(
                    "ask",
                    collect_slots=["drink", "sure"],
                    next_nodes=[
                        {
                            "condition": {
                                "field": "slots.sure",
                                "operator": "equals",
                                "value": False,
                            },
                            "target": "ask",
                            "clear_slots": ["drink", "sure"],
                        },
                        {
                            "condition": {
                                "field": "slots.sure",
                                "operator": "equals",
                                "value": True,
                            },
                            "target": "done",
                        },
                    ],
                ),
                node("done", terminal=True),
            ],
            slots={"drink": DRINK, "sure": {"type": "boolean", "prompt": "{slots.drink}, right?"}},
        )
    )
    goals = Goal.sample_many(scenario, 8)
    assert all(goal.slots["sure"] is True for goal in goals)
    table = evaluate(scenario, goals, persona="self_correcting", progress=False, seed=4)
    intents = table.turns[table.turns["node_before"] == "ask"]["intent"]
    assert "deny" in set(intents)  # a wrong drink read back is denied, then given again
    assert table.conversations["success"].all()
