"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh10`): a value
read back and said not to do ("세 시엔 … 안 되겠네요", "I can't make it that day"), a change
asked with a reason that itself holds a negation, one more person, a phone line given up,
a maiden name; a request at a read-back, which is about its values and not the booking; a
wish to come in at a greeting that offers one thing; wondering whether ("들어가 있나
궁금해서요"), which says nothing; "둘이서", the whole party; a word broken off and said again
("山本…山本裕子"); a pause ("えっと…3時半") before a number; an anecdote at the name step; and
a correction that says a group of digits again."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._morphology import keyword_in, normalize
from dialogkit.nlu._rules import RuleIndex
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import (
    FILLED,
    at_read_back,
    changed,
    one_slot_read_back,
    read_back,
)
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_pack_fillers import stored

NOT_TO_DO = [
    ("ko", "아 세 시엔 애 하원시키러 가야 해서 안 되겠네요, 좀 늦춰야 할 것 같아요."),
    ("ja", "あ、15時だとちょっと都合が悪くなっちゃって…"),
    ("en", "Ugh, 3 pm won't work for me after all."),
]


@pytest.mark.parametrize(("language", "said"), NOT_TO_DO)
def test_a_value_read_back_and_said_not_to_do_is_asked_again(
    offline: Engine, language: str, said: str
) -> None:
    reply = at_read_back(offline, language, own_changes=False).send(said)
    assert reply.current_node == "ask_time"


@pytest.mark.parametrize(("language", "said"), NOT_TO_DO)
def test_a_value_read_back_and_said_not_to_do_is_the_scenarios_change(
    language: str, said: str
) -> None:
    read = analyse(read_back(language, own_changes=True), "confirm", said, None, FILLED)
    assert read.intent == "other_hour"


def test_the_value_held_named_as_the_one_to_change_to_is_kept(offline: Engine) -> None:
    """ "시간을 오후 세 시로 바꿔 주세요" when 3 pm is held names the value, not the slot to
    ask again."""
    session = at_read_back(offline, "ko", own_changes=False)
    reply = session.send("시간을 오후 세 시로 바꿔 주세요")
    assert reply.current_node != "ask_time" and session.info().slots["time"] == "15:00"


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ko",
            "service",
            {"type": "enum", "values": ["젤네일", "케어"], "prompt": "?"},
            "젤네일",
            "아 근데 젤은 회사에서 못 하게 해서요, 그거 말고 딴 메뉴로 할 수 있을까요?",
        ),
        (
            "ko",
            "people",
            {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"},
            1,
            "아 친구도 같이 하고 싶대요, 하나 더 끼워 주실 수 있어요?",
        ),
        (
            "ja",
            "people",
            {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"},
            1,
            "すみません、もう一人増やせますか",
        ),
        (
            "en",
            "people",
            {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"},
            1,
            "Could we add one more person?",
        ),
        (
            "ko",
            "phone",
            {"type": "phone", "prompt": "?"},
            "010-1234-5678",
            "아 그 공일공으로 시작하는 거 해지했어요. 새로 개통한 걸로 알려 드릴게요.",
        ),
        (
            "ja",
            "phone",
            {"type": "phone", "prompt": "?"},
            "090-1234-5678",
            "あ、そのケータイ来月解約しちゃうんで、家の固定のほうにかけてもらえると助かります。",
        ),
        (
            "en",
            "phone",
            {"type": "phone", "prompt": "?"},
            "5551234567",
            "Oops, that's my old cell, I got a new one last month.",
        ),
        (
            "ja",
            "name",
            {"type": "text", "kind": "person_name", "prompt": "?"},
            "田中花子",
            "田中じゃなくて、旧姓のほうで登録しておいてもらえます？",
        ),
        (
            "ja",
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-04",
            "あ、そこ親戚の法事とかぶってました…もう少し先にずらせますか？",
        ),
        (
            "en",
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-04",
            "Oh no, my sister's wedding is that day, I can't make it then.",
        ),
    ],
)
def test_a_change_said_with_its_reason_is_the_change(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def booking_read_back() -> Scenario:
    """A greeting that offers to book, and a read-back that books, or changes the name."""
    on_book = {"condition": {"field": "nlu.intent", "operator": "equals", "value": "book"}}
    nodes: list[dict[str, Any]] = [
        {"id": "start", "next_nodes": [{**on_book, "target": "ask_name"}]},
        {"id": "ask_name", "collect_slots": ["name"], "default_next": "confirm"},
        {
            "id": "confirm",
            "accept_slots": ["name"],
            "next_nodes": [
                {**on_book, "target": "end"},
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": "rename"},
                    "target": "ask_name",
                    "clear_slots": ["name"],
                },
            ],
        },
        {"id": "end", "terminal": True},
    ]
    intents = {
        "book": {"examples": ["予約をお願いします", "予約したいです"]},
        "rename": {"examples": ["名前を変えたいです"]},
    }
    slots = {"name": {"type": "text", "kind": "person_name", "prompt": "お名前は？"}}
    return Scenario.from_dict(make_graph(nodes, language="ja", slots=slots, intents=intents))


def test_a_read_back_that_offers_changes_offers_no_one_action() -> None:
    """There a request is about the values read back ("…登録しておいてもらえます？"), not the
    booking they make."""
    scenario = booking_read_back()
    offers = scenario.derived(RuleIndex).offered_action
    assert offers("start") == "book" and offers("confirm") is None
    said = "やっぱりもっとじっくり長めにやってもらいたくなりました。"
    assert analyse(scenario, "confirm", said, None, {"name": "田中花子"}).intent != "book"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "最近デスクワークで首がガチガチなんです。一回ほぐしに伺いたいなと思いまして。"),
        ("ko", "요즘 손톱이 너무 엉망이라 한번 받아 보고 싶어요"),
        ("en", "I've been putting this off for years, but I'd love to come in sometime."),
        ("en", "I've worked up the nerve for some artwork. Could one of your artists fit me in?"),
    ],
)
def test_a_wish_to_come_in_at_a_node_that_offers_one_action_is_that_action(
    language: str, said: str
) -> None:
    assert analyse(greeting(language), "start", said, None).intent == "book"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "まず料金を知りたいんですけど"),
        ("ko", "가격부터 알고 싶어요"),
        ("en", "I'd like to know what it costs first"),
        ("en", "If I swing by after six, will anyone still be around?"),
    ],
)
def test_wanting_to_know_or_asking_whether_anyone_is_there_asks_for_no_action(
    language: str, said: str
) -> None:
    assert analyse(greeting(language), "start", said, None).intent != "book"


@pytest.mark.parametrize(
    ("said", "says"),
    [
        ("그거 제대로 들어가 있나 궁금해서요.", False),
        ("예약이 잘 들어갔는지 모르겠어요", False),
        ("네 조심히 들어가세요", True),
    ],
)
def test_wondering_whether_says_nothing(said: str, says: bool) -> None:
    """ "들어가세요" (a goodbye) is not said by wondering whether it went in."""
    assert keyword_in(normalize(said), "들어가세요") is says


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        # "둘이서" is the whole party, whoever was named before it.
        ("ko", "people", "저랑 제 친구 둘이서 같이 받을 거예요.", 2),
        ("ko", "people", "친구랑 셋이서요", 3),
        ("ko", "people", "저랑 제 친구 한 명이요", 2),
        # A word broken off and said again, with more.
        ("ja", "name", "はい、えっと、山本…山本裕子といいます。", "山本裕子"),
        ("en", "name", "I'm... I'm Sam Lee", "Sam Lee"),
        ("ja", "time", "午後3時…3時半で", "15:30"),
        # A pause before the number is no decimal point.
        ("ja", "time", "午後の、そうですね…3時半くらいでお願いできますか。", "15:30"),
        ("ja", "people", "えっと…3人です", 3),
        ("ja", "day", "えっと…2026年12月3日で", "2026-12-03"),
        # An anecdote names nobody.
        ("ja", "name", "昨日ジムでちょっと張り切りすぎちゃいまして、あはは。", None),
    ],
)
def test_spoken_values(offline: Engine, language: str, slot: str, said: str, value: Any) -> None:
    assert stored(offline, language, slot, said) == value


def test_a_correction_that_says_a_group_of_digits_again_replaces_that_group() -> None:
    scenario = one_slot_read_back("phone", {"type": "phone", "prompt": "?"}, {"examples": ["x"]})
    said = (
        "You can reach me at five five five, three one two, eight eight four zero... wait, no,"
        " eight eight four one."
    )
    assert analyse(scenario, "ask_phone", said, "phone").entities == {"phone": "5553128841"}
