"""Goals follow each slot's declared kind; the simulated user's noise and corrections stay
wordings, never other values (found by a scout on scenarios the project had not seen)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from dialogkit import Scenario
from dialogkit.evaluate import Goal, evaluate
from dialogkit.evaluate.language import (
    ADDRESSES,
    FREE_TEXT,
    PERSON_NAMES,
    REQUESTS,
    correction,
)
from dialogkit.evaluate.rule_user import RuleUser, _typo
from dialogkit.evaluate.users import Situation
from dialogkit.scenario.model import Condition
from tests.helpers import make_graph


def slot(kind_fields: dict[str, Any]) -> dict[str, Any]:
    return {"prompt": "Tell me.", "description": "What the user says.", **kind_fields}


def form(language: str, slots: dict[str, dict[str, Any]]) -> Scenario:
    """One node per slot, in order, then an end."""
    names = list(slots)
    nodes: list[dict[str, Any]] = [
        {
            "id": f"ask_{name}",
            "description": f"Asks for {name}.",
            "collect_slots": [name],
            "default_next": f"ask_{names[i + 1]}" if i + 1 < len(names) else "done",
        }
        for i, name in enumerate(names)
    ]
    nodes.append({"id": "done", "description": "The end.", "terminal": True})
    return Scenario.from_dict(make_graph(nodes, language=language, slots=slots))


@pytest.mark.parametrize("language", ["en", "ko", "ja"])
def test_each_kind_gets_a_value_of_its_kind_in_the_scenario_language(language: str) -> None:
    scenario = form(
        language,
        {
            "who": slot({"type": "text", "kind": "person_name"}),
            "where": slot({"type": "text", "kind": "address"}),
            "note": slot({"type": "text", "kind": "free_text", "description": "A request."}),
            "why": slot({"type": "text", "kind": "free_text", "prompt": "What happened?"}),
            "mail": slot({"type": "email"}),
        },
    )
    for goal in Goal.sample_many(scenario, 30):
        assert goal.slots["who"] in PERSON_NAMES[language]
        assert goal.slots["where"] in ADDRESSES[language]
        assert goal.slots["note"] in REQUESTS[language]
        assert goal.slots["why"] in FREE_TEXT[language]
        assert goal.slots["mail"].endswith("@example.com")


@pytest.mark.parametrize(
    ("unit", "validation", "low", "high"),
    [("won", {}, 10_000, 1_000_000), ("yen", {}, 1_000, 100_000), ("usd", {"max": 50}, 5, 50)],
)
def test_money_is_an_amount_a_person_would_name_in_its_currency(
    unit: str, validation: dict[str, Any], low: int, high: int
) -> None:
    budget = {"type": "integer", "kind": "money", "unit": unit, "validation": validation}
    scenario = form("en", {"budget": slot(budget)})
    amounts = [goal.slots["budget"] for goal in Goal.sample_many(scenario, 50)]
    assert all(low <= amount <= high for amount in amounts)
    assert len(set(amounts)) > 5


@pytest.mark.parametrize(
    ("value", "language", "said"),
    [
        ("손주가 다녀갔어요", "ko", "아니요, 손주가 다녀갔어요"),
        ("윤지민", "ko", "아니요, 윤지민요"),
        ("孫が遊びに来ました", "ja", "いいえ、孫が遊びに来ました"),
        ("田中健太", "ja", "いいえ、田中健太です"),
        ("tea", "en", "no, I meant tea"),
    ],
)
def test_a_correction_never_doubles_a_sentence_ending(value: str, language: str, said: str) -> None:
    assert correction(value, language) == said


def test_a_typo_never_lands_inside_a_value_the_user_means() -> None:
    email = "user527@example.com"
    for seed in range(200):
        rng = random.Random(seed)
        typed = _typo(f"no, I meant {email}", rng, [email])
        assert typed is not None and typed.endswith(email) and typed != f"no, I meant {email}"
        assert _typo("田中健太", rng, ["田中健太"]) is None
        assert _typo("2026-02-05", rng, []) is None


def test_noisy_users_keep_their_true_values_and_never_say_none() -> None:
    scenario = form(
        "ja",
        {
            "who": slot({"type": "text", "kind": "person_name"}),
            "mail": slot({"type": "email"}),
            "day": slot({"type": "date", "validation": {"period": "future"}}),
        },
    )
    results = evaluate(scenario, 40, persona="noisy", progress=False)
    goals: list[dict[str, Any]] = list(results.conversations["goal"])
    said = " ".join(results.turns["user_text"])
    assert "None" not in said
    for goal in goals:
        assert goal["who"] in PERSON_NAMES["ja"]
        assert goal["mail"].startswith("user")
    wrong = results.conversations[results.conversations["kind"] == "wrong_value"]
    assert not any("@example.com" in text for text in wrong["failure"])


def test_the_validator_warns_that_a_free_text_slot_without_values_gets_generated_ones() -> None:
    scenario = form("en", {"note": slot({"type": "text", "kind": "free_text"})})
    found = [p for p in scenario.validate() if p.path == "slots.note"]
    assert [p.severity for p in found] == ["warning"]
    assert "generated free text" in found[0].message and "docs/evaluate.md" in found[0].message
    given = form("en", {"note": slot({"type": "text", "kind": "free_text", "examples": ["hi"]})})
    assert not [p for p in given.validate() if p.path == "slots.note"]
    # Names, phones, e-mails and addresses come from banks that fit their kind: no warning.
    banked = form("en", {"where": slot({"type": "text", "kind": "address"})})
    assert not [p for p in banked.validate() if p.path == "slots.where"]


def test_a_condition_on_a_null_value_never_makes_the_user_say_none() -> None:
    scenario = form("en", {"drink": slot({"type": "enum", "values": ["latte", "tea"]})})
    user = RuleUser(Goal(slots={"drink": "latte"}), seed=1)
    here = cast(Situation, SimpleNamespace(scenario=scenario, slots={}))
    null_entity = Condition(field="nlu.entities.drink", operator="in", value=[None, "tea"])
    assert user._satisfy_one(null_entity, here) == ["tea"]
    only_null = Condition(field="nlu.entities.drink", operator="equals", value=None)
    assert user._satisfy_one(only_null, here) is None
    said_nothing = Condition(field="input.text", operator="contains", value=None)
    assert user._satisfy_one(said_nothing, here) is None


def test_a_text_slot_declaring_a_typed_kind_gets_a_value_of_that_kind() -> None:
    scenario = form(
        "ko",
        {
            "contact": slot({"type": "text", "kind": "phone"}),
            "when": slot({"type": "text", "kind": "date"}),
            "at": slot({"type": "text", "kind": "time"}),
            "budget": slot({"type": "text", "kind": "money", "unit": "won"}),
        },
    )
    for goal in Goal.sample_many(scenario, 20):
        assert goal.slots["contact"].startswith("010-")
        assert goal.slots["when"].startswith("2026-")
        assert goal.slots["at"][2] == ":"
        assert int(goal.slots["budget"]) >= 10_000
