"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh21`):
putting it off ("다음에 할게요") with a request under way calls it off, and is a farewell
only at a greeting; "I really need someone"; a call back later said with "ね" withdraws at a
note; "힘들 것 같아요" about a value read back; "딱 그대로예요, 진행시켜 주세요" as a yes; a past
visit gone wrong told with crying faces ("ㅠㅠ"), which is small talk; price, hours and how
long it takes in other words ("만 원짜리 몇 장", "불 꺼져 있으려나요", "커피 한 잔 하고 있으면
끝나는 정도")."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import is_small_talk
from dialogkit.scenario.scenario import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting

TIME = {"type": "time", "prompt": "?"}


def _booking(language: str) -> Scenario:
    """A greeting that offers to book, then a date step; cancel and goodbye from anywhere."""
    said = {"ko": (["예약할게요"], ["취소할게요", "안 할래요"])}[language]
    intents: dict[str, Any] = {
        "book": {"examples": said[0]},
        "cancel": {"examples": said[1]},
    }
    nodes: list[dict[str, Any]] = [
        {"id": "start", "next_nodes": [_on("book", "ask_date")]},
        {"id": "ask_date", "collect_slots": ["day"], "default_next": "end"},
        {"id": "end", "terminal": True},
        {"id": "cancelled", "terminal": True},
        {"id": "bye", "terminal": True},
    ]
    graph = make_graph(
        nodes,
        language=language,
        slots={"day": {"type": "date", "prompt": "?"}},
        intents=intents,
        global_transitions=[_on("cancel", "cancelled"), _on("goodbye", "bye")],
    )
    return Scenario.from_dict(graph)


def _on(intent: str, target: str) -> dict[str, Any]:
    return {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
        "target": target,
    }


@pytest.mark.parametrize(
    ("node", "filled", "intent"),
    [("ask_date", {"day": "2026-12-04"}, "cancel"), ("start", {}, "goodbye")],
)
def test_putting_it_off_calls_off_a_request_under_way(
    node: str, filled: dict[str, Any], intent: str
) -> None:
    said = "아, 생각해 보니 이번 달엔 도저히 짬이 안 나네요. 다음에 할게요."
    assert analyse(_booking("ko"), node, said, None, filled).intent == intent


def test_really_needing_someone_is_the_offer() -> None:
    said = "My shoulders have been in knots for days, I really need someone to work them out."
    assert analyse(greeting("en"), "start", said, None).intent == "book"


@pytest.mark.parametrize(
    ("language", "held", "said", "intent"),
    [
        ("ko", "14:00", "두 시엔 제가 회의 중이라 빠져나오기 힘들 것 같아요.", "redo"),
        ("ko", "14:00", "딱 그대로예요, 진행시켜 주세요.", "affirm"),
    ],
)
def test_a_read_back_hard_to_make_or_taken_as_it_is(
    language: str, held: str, said: str, intent: str
) -> None:
    assert changed(language, "time", TIME, held, said) == intent


def test_a_past_visit_gone_wrong_with_crying_faces_is_small_talk() -> None:
    assert is_small_talk("저번에 다른 데서 했다가 기스만 잔뜩 생겼었거든요 ㅠㅠ", "ko")


@pytest.mark.parametrize(
    ("intent", "examples", "said"),
    [
        ("ask_price", None, "만 원짜리 몇 장 챙겨 가면 되나요?"),
        ("ask_hours", ["영업시간이 어떻게 되나요?"], "퇴근하고 밤늦게 들르면 불 꺼져 있으려나요?"),
        (
            "ask_duration",
            ["세차하는 데 얼마나 걸려요?"],
            "근처 카페에서 커피 한 잔 하고 있으면 끝나는 정도예요, 아니면 두고 가야 해요?",
        ),
    ],
)
def test_a_question_in_other_words(intent: str, examples: list[str] | None, said: str) -> None:
    also = {intent: {"examples": examples}} if examples else None
    assert analyse(greeting("ko", also=also), "start", said, None).intent == intent
