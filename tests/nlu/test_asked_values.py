"""Values a question names only to ask about them are not meant: "are you open on Sundays?"
at a date step books no Sunday. The rules still propose the value, but are unsure of the
turn, so the tiers above may hear the question it is."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import asks_about_values
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._rules import ASKED_VALUES_SCORE, RuleNLU
from tests.helpers import make_graph


def booking() -> Scenario:
    return Scenario.from_dict(
        make_graph(
            [
                {
                    "id": "ask_date",
                    "responses": {"default": "Which day?"},
                    "collect_slots": ["day"],
                    "default_next": "end",
                },
                {"id": "end", "terminal": True},
            ],
            slots={"day": {"type": "date"}},
        )
    )


def read(text: str) -> tuple[dict[str, object], float]:
    graph = booking()
    request = NLURequest(
        scenario=graph,
        node=graph.node("ask_date"),
        text=text,
        intents=graph.index.intents,
        slots=graph.document.slots,
        expected_slot="day",
    )
    result = RuleNLU().analyse(request)
    return result.entities, result.confidence


@pytest.mark.parametrize(
    "text", ["Are you open on Sundays?", "Do you do repairs on Saturdays?", "What about Friday?"]
)
def test_a_question_about_a_day_leaves_the_rules_unsure(text: str) -> None:
    entities, confidence = read(text)
    assert asks_about_values(text, "en")
    assert entities and confidence == ASKED_VALUES_SCORE < 0.8


@pytest.mark.parametrize("text", ["Can I come on Sunday?", "Sunday", "This Friday, please"])
def test_a_day_offered_or_given_is_sure(text: str) -> None:
    entities, confidence = read(text)
    assert not asks_about_values(text, "en")
    assert entities and confidence == 1.0
