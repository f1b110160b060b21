"""Classes a blind set on three more new graphs showed (`benchmarks/paraphrases/fresh7`): a
request whose subject is a third person ("could they get there around half past one?"),
"swap"/"replace" and "다시 고르" as change requests, "その日" pointing at the date, "どこか
おかしい" as a no, a name in the clause after "제 이름으로 해 주세요", and words as common as
"정도" naming no question's topic."""

from __future__ import annotations

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._acts import is_request
from dialogkit.nlu._topics import topic_roots
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_fresh6_classes import FILLED, read_back
from tests.nlu.test_pack_fillers import stored


@pytest.mark.parametrize(
    "said",
    [
        "Could they get there around half past one? I'm back from work by then.",
        "Can someone come by on Friday?",
    ],
)
def test_a_request_of_someone_else_is_a_request(said: str) -> None:
    assert is_request(said, "en")


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Could we swap the time for something later?", "move_hour"),
        ("ko", "시간을 다시 고르고 싶어요", "move_hour"),
        ("ja", "あ、その日だと友達の都合がつかなくて…ずらしてもらえますか", "move_day"),
        ("ja", "うーん、どこか一か所おかしいような…", "deny"),
    ],
)
def test_at_a_read_back(language: str, said: str, intent: str) -> None:
    assert analyse(read_back(language), "confirm", said, None, FILLED).intent == intent


def test_a_name_in_the_clause_after_my_name_is_the_name(offline: Engine) -> None:
    said = "예약자는 제 이름으로 해 주세요, 박서연이에요."
    assert stored(offline, "ko", "name", said) == "박서연"


def test_a_word_as_common_as_about_names_no_topic() -> None:
    assert "정도" not in topic_roots("소요 시간이 어느 정도예요?")


@pytest.mark.parametrize(
    ("said", "intent"),
    [("a deep clean please", None), ("how much do you charge for a deep clean?", "ask_prices")],
)
def test_an_answer_that_asks_nothing_is_no_question_it_resembles(
    said: str, intent: str | None
) -> None:
    """Tried over HTTP: "a deep clean please" answered the price question it shares words
    with, then moved on."""
    slots = {"service": {"type": "enum", "values": ["standard", "deep"], "prompt": "?"}}
    prices = {"examples": ["how much do you charge for a deep clean?", "what are your prices?"]}
    steps = [
        {"id": "n", "collect_slots": ["service"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    graph = Scenario.from_dict(make_graph(steps, slots=slots, intents={"ask_prices": prices}))
    read = analyse(graph, "n", said, "service")
    assert read.intent == intent
    assert read.entities == {"service": "deep"}
