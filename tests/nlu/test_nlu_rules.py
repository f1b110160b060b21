"""The offline NLU: intents in ko/ja/en, built-ins, keywords, patterns, typed entities."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._entities import INVALID, coerce, extract
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU
from dialogkit.scenario.model import Intent, Slot
from tests.helpers import make_graph

INTENTS = {
    **BUILTIN_INTENTS,
    "sleep_report": Intent(examples=["잠을 잘 잤어요", "푹 잤어요", "밤새 잠을 못 잤어요"]),
    "meal_report": Intent(examples=["아침 먹었어요", "밥을 먹었어요"], keywords=["식사"]),
    "order": Intent(examples=["コーヒーを注文したいです", "注文をお願いします"]),
    "refund": Intent(patterns=[r"\brefund(s|ed)?\b"]),
}
SCENARIO = Scenario.from_dict(make_graph([{"id": "n", "description": "N.", "terminal": True}]))


def analyse(
    text: str, slots: dict[str, Slot] | None = None, expected: str | None = None
) -> NLUResult:
    request = NLURequest(
        scenario=SCENARIO,
        node=SCENARIO.nodes[0],
        text=text,
        intents=INTENTS,
        slots=slots or {},
        expected_slot=expected,
    )
    return RuleNLU().analyse(request)


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("네", "affirm"),
        ("네 맞아요", "affirm"),
        ("はい", "affirm"),
        ("yes please", "affirm"),
        ("아니요", "deny"),
        ("いいえ、違います", "deny"),
        ("nope", "deny"),
        ("안녕하세요", "greet"),
        ("goodbye", "goodbye"),
        ("도와주세요", "help"),
        ("もう一度お願いします", "repeat"),
        ("say that again", "repeat"),
        ("감사합니다", "thanks"),
        ("어젯밤에 잠을 잘 잤어요", "sleep_report"),
        ("식사는 했어요", "meal_report"),
        ("コーヒーを注文したい", "order"),
        ("I want a REFUND now", "refund"),
    ],
)
def test_intents_in_each_language(text: str, intent: str) -> None:
    result = analyse(text)
    assert result.intent == intent
    assert result.confidence >= 0.5


def test_unrelated_text_has_no_intent() -> None:
    result = analyse("the quarterly report is in the blue folder")
    assert result.intent is None and result.confidence == 0.0


def test_dialogue_acts() -> None:
    assert analyse("").dialogue_act == "silence"
    assert analyse("네").dialogue_act == "affirm"
    assert analyse("언제 오시나요?").dialogue_act == "question"


def test_rule_nlu_is_deterministic() -> None:
    assert analyse("푹 잤어요") == analyse("푹 잤어요")


def slot(**data: Any) -> Slot:
    return Slot.model_validate(data)


@pytest.mark.parametrize(
    ("definition", "text", "value"),
    [
        ({"type": "integer"}, "저는 34살이에요", 34),
        ({"type": "integer"}, "three", 3),
        ({"type": "integer"}, "1,200 won", 1200),
        ({"type": "number"}, "about 36.6 degrees", 36.6),
        ({"type": "boolean"}, "네 먹었어요", True),
        ({"type": "boolean"}, "아니요 안 먹었어요", False),
        ({"type": "boolean"}, "いいえ", False),
        (
            {
                "type": "enum",
                "values": ["체크카드", "신용카드"],
                "synonyms": {"신용카드": ["크레딧", "credit"]},
            },
            "크레딧으로 할게요",
            "신용카드",
        ),
        ({"type": "enum", "values": ["small", "large"]}, "LARGE please", "large"),
        ({"type": "date"}, "1990년 3월 5일생이에요", "1990-03-05"),
        ({"type": "date"}, "born 1990-03-05", "1990-03-05"),
        ({"type": "date"}, "19900305", "1990-03-05"),
        ({"type": "date"}, "March 5, 1990", "1990-03-05"),
        ({"type": "date"}, "1990年3月5日", "1990-03-05"),
        ({"type": "time"}, "오후 3시 반", "15:30"),
        ({"type": "time"}, "at 7:05 pm", "19:05"),
        ({"type": "time"}, "午前9時", "09:00"),
        ({"type": "time"}, "14:45", "14:45"),
        ({"type": "phone"}, "010 1234 5678이요", "010-1234-5678"),
        ({"type": "phone"}, "+82 10-1234-5678", "+821012345678"),
        ({"type": "email"}, "Mail: Kim.Lee+x@Example.co.kr", "kim.lee+x@example.co.kr"),
        (
            {"type": "pattern", "pattern": r"grid\s*(?P<value>\d{4}\s?\d{4})"},
            "grid 1234 5678",
            "1234 5678",
        ),
        ({"type": "text"}, "홍길동입니다.", "홍길동입니다"),
    ],
)
def test_entity_extraction_by_type(definition: dict[str, Any], text: str, value: Any) -> None:
    assert extract(slot(**definition), text, expected=True) == value


def test_relative_dates() -> None:
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    assert extract(slot(type="date"), "내일 보내 주세요", expected=True) == tomorrow


@pytest.mark.parametrize(
    ("definition", "text"),
    [
        ({"type": "date"}, "2023-02-30"),
        ({"type": "integer", "validation": {"max": 120}}, "200"),
        ({"type": "text", "validation": {"min_length": 2}}, "A"),
        ({"type": "phone"}, "call 123"),
        ({"type": "email"}, "kim at example"),
        ({"type": "text", "validation": {"pattern": "[가-힣]+"}}, "Kim"),
    ],
)
def test_invalid_values_are_rejected(definition: dict[str, Any], text: str) -> None:
    assert extract(slot(**definition), text, expected=True) is INVALID


def test_open_types_are_read_only_when_asked_for() -> None:
    age = slot(type="integer")
    assert extract(age, "I had 3 meals", expected=False) is INVALID
    result = analyse("I had 3 meals", slots={"age": age, "when": slot(type="time")})
    assert result.entities == {}
    assert analyse("I am 3", slots={"age": age}, expected="age").entities == {"age": 3}


def test_control_intents_do_not_fill_an_asked_text_slot() -> None:
    result = analyse("도와주세요", slots={"name": slot(type="text")}, expected="name")
    assert result.intent == "help" and result.entities == {}


@pytest.mark.parametrize(
    ("definition", "value", "expected"),
    [
        ({"type": "integer"}, 34, 34),
        ({"type": "integer"}, 3.5, INVALID),
        ({"type": "integer"}, "34 years", 34),
        ({"type": "boolean"}, True, True),
        ({"type": "boolean"}, 1, INVALID),
        ({"type": "enum", "values": ["a", "b"]}, "c", INVALID),
        ({"type": "date"}, "not a date", INVALID),
        ({"type": "email"}, {"email": "x@y.z"}, INVALID),
        ({"type": "text"}, None, INVALID),
    ],
)
def test_coerce_model_values(definition: dict[str, Any], value: Any, expected: Any) -> None:
    assert coerce(slot(**definition), value) == expected


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("no, that is not correct", "deny"),
        ("that's incorrect", "deny"),
        ("안 맞아요", "deny"),
        ("아니요 안 맞아요", "deny"),
        ("yes, correct", "affirm"),
        ("잘 모르겠어요", None),
    ],
)
def test_keywords_stand_alone_and_ties_do_not_confirm(text: str, intent: str | None) -> None:
    assert analyse(text).intent == intent
