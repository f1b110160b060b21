"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh20`): a wish
said as what would be lovely ("I thought it'd be lovely to …", "一席設けられたらと思いまして");
a read-back that "won't fly", that something came up against ("出張が入っちゃいまして",
"일이 생겨서"), that wants something "もうちょっと軽めの", or that someone else dropping out
changes ("후배 한 놈이 못 온대요", "some of the lads have dropped out"); "잘못 들어간 것
같은데요" as a no; a label framed as the name ("제 이름으로 해 주세요, 이서연이에요"); a count
said after a pause to count up ("…えーと、四人ですね"); prices, hours and leave-taking in
other words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import PEOPLE, _count_step
from tests.nlu.test_fresh15_classes import _asking

DATE = {"type": "date", "prompt": "?"}
COURSES = {
    "type": "enum",
    "values": ["松コース", "梅コース"],
    "nouns": ["コース", "お料理"],
    "prompt": "?",
}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "My folks are in town next week and I thought it'd be lovely to get them out."),
        ("ja", "来週、両親の金婚式でして、そちらで一席設けられたらと思いまして"),
    ],
)
def test_a_wish_said_as_what_would_be_lovely_is_the_offer(language: str, said: str) -> None:
    assert analyse(greeting(language), "start", said, None).intent == "book"


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "en",
            "day",
            DATE,
            "2026-12-05",
            "Oh shoot, the fifth is my daughter's recital, that won't fly.",
        ),
        ("ja", "day", DATE, "2026-12-05", "その日、急に出張が入っちゃいまして"),
        ("ko", "day", DATE, "2026-12-05", "그 토요일에 갑자기 출장이 잡혀서요"),
        ("ja", "course", COURSES, "松コース", "お料理、もうちょっと軽めのにしてもらえませんか"),
        ("ko", "party", PEOPLE, 4, "아 맞다, 후배 한 놈이 갑자기 못 온대요"),
        ("en", "party", PEOPLE, 6, "Oh hang on, some of the lads have dropped out"),
    ],
)
def test_a_read_back_that_something_came_up_against(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def test_a_companion_dropping_out_with_the_new_count_gives_it() -> None:
    """Guard: the count said with the news is the change, no slot is asked again."""
    said = "Oh, actually, our son can't come after all, so it's just three of us."
    assert changed("en", "party", PEOPLE, 4, said) is None


def test_something_that_went_in_wrong_is_a_no() -> None:
    said = "음... 뭔가 하나 잘못 들어간 것 같은데요"
    assert changed("ko", "day", DATE, "2026-12-05", said) == "deny"


def test_a_label_framed_as_the_name_names_nobody() -> None:
    name = {"type": "text", "kind": "person_name", "prompt": "?"}
    read = analyse(_asking("ko", name), "ask", "아 제 이름으로 해 주세요, 이서연이에요", "asked")
    assert read.entities["asked"] == "이서연"


def test_a_count_said_after_a_pause_to_count_up() -> None:
    said = "私と主人と、あと主人の両親で…えーと、四人ですね"
    assert analyse(_count_step("ja"), "ask_party", said, "party").entities["party"] == 4


@pytest.mark.parametrize(
    ("language", "intent", "examples", "said"),
    [
        (
            "ko",
            "ask_price",
            None,
            "아, 그 전에 하나만 여쭤볼게요. 가서 치면 비용이 대충 어느 정도 나와요?",
        ),
        (
            "ko",
            "ask_hours",
            ["영업시간이 어떻게 되나요?"],
            "혹시 평일에 밤늦게 일 끝나고 가도 아직 하고 있어요?",
        ),
        (
            "en",
            "ask_hours",
            ["What are your opening hours?"],
            "Quick one, how early does the first boat head out?",
        ),
    ],
)
def test_a_question_in_other_words(
    language: str, intent: str, examples: list[str] | None, said: str
) -> None:
    also = {intent: {"examples": examples}} if examples else None
    assert analyse(greeting(language, also=also), "start", said, None).intent == intent


def test_leaving_for_today_is_goodbye() -> None:
    read = analyse(greeting("ja"), "start", "それじゃ、今日のところはこれで。どうもー", None)
    assert read.intent == "goodbye"
