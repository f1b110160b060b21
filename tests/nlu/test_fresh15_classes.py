"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh15`): a day
read back that the speaker can no longer make ("行けなくなっちゃった"); a choice to think over
by its kind ("ジャンルから考え直させて"); a sum after "なので"; a hope or a wish to try at a
greeting ("I was hoping you could take her", "몸 좀 풀어 봤으면 하는데요", "체험 한번 받아 볼
수 있을까요?"); "what kind of damage am I looking at"; "밤늦게까지도 하나요?"; and not knowing
which option to take, which asks for help."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import _count_step


def test_a_day_read_back_that_can_no_longer_be_made_is_asked_again() -> None:
    said = "その日、急に親戚の法事が入っちゃって行けなくなっちゃったんです"
    assert changed("ja", "day", {"type": "date", "prompt": "?"}, "2026-12-05", said) == "redo"


def test_a_choice_to_think_over_by_its_kind_is_asked_again() -> None:
    course = {"type": "enum", "values": ["和食", "パン"], "prompt": "?"}
    said = "申し訳ないんですが、作るメニューのジャンルから考え直させてもらえますか"
    assert changed("ja", "course", course, "和食", said) == "redo"


def test_a_sum_said_as_what_follows_is_the_count() -> None:
    said = "私と、あと会社の同僚が二人なので、三人ですね"
    assert analyse(_count_step("ja"), "ask_party", said, "party").entities == {"party": 3}


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        (
            "en",
            "Hi there, my poodle is way overdue for some pampering and I was hoping you could "
            "take her.",
            "book",
        ),
        ("ko", "요즘 허리가 계속 뻐근해서요, 한번 와서 몸 좀 풀어 봤으면 하는데요.", "book"),
        ("ko", "안녕하세요, 필라테스가 처음인데 체험 한번 받아 볼 수 있을까요?", "book"),
        ("en", "I was hoping you could tell me more about it", None),
        ("ko", "취소했으면 해요", None),
        # Asking to find something out is a question, not the booking.
        ("ko", "가격 알아볼 수 있을까요?", "ask_price"),
    ],
)
def test_a_hope_or_a_wish_to_try_at_a_greeting(language: str, said: str, intent: str) -> None:
    assert analyse(greeting(language), "start", said, None).intent == intent


def test_the_damage_one_is_looking_at_is_the_price() -> None:
    prices = {"ask_price": {"examples": ["What are your prices?", "How much is a full groom?"]}}
    said = "Before I pick a day, what kind of damage am I looking at for that?"
    assert analyse(greeting("en", also=prices), "start", said, None).intent == "ask_price"


def test_open_late_asked_as_how_late_they_go_on() -> None:
    hours = {"ask_hours": {"examples": ["영업시간이 어떻게 되나요?", "몇 시에 문 닫아요?"]}}
    said = "저 직장인이라 퇴근하면 꽤 늦는데, 스튜디오가 밤늦게까지도 하나요?"
    assert analyse(greeting("ko", also=hours), "start", said, None).intent == "ask_hours"


def _asking(language: str, slot: dict[str, Any]) -> Scenario:
    nodes: list[dict[str, Any]] = [
        {"id": "ask", "collect_slots": ["asked"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    return Scenario.from_dict(make_graph(nodes, language=language, slots={"asked": slot}))


CLASSES = {"type": "enum", "values": ["group", "private"], "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "slot", "said", "intent"),
    [
        ("ko", CLASSES, "음… 뭘 골라야 할지 감이 하나도 안 와요.", "help"),
        ("ja", CLASSES, "どれを選べばいいのか見当がつかなくて", "help"),
        ("en", CLASSES, "I have no clue which one to pick", "help"),
        # A day or a name not known yet is an answer of its own, and a choice said is one.
        ("en", {"type": "date", "prompt": "?"}, "I'm not sure yet", None),
        ("ko", {**CLASSES, "values": ["그룹", "개인"]}, "잘 모르겠는데 그룹으로 할게요", None),
    ],
)
def test_not_knowing_which_option_to_take_asks_for_help(
    language: str, slot: dict[str, Any], said: str, intent: str | None
) -> None:
    assert analyse(_asking(language, slot), "ask", said, "asked").intent == intent
