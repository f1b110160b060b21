"""Natural answers found by a second scout on unseen scenarios, by class and language: a
"no, nothing" to an optional question, a cancel said in other words, a leave-taking that
also says the scenario's own intent."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu.acts import says_nothing
from dialogkit.nlu.base import NLURequest
from dialogkit.nlu.result import NLUResult
from dialogkit.nlu.rules import RuleNLU
from tests.helpers import make_graph

CANCEL = {
    "en": {"examples": ["cancel the request", "never mind, cancel it"], "keywords": ["cancel"]},
    "ko": {"examples": ["취소할게요", "그냥 안 할래요"], "keywords": ["취소"]},
    "ja": {"examples": ["キャンセルします", "やっぱりやめます"], "keywords": ["キャンセル", "やめます"]},
}


def note_scenario(language: str) -> Scenario:
    nodes: list[dict[str, Any]] = [
        {
            "id": "ask_note",
            "description": "Ask for a note.",
            "collect_slots": ["note"],
            "default_next": "end",
            "next_nodes": [
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"},
                    "target": "end",
                }
            ],
        },
        {"id": "end", "description": "End.", "terminal": True},
    ]
    document = make_graph(
        nodes,
        language=language,
        slots={"note": {"type": "text", "prompt": "Any note?"}},
        intents={"cancel_request": CANCEL[language]},
        global_transitions=[
            {
                "condition": {
                    "field": "nlu.intent",
                    "operator": "equals",
                    "value": "cancel_request",
                },
                "target": "end",
            }
        ],
    )
    return Scenario.from_dict(document)


def understand(language: str, text: str) -> NLUResult:
    scenario = note_scenario(language)
    node = scenario.node("ask_note")
    return RuleNLU().analyse(
        NLURequest(
            scenario=scenario,
            node=node,
            text=text,
            intents=scenario.index.intents,
            slots=scenario.index.node(node.id).slots,
            expected_slot="note",
        )
    )


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "nope, nothing else"),
        ("en", "nothing"),
        ("en", "no thanks"),
        ("ko", "특별히 없어요"),
        ("ko", "아니요 없습니다"),
        ("ja", "ありません"),
        ("ja", "特にないです"),
        ("ja", "えっと、特にないです"),
    ],
)
def test_no_nothing_to_an_optional_question_is_a_no_not_its_text(
    language: str, text: str
) -> None:
    assert says_nothing(text, language)
    result = understand(language, text)
    assert result.intent == "deny"
    assert "note" not in result.entities


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Please use a child-proof cap"),
        ("en", "nothing with peanuts please"),
        ("ko", "문 앞에 놓아 주세요"),
        ("ja", "禁煙ルームでお願いします"),
        ("ja", "ありがとうございます"),
    ],
)
def test_a_real_note_is_still_the_note(language: str, text: str) -> None:
    assert not says_nothing(text, language)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("ko", "아 그냥 다음에 할게요, 신청 안 할래요"),
        ("ko", "신청 안 할래요"),
        ("ja", "やっぱり今回は変更しないことにします"),
        ("ja", "今回は見送ります"),
    ],
)
def test_a_cancel_in_other_words_is_the_scenarios_cancel(language: str, text: str) -> None:
    assert understand(language, text).intent == "cancel_request"


def test_a_plain_leave_taking_stays_a_goodbye() -> None:
    assert understand("ko", "다음에 할게요").intent == "goodbye"
