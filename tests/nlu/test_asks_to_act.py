"""A question that asks the listener to do something may mean an action; one that asks about
something may not. The embedding tier reads the difference (``asks_to_act``) before it lets
a question mean an action ("could you send a taxi?" orders one, "can I cancel later?" cancels
nothing)."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import asks_to_act
from dialogkit.nlu._rules import RuleIndex
from tests.helpers import make_graph


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Could you book me in for Friday?", "en"),
        ("Can you send a car to the station?", "en"),
        ("Would you mind holding the room until noon?", "en"),
        ("So can I get a large one?", "en"),
        ("Can we switch to the window table?", "en"),
        ("예약 좀 해 주실 수 있나요?", "ko"),
        ("택시 한 대 불러 줄래요?", "ko"),
        ("날짜를 바꿔 주시겠어요?", "ko"),
        ("하나만 부탁드려도 될까요?", "ko"),
        ("タクシーを一台手配してもらえますか", "ja"),
        ("明日の分を送っていただけませんか", "ja"),
        ("駅まで乗せていってほしいんですけど、頼めますか", "ja"),
        ("予約をお願いできますか", "ja"),
    ],
)
def test_a_question_that_asks_the_listener_to_act(text: str, language: str) -> None:
    assert asks_to_act(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Can I cancel later?", "en"),
        ("Can I change it later if plans shift?", "en"),
        ("Can you tell me the price?", "en"),
        ("Could you explain the deposit?", "en"),
        ("Do you rent helmets?", "en"),
        ("When do you open?", "en"),
        ("나중에 취소할 수 있나요?", "ko"),
        ("할인해 주나요?", "ko"),
        ("보증금 돌려주나요?", "ko"),
        ("주차는 가능한가요?", "ko"),
        ("가격이 얼마예요?", "ko"),
        ("後でキャンセルできますか", "ja"),
        ("料金はいくらですか", "ja"),
        ("駐車場はありますか", "ja"),
    ],
)
def test_a_question_about_something_does_not(text: str, language: str) -> None:
    assert not asks_to_act(text, language)


def scenario(intents: dict[str, list[str]]) -> Scenario:
    return Scenario.from_dict(
        make_graph(
            [
                {
                    "id": "start",
                    "responses": {"default": "Hello"},
                    "wait_for_input": True,
                    "next_nodes": [
                        {
                            "condition": {"field": "nlu.intent", "operator": "equals", "value": n},
                            "target": "end",
                        }
                        for n in intents
                    ],
                },
                {"id": "end", "terminal": True},
            ],
            intents={name: {"examples": examples} for name, examples in intents.items()},
        )
    )


def test_the_withdrawal_owner_is_the_scenarios_own_cancel_intent_whatever_its_name() -> None:
    graph = scenario({"halt": ["forget it", "I want to stop"], "book": ["a table please"]})
    assert graph.derived(RuleIndex).withdrawal_owner == "halt"


def test_a_scenario_without_one_has_no_withdrawal_owner() -> None:
    graph = scenario({"book": ["a table please"], "goodbye": ["bye"]})
    assert graph.derived(RuleIndex).withdrawal_owner is None
