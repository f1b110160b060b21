"""The rule NLU's index: built once per scenario, and only the node's intents are scored."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._rules import IntentMatcher, RuleIndex, RuleNLU, Utterance
from dialogkit.scenario.index import ScenarioIndex
from dialogkit.scenario.scenario import Scenario
from tests.helpers import RecordingSkills, make_graph


def chain(size: int) -> dict[str, Any]:
    """``size`` nodes in a row; node i moves on when the user says "step i"."""
    nodes: list[dict[str, Any]] = [
        {
            "id": f"n{i}",
            "description": f"Step {i}.",
            "responses": {"default": f"At step {i}."},
            "next_nodes": [
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": f"go_{i}"},
                    "target": f"n{i + 1}",
                }
            ],
        }
        for i in range(size - 1)
    ]
    nodes.append({"id": f"n{size - 1}", "description": "Last.", "terminal": True})
    intents = {f"go_{i}": {"examples": [f"step {i} please"]} for i in range(size - 1)}
    help_move = {"condition": {"field": "nlu.intent", "operator": "equals", "value": "help"}}
    return make_graph(nodes, intents=intents, global_transitions=[{**help_move, "action": "help"}])


def at(scenario: Scenario, node_id: str, text: str) -> NLURequest:
    """What the engine asks the NLU at ``node_id``: the scenario's shared intents."""
    return NLURequest(
        scenario=scenario,
        node=scenario.node(node_id),
        text=text,
        intents=scenario.index.intents,
        slots={},
    )


def test_the_index_is_built_once_per_scenario_not_per_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []
    for cls in (ScenarioIndex, RuleIndex):
        original = cls.__init__

        def counting(self: Any, arg: Any, _original: Any = original, _cls: Any = cls) -> None:
            built.append(_cls.__name__)
            _original(self, arg)

        monkeypatch.setattr(cls, "__init__", counting)
    scenario = Scenario.from_dict(chain(5))
    engine = Engine(router=OfflineRouter(), skills=RecordingSkills())
    for _ in range(2):
        session = engine.start(scenario, bot_first=True)
        for i in range(3):
            assert session.send(f"step {i} please").current_node == f"n{i + 1}"
    assert sorted(built) == ["RuleIndex", "ScenarioIndex"]


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> list[IntentMatcher]:
    """Every intent matcher scored, in order."""
    calls: list[IntentMatcher] = []
    original = IntentMatcher.score

    def counting(self: IntentMatcher, utterance: Utterance) -> float:
        calls.append(self)
        return original(self, utterance)

    monkeypatch.setattr(IntentMatcher, "score", counting)
    return calls


def test_a_large_graph_scores_only_the_intents_the_node_can_use(
    scored: list[IntentMatcher],
) -> None:
    scenario = Scenario.from_dict(chain(1000))
    request = at(scenario, "n500", "step 500 please now")
    result = RuleNLU().analyse(request)
    assert result.intent == "go_500"
    assert len(scored) == 1 + len(BUILTIN_INTENTS)
    assert scenario.index.node("n500").intents == frozenset({"go_500", "help"})


def test_an_utterance_that_is_another_nodes_example_is_not_taken_for_this_nodes_intent() -> None:
    scenario = Scenario.from_dict(chain(4))
    request = at(scenario, "n1", "step 2 please")
    assert RuleNLU().analyse(request).intent == "go_2"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("I want to apply for a card", "card_apply"),
        ("card applications, please", "card_apply"),
        ("the weather is nice today", None),
        ("close my account", "account_close"),
    ],
)
def test_an_undeclared_intent_is_matched_by_the_words_of_its_name(
    text: str, intent: str | None
) -> None:
    def named(value: str, target: str) -> dict[str, Any]:
        condition = {"field": "nlu.intent", "operator": "equals", "value": value}
        return {"condition": condition, "target": target}

    menu = {
        "id": "menu",
        "description": "Menu.",
        "next_nodes": [named("card_apply", "apply"), named("account-close", "close")],
    }
    apply_node = {"id": "apply", "description": "Apply for a card.", "terminal": True}
    close = {"id": "close", "description": "Close the account.", "terminal": True}
    scenario = Scenario.from_dict(make_graph([menu, apply_node, close]))
    assert scenario.index.implied_intents == ["card_apply", "account-close"]
    request = at(scenario, "menu", text)
    found = RuleNLU().analyse(request).intent
    assert found == (intent.replace("account_close", "account-close") if intent else None)


def test_a_recurring_short_utterance_is_scored_once_per_node(
    scored: list[IntentMatcher],
) -> None:
    scenario = Scenario.from_dict(chain(4))
    first = RuleNLU().analyse(at(scenario, "n1", "step 1 please now"))
    once = len(scored)
    again = RuleNLU().analyse(at(scenario, "n1", "step 1 please now"))
    assert again == first and first.intent == "go_1"
    assert len(scored) == once
    RuleNLU().analyse(at(scenario, "n2", "step 1 please now"))
    assert len(scored) > once  # another node scores its own intents
    long_text = "step 1 please now " * 10  # long texts rarely recur: never remembered
    before = len(scored)
    RuleNLU().analyse(at(scenario, "n1", long_text))
    middle = len(scored)
    RuleNLU().analyse(at(scenario, "n1", long_text))
    assert len(scored) - middle == middle - before > 0
