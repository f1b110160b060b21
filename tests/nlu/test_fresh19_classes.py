"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh19`): the
speaker and a partner before a count of people ("me, my wife and our three kids" had read
two); a bare number the speaker joins ("아들 하나랑 저요"); a total after "그렇게"; a first
thought given up for another value ("カラーにしようかと思ったけど、やっぱりパーマで"); the
label "예약자"; a topic raised with "って" or a question, which names nobody; a digit 이
read one by one before more digits; a clash ("겹치는데", "clashes with") and another course
at a read-back; "…틀린 것 같은데요" as a no; "見送らせてください"; word of mouth as small
talk; how long a visit takes, start to finish."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import is_small_talk, is_withdrawal
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import _count_step
from tests.nlu.test_fresh15_classes import _asking


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("en", "It'll be me, my wife and our three kids.", 5),
        ("en", "my husband and me and 2 kids", 4),
        ("en", "me and my wife and 3 friends", 5),
        ("ko", "저랑 아내랑 애들 둘이요", 4),
        ("ko", "저랑 와이프, 애 둘이요", 4),
        ("ja", "私と夫と、子供が二人", 4),
        ("ko", "아들 하나랑 저요", 2),
        ("ko", "초등학생 아들 하나랑 저, 그렇게 둘이요", 2),
        # Guards: the couple alone, and a couple counted already.
        ("en", "me and my wife", 2),
        ("ja", "私と妻の二人です", 2),
        ("ko", "저랑 남편 둘이요", 2),
    ],
)
def test_the_people_counted_with_the_speaker(language: str, said: str, value: int) -> None:
    assert analyse(_count_step(language), "ask_party", said, "party").entities["party"] == value


@pytest.mark.parametrize(
    ("language", "values", "said", "meant"),
    [
        (
            "ja",
            ["カラー", "パーマ"],
            "うーん、カラーにしようかと思ったけど、やっぱりパーマでお願いします",
            "パーマ",
        ),
        (
            "en",
            ["standard", "vip lounge"],
            "I was going to go with the standard, but make it the VIP lounge",
            "vip lounge",
        ),
        ("ko", ["컬러", "펌"], "컬러로 하려고 했는데 그냥 펌으로 할게요", "펌"),
    ],
)
def test_a_first_thought_given_up_is_not_the_value(
    language: str, values: list[str], said: str, meant: str
) -> None:
    menu = {"type": "enum", "values": values, "prompt": "?"}
    assert analyse(_asking(language, menu), "ask", said, "asked").entities["asked"] == meant


NAME = {"type": "text", "kind": "person_name", "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "said", "name"),
    [
        ("ko", "아 예약자는요, 음, 최서연으로 해 주세요", "최서연"),
        ("ja", "ミモザって、お花の名前ですよね？かわいいですね", None),
        ("ja", "山田って言います", "山田"),
    ],
)
def test_the_name_after_its_label_and_none_in_a_topic(
    language: str, said: str, name: str | None
) -> None:
    assert analyse(_asking(language, NAME), "ask", said, "asked").entities.get("asked") == name


@pytest.mark.parametrize(
    ("said", "phone"),
    [
        ("공일공에 사칠팔이 구구공일이요", "010-4782-9901"),
        ("공일공 일이삼사 오육칠팔이요", "010-1234-5678"),
    ],
)
def test_a_digit_i_before_more_digits(said: str, phone: str) -> None:
    read = analyse(_asking("ko", {"type": "phone", "prompt": "?"}), "ask", said, "asked")
    assert read.entities["asked"] == phone


COURSES = {"type": "enum", "values": ["カット", "カラー"], "prompt": "?"}
PACKAGES = {"type": "enum", "values": ["standard", "vip lounge"], "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ko",
            "time",
            TIME,
            "14:00",
            "오후 두 시면 애 학원 픽업이랑 겹치는데, 좀 더 이른 때로 안 될까요?",
        ),
        ("en", "time", TIME, "18:00", "Six clashes with my son's practice"),
        (
            "ja",
            "course",
            COURSES,
            "カット",
            "そういえば前回切ったばかりだったので、今回は違うコースにしてもらえますか",
        ),
        (
            "en",
            "package",
            PACKAGES,
            "standard",
            "Let's go for something fancier, with couches and a waiter.",
        ),
    ],
)
def test_a_read_back_that_clashes_or_wants_another_kind(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def test_something_read_back_that_seems_wrong_is_a_no() -> None:
    said = "음… 뭔가 하나 틀린 것 같은데요"
    assert changed("ko", "time", TIME, "14:00", said) == "deny"


def test_letting_it_pass_this_time_withdraws() -> None:
    assert is_withdrawal("あー、ごめんなさい、やっぱり今回は見送らせてください", "ja")


@pytest.mark.parametrize(
    ("language", "said", "chats"),
    [
        ("ko", "저희 어머니도 여기 다니셨었는데 좋다고 하시더라고요", True),
        ("ja", "母もこちらに通っていて、いいって言ってました", True),
        ("en", "My sister comes here, she has heard great things.", True),
        # A reason for asking is no small talk.
        ("ko", "친구가 좋다고 해서 예약하려고요", False),
        ("en", "I heard good things, can I book a lane?", False),
    ],
)
def test_word_of_mouth_is_small_talk(language: str, said: str, chats: bool) -> None:
    assert is_small_talk(said, language) is chats


def test_how_long_a_visit_takes_start_to_finish() -> None:
    duration = {"ask_duration": {"examples": ["所要時間はどれくらいですか？"]}}
    said = "保育園のお迎えがあるので、お店に入ってから出るまで、ざっとどんなもんか知っておきたくて"
    assert analyse(greeting("ja", also=duration), "start", said, None).intent == "ask_duration"
