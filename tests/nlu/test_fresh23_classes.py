"""Classes two blind sets on six new graphs showed (`benchmarks/paraphrases/fresh23` and
`fresh24`, written in one round): a value read back that is out of date ("that's my old work
cell", "예전 폰은 곧 끊기거든요", "来月で解約しちゃう"), that a plan forgotten or an errand
come up clashes with ("가기로 했던 걸 깜빡했네요", "付き添いが急に入っちゃって", "I'll be stuck
ferrying them around"), that the speaker will give again ("성함 부분을 다시 말씀드려도"), that
the first choice will not do ("원래 하려던 걸로는 안 될 것 같아요"), or one more person or thing
joining a count ("another pair of trousers", "막내 고양이도 같이"); a hedge that negates
nothing ("…のほうがいいかもしれません"); a question intent's words given as a reason; the words
that say "wrong" at the node that asks what to change; a total said last; "put it down under";
a wish said as a reason for calling; new withdrawals; and questions of price, hours, what to
bring and when the work is ready, in other words."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import is_withdrawal
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.scenario import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh15_classes import _asking

NAME = {"type": "text", "kind": "person_name", "prompt": "?"}
PHONE = {"type": "phone", "prompt": "?"}
DATE = {"type": "date", "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}
PEOPLE = {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"}
PETS = {"type": "integer", "kind": "count", "unit": "items", "nouns": ["마리"], "prompt": "?"}
GARMENTS = {"type": "integer", "kind": "count", "unit": "items", "prompt": "?"}
VISITS = {"type": "enum", "values": ["건강검진", "예방접종"], "prompt": "?"}
PLANS = {
    "type": "enum",
    "values": ["おまかせプラン", "セルフプラン"],
    "nouns": ["プラン"],
    "prompt": "?",
}


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said", "intent"),
    [
        (
            "en",
            "phone",
            PHONE,
            "5551234567",
            "Oh, that's my old work cell, I handed it back when I left the company.",
            "redo",
        ),
        (
            "en",
            "day",
            DATE,
            "2026-12-02",
            "Ugh, my in-laws are flying in that Wednesday and I'll be stuck ferrying them around.",
            "redo",
        ),
        (
            "en",
            "time",
            TIME,
            "11:00",
            "Eleven's cutting it fine with the school run, something after lunch would suit me "
            "better.",
            "redo",
        ),
        (
            "en",
            "garments",
            GARMENTS,
            2,
            "My husband's just found another pair of trousers that need doing too.",
            "redo",
        ),
        (
            "ko",
            "day",
            DATE,
            "2026-11-28",
            "이런, 그 주말엔 처가 식구들이랑 강릉 가기로 했던 걸 깜빡했네요.",
            "redo",
        ),
        (
            "ko",
            "day",
            DATE,
            "2026-12-03",
            "아 그날은 시어머니가 올라오시는 날이라 곤란하겠네요",
            "redo",
        ),
        (
            "ko",
            "phone",
            PHONE,
            "010-2345-6789",
            "통신사를 옮기면서 예전 폰은 곧 끊기거든요",
            "redo",
        ),
        ("ko", "name", NAME, "김민수", "성함 부분을 다시 말씀드려도 될까요?", "redo"),
        (
            "ko",
            "visit",
            VISITS,
            "건강검진",
            "요즘 애가 통 기운이 없어서요, 원래 하려던 걸로는 안 될 것 같아요",
            "redo",
        ),
        (
            "ko",
            "people",
            PEOPLE,
            1,
            "아 참, 회사 후배 하나가 자기도 같이 듣고 싶다고 끼워 달래요.",
            "redo",
        ),
        ("ko", "pets", PETS, 1, "아 참, 막내 고양이도 이참에 같이 봐 주셨으면 해서요", "redo"),
        ("ko", "day", DATE, "2026-12-03", "빠짐없이 다 들어갔네요, 그대로 넣어 주세요", "affirm"),
        ("ko", "day", DATE, "2026-12-03", "어… 중간에 하나 엇나간 게 있는 것 같은데요", "deny"),
        (
            "ja",
            "day",
            DATE,
            "2026-11-27",
            "あ、その金曜は母の通院の付き添いが急に入っちゃってたんでした…",
            "redo",
        ),
        (
            "ja",
            "phone",
            PHONE,
            "090-1234-5678",
            "あー、その携帯、来月で解約しちゃうんですよね",
            "redo",
        ),
        ("ja", "plan", PLANS, "おまかせプラン", "別のコースのほうがいいかもしれません", "redo"),
        ("ja", "people", PEOPLE, 3, "実は弟も一緒に移り住むことになったんですよ", "redo"),
        # Asked to say it again, the speaker asks for a repeat.
        ("ko", "name", NAME, "김민수", "다시 말씀해 주시겠어요?", "repeat"),
    ],
)
def test_a_read_back_in_other_words(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str, intent: str | None
) -> None:
    assert changed(language, slot, declared, held, said) == intent


def _plan_read_back() -> Scenario:
    """A read-back of a plan that also answers what it costs."""
    on = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "redo"},
            "target": "ask_plan",
            "clear_slots": ["plan"],
        },
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "ask_price"},
            "action": "stay",
        },
    ]
    nodes: list[dict[str, Any]] = [
        {"id": "ask_plan", "collect_slots": ["plan"], "default_next": "confirm"},
        {"id": "confirm", "accept_slots": ["plan"], "next_nodes": on},
    ]
    intents = {
        "redo": {"examples": ["プランを変えたいです"]},
        "ask_price": {"examples": ["料金はいくらですか？", "予算はどのくらい見ればいいですか？"]},
    }
    graph = make_graph(nodes, language="ja", slots={"plan": PLANS}, intents=intents)
    return Scenario.from_dict(graph)


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        (
            "うーん、思ったより予算が厳しくて、もうちょっと安く収まるコースのほうがいいかもしれません",
            "redo",
        ),
        # Asked, the question stays one.
        ("予算ってどのくらい見ておけばいいですか？", "ask_price"),
    ],
)
def test_a_question_intents_words_given_as_a_reason_leave_the_change(
    said: str, intent: str
) -> None:
    read = analyse(_plan_read_back(), "confirm", said, None, {"plan": "おまかせプラン"})
    assert read.intent == intent


def test_the_words_that_say_wrong_name_the_slot_at_the_node_that_asks_which() -> None:
    graph = make_graph([{"id": "end", "terminal": True}], slots={"name": NAME, "phone": PHONE})
    scenario = Scenario.from_dict(graph)
    slots = {name: slot for name in ("name", "phone") if (slot := scenario.slot(name))}
    said = "苗字の漢字を間違えてお伝えしちゃいました"
    assert said_wrong(said, slots, "ja", changes=True, choosing=True) == ["name"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Hi there, my MacBook went completely black on me this morning, any chance one of "
            "your techs could take a look at it?",
        ),
        ("ko", "이 동네로 막 이사 왔는데요, 우리 강아지 데리고 한번 들를까 해서요"),
        (
            "ko",
            "올해는 진짜 몸 좀 만들어 보려고요. "
            "누가 옆에서 하나하나 봐 주셨으면 해서 전화드렸어요.",
        ),
    ],
)
def test_a_wish_or_a_request_as_the_reason_for_calling_is_the_offer(
    language: str, said: str
) -> None:
    assert analyse(greeting(language), "start", said, None).intent == "book"


@pytest.mark.parametrize(
    ("language", "said", "withdraws"),
    [
        ("ko", "음... 번호까지 드리는 건 좀 부담스럽네요. 그냥 없던 일로 할게요.", True),
        (
            "en",
            "Actually, I've just realised my sister can do them for me, so I'll leave it.",
            True,
        ),
        ("en", "Please scrap the booking, I've changed my mind.", True),
        ("en", "If I leave it with you guys, when would I have it back?", False),
    ],
)
def test_new_withdrawals(language: str, said: str, withdraws: bool) -> None:
    assert is_withdrawal(said, language) is withdraws


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        ("en", GARMENTS, "Two pairs of trousers and a jacket, so three altogether.", 3),
        ("en", NAME, "Erm, put it down under Daniel Whitaker, please.", "Daniel Whitaker"),
        (
            "ko",
            {
                "type": "enum",
                "values": ["다이어트", "근력 증가"],
                "synonyms": {"다이어트": ["살 빼"], "근력 증가": ["근육"]},
                "prompt": "?",
            },
            "음 처음엔 살 빼는 걸 생각했는데, 그냥 근육 좀 붙이는 쪽으로 할게요.",
            "근력 증가",
        ),
        ("ja", NAME, "受付の方っていつも声が優しくて、なんだかほっとします", None),
    ],
)
def test_a_value_said_the_way_people_talk(
    language: str, slot: dict[str, Any], said: str, value: Any
) -> None:
    read = analyse(_asking(language, slot), "ask", said, "asked")
    assert read.entities.get("asked") == value


@pytest.mark.parametrize(
    ("language", "intent", "examples", "said"),
    [
        (
            "en",
            "ask_price",
            None,
            "Before we go any further, ballpark, what am I gonna be shelling out for this?",
        ),
        ("en", "ask_hours", ["Are you open on Saturdays?"], "Do you lot work weekends?"),
        (
            "en",
            "ask_ready",
            ["When will my clothes be ready?"],
            "If I drop them in this week, when could I pick them up again?",
        ),
        (
            "en",
            "ask_ready",
            ["When will my laptop be ready?"],
            "If I leave it with you guys, roughly when would I have it back in my hands?",
        ),
        (
            "en",
            "ask_ready",
            ["When will my laptop be ready?"],
            "How quickly do you usually get these jobs finished?",
        ),
        (
            "ko",
            "ask_price",
            None,
            "요즘 주머니 사정이 좀 빠듯해서요, 그거 하면 대충 어느 선에서 끝날까요?",
        ),
        (
            "ko",
            "ask_price",
            None,
            "근데 쌤이랑 붙어서 하는 거, 한 달 하면 대충 몇 십은 깨지는 거죠?",
        ),
        (
            "ko",
            "ask_hours",
            ["주말에도 문 열어요?"],
            "맞벌이라 저녁 늦게나 짬이 나는데, 그때도 선생님 계세요?",
        ),
        ("ko", "ask_hours", ["몇 시에 문 열어요?"], "토요일이랑 일요일에도 여시나요?"),
        (
            "ko",
            "ask_hours",
            ["몇 시에 문 열어요?"],
            "야근이 잦아서 그런데, 밤늦게 회사 끝나고 가도 안 닫혀 있어요?",
        ),
        ("ko", "ask_bring", ["준비물 있나요?"], "그날 빈손으로 가도 되는 거죠?"),
        ("ja", "ask_price", None, "ところで、見に来てもらうのってお金かかっちゃいますか？"),
        (
            "ja",
            "ask_hours",
            ["何時まで開いていますか？"],
            "うち共働きで平日はどうにも動けないんですけど、週末って受付してもらえてます？",
        ),
        (
            "ja",
            "ask_bring",
            ["何を持っていけばいいですか？"],
            "初めてお世話になるんですけど、当日は手ぶらで行っても平気ですか？",
        ),
    ],
)
def test_a_question_in_other_words(
    language: str, intent: str, examples: list[str] | None, said: str
) -> None:
    also = {intent: {"examples": examples}} if examples else None
    assert analyse(greeting(language, also=also), "start", said, None).intent == intent


def test_a_price_asked_about_a_service_is_no_question_of_hours() -> None:
    also = {"ask_hours": {"examples": ["What are your opening hours?"]}}
    said = "What are your rates for taking up a dress?"
    assert analyse(greeting("en", also=also), "start", said, None).intent == "ask_price"
