"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh11`): a
request after what led to it ("My daughter just turned sixteen. Could you get her
started?"); a polite request in the negative ("…してもらえませんか"), which negates nothing; a
value turned down with "I don't think"; a slot named inside another's noun ("the type of
lesson"); a part of the day that will not do beside a day that will; a day later; "하나도",
which counts nothing; an anecdote at the name step; a problem said with "ちょっと"; and a value
said early at a greeting, which leaves the intent to be understood."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._acts import is_negated, is_request
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.model import Slot
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import FILLED, changed, read_back
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_pack_fillers import stored


def test_a_request_after_what_led_to_it_is_a_request() -> None:
    said = "Hi! My daughter just turned sixteen. Could you get her started with one of you?"
    assert is_request(said, "en")
    assert analyse(greeting("en"), "start", said, None).intent == "book"


@pytest.mark.parametrize(
    ("said", "negated"),
    [
        ("スタートを後ろ倒しにしてもらえませんか", False),
        ("一緒に来てくれないですか", False),
        ("その日は行けません", True),
        ("まだ決めてない", True),
    ],
)
def test_a_polite_request_in_the_negative_negates_nothing(said: str, negated: bool) -> None:
    assert is_negated(said, "ja") is negated


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ja",
            "time",
            {"type": "time", "prompt": "?"},
            "09:00",
            "寝坊しそうなので、スタートを後ろ倒しにしてもらえませんか",
        ),
        (
            "ko",
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-04",
            "아 출장이 하루 밀렸대요. 그럼 저희 애 보내는 것도 하루 늦춰야겠네요.",
        ),
    ],
)
def test_moving_it_is_the_change(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def lessons() -> Scenario:
    """A step for the type of lesson, one for how many, and a read-back with a change of
    each."""

    def change(intent: str, slot: str) -> dict[str, Any]:
        condition = {"field": "nlu.intent", "operator": "equals", "value": intent}
        return {"condition": condition, "target": f"ask_{slot}", "clear_slots": [slot]}

    nodes: list[dict[str, Any]] = [
        {"id": "ask_kind", "collect_slots": ["kind"], "default_next": "ask_count"},
        {"id": "ask_count", "collect_slots": ["count"], "default_next": "confirm"},
        {
            "id": "confirm",
            "accept_slots": ["kind", "count"],
            "next_nodes": [change("other_kind", "kind"), change("other_count", "count")],
        },
    ]
    slots = {
        "kind": {
            "type": "enum",
            "values": ["highway practice", "parking"],
            "synonyms": {"highway practice": ["highway"]},
            "nouns": ["lesson type", "type of lesson"],
            "prompt": "Which lesson?",
        },
        "count": {
            "type": "integer",
            "kind": "count",
            "nouns": ["lessons", "lesson"],
            "prompt": "How many?",
        },
    }
    intents = {
        "other_kind": {"examples": ["I want a different kind of lesson"]},
        "other_count": {"examples": ["change the number of lessons"]},
    }
    return Scenario.from_dict(make_graph(nodes, slots=slots, intents=intents))


def test_a_value_turned_down_with_i_dont_think_is_no_answer() -> None:
    said = "I don't think highway is what I need."
    assert analyse(lessons(), "ask_kind", said, "kind").entities == {}
    assert analyse(lessons(), "ask_kind", "I think highway is what I need", "kind").entities


def test_the_slot_whose_noun_holds_anothers_is_the_one_named() -> None:
    """ "the type of lesson" names the type, though "lesson" names the count."""
    said = "Could we change the type of lesson? I don't think highway is what I need."
    filled = {"kind": "highway practice", "count": 2}
    assert analyse(lessons(), "confirm", said, None, filled).intent == "other_kind"


def test_a_part_of_the_day_that_will_not_do_beside_a_day_that_will() -> None:
    slots = {
        "day": Slot.model_validate({"type": "date", "prompt": "?"}),
        "time": Slot.model_validate({"type": "time", "prompt": "?"}),
    }
    said = "Thursday itself is fine, but I'm stuck at work, so the afternoon is out for me."
    held = {"day": "2026-11-26", "time": "15:00"}
    named = said_wrong(said, slots, "en", changes=True, held=held, heard={"day": "2026-11-26"})
    assert named == ["time"]


def test_a_problem_said_with_chotto_is_a_no() -> None:
    said = "うーん、今のだとちょっとまずいですね"
    assert analyse(read_back("ja", own_changes=False), "confirm", said, None, FILLED).intent == (
        "deny"
    )


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        ("ko", "people", "아 이런 거 처음이라 뭐라고 대답해야 할지 하나도 모르겠어요", None),
        ("ko", "people", "하나요", 1),
        ("ja", "name", "ああ、そういえば先週ホールインワン出した友達がいましてね", None),
    ],
)
def test_spoken_values(offline: Engine, language: str, slot: str, said: str, value: Any) -> None:
    assert stored(offline, language, slot, said) == value


def greeting_that_takes_a_date() -> Scenario:
    """A greeting that offers to book and takes a date said early, then a date step."""
    on_book = {"condition": {"field": "nlu.intent", "operator": "equals", "value": "book"}}
    nodes: list[dict[str, Any]] = [
        {"id": "start", "accept_slots": ["day"], "next_nodes": [{**on_book, "target": "ask_day"}]},
        {"id": "ask_day", "collect_slots": ["day"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    slots = {"day": {"type": "date", "prompt": "언제요?"}}
    intents = {"book": {"examples": ["예약하고 싶어요"]}}
    return Scenario.from_dict(make_graph(nodes, language="ko", slots=slots, intents=intents))


def test_a_value_said_early_leaves_what_the_speaker_wants_to_be_understood() -> None:
    """At the greeting the rules are not sure of the turn (the embedding tier or a model is
    asked what it wants), though they keep the date; at the date step the date answers."""
    said = "이번 주말에 제주도 가는데 우리 초코 봐 줄 사람이 없어서요."
    early = analyse(greeting_that_takes_a_date(), "start", said, None)
    assert early.intent is None and early.confidence < 0.5 and "day" in early.entities
    answer = analyse(greeting_that_takes_a_date(), "ask_day", "이번 주말이요", "day")
    assert answer.confidence == 1.0 and "day" in answer.entities
