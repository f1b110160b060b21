"""Classes the blind set `benchmarks/paraphrases/fresh34` showed (six new graphs, measured once
before any change): "Wednesday next week"; a two-letter katakana option inside a longer
katakana word ("タイ" in "ケータイ"); "하나요" as a question's ending, not "one"; small talk
at a name step ("今日は風もなくて、海も穏やかそうですねえ"); a first thought given up after the
"까지" of a value; a question that offers the value asked for after a reason that names a
question's topic; withdrawals and putting off after talking it over; another person's name by
"앞으로" or a relation word ("집사람"); a no said as something that does not sit right; a time
by the sun; a held option disliked; and the tier weighing in where the rules heard only the
topic of a question."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import is_withdrawal, offers_values, puts_off
from dialogkit.nlu._dates import read_date
from dialogkit.nlu._embeddings import leaves_to_rules
from dialogkit.nlu._entities import INVALID, extract
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._numbers import normalize, quantities
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._topics import TOPIC_SCORE
from dialogkit.scenario.model import Slot
from tests.helpers import make_graph
from tests.nlu.reading import analyse, request_at
from tests.nlu.test_change_requests import changed, choose_after_no

MONDAY = Frame(datetime(2026, 11, 23, 10))
PEOPLE = {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"}
NAME = {"type": "text", "kind": "person_name", "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}


@pytest.mark.parametrize(
    ("said", "iso"),
    [
        ("Wednesday next week, if you've got room.", "2026-12-02"),
        ("Friday of next week", "2026-12-04"),
        ("Wednesday this week", "2026-11-25"),
        ("Wednesday", "2026-11-25"),
    ],
)
def test_the_week_said_after_the_day(said: str, iso: str) -> None:
    found = read_date(said, MONDAY)
    assert found is not None and found.isoformat() == iso


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("あ、それ会社支給のケータイなんで", None),
        ("ネクタイで行きます", None),
        ("タイで", "マダイ船"),
        ("マダイ船で", "マダイ船"),
    ],
)
def test_a_short_katakana_option_is_no_part_of_a_longer_word(said: str, value: str | None) -> None:
    plan = Slot.model_validate(
        {
            "type": "enum",
            "prompt": "?",
            "values": ["マダイ船", "イカ船"],
            "synonyms": {"マダイ船": ["タイ"], "イカ船": ["イカ"]},
        }
    )
    found = extract(plan, said, expected=False)
    assert (None if found is INVALID else found) == value


@pytest.mark.parametrize(
    ("said", "values"),
    [
        ("수업료는 한 달에 어느 정도 하나요?", [1]),
        ("주말에도 하나요?", []),
        ("몇 시에 하나요?", []),
        ("사과 하나요", [1]),
    ],
)
def test_a_question_ending_is_no_one(said: str, values: list[int]) -> None:
    assert [q.value for q in quantities(normalize(said))] == values


def test_small_talk_at_a_name_step_names_nobody() -> None:
    nodes: list[dict[str, Any]] = [
        {"id": "ask_name", "collect_slots": ["name"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    scenario = Scenario.from_dict(make_graph(nodes, language="ja", slots={"name": NAME}))
    said = "今日は風もなくて、海も穏やかそうですねえ"
    assert "name" not in analyse(scenario, "ask_name", said, "name").entities


def test_a_first_thought_given_up_after_the_even_of_a_value() -> None:
    service = {
        "type": "enum",
        "kind": "choice",
        "prompt": "?",
        "values": ["도배", "장판"],
        "synonyms": {"도배": ["벽지"], "장판": ["바닥"]},
    }
    nodes: list[dict[str, Any]] = [
        {"id": "ask_service", "collect_slots": ["service"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    scenario = Scenario.from_dict(make_graph(nodes, language="ko", slots={"service": service}))
    said = "처음엔 도배까지 싹 하려고 했는데요, 그냥 장판만 할게요"
    assert analyse(scenario, "ask_service", said, "service").entities["service"] == "장판"


def test_a_question_offering_the_time_after_a_reason_gives_it() -> None:
    said = "아침엔 애들 등원시켜야 해서요, 음... 열한 시 반쯤 괜찮을까요?"
    assert offers_values(said, "ko")
    assert not offers_values("토요일에도 되나요?", "ko")
    hours = {"examples": ["영업시간이 어떻게 되세요?", "아침 일찍도 하시나요?"]}
    nodes: list[dict[str, Any]] = [
        {
            "id": "ask_time",
            "collect_slots": ["time"],
            "next_nodes": [
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": "hours"},
                    "target": "end",
                }
            ],
            "default_next": "end",
        },
        {"id": "end", "terminal": True},
    ]
    graph = make_graph(nodes, language="ko", slots={"time": TIME}, intents={"hours": hours})
    read = analyse(Scenario.from_dict(graph), "ask_time", said, "time")
    assert read.intent is None and read.entities == {"time": "11:30"}


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("I've decided not to go ahead with it after all, sorry.", "en"),
        ("아무래도 그냥 다음에 다시 알아볼게요", "ko"),
    ],
)
def test_new_withdrawals(said: str, language: str) -> None:
    assert is_withdrawal(said, language)


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("애 아빠랑 상의 좀 해 보고 다시 연락드릴게요", "ko"),
        ("あー、財布と相談したら今月ちょっと厳しくて…落ち着いたらまた電話しますね", "ja"),
        ("Let me talk to my wife and I'll get back to you.", "en"),
    ],
)
def test_putting_off_after_talking_it_over(said: str, language: str) -> None:
    assert puts_off(said, language)


def test_putting_off_with_a_reason_that_names_a_question_calls_it_off() -> None:
    """ "財布と相談したら" says the price question's word without asking it."""
    price = {"examples": ["料金はいくらですか？"], "keywords": ["料金", "いくら"]}
    cancel = {"examples": ["キャンセルします", "やめておきます"]}
    on = [
        {"condition": {"field": "nlu.intent", "operator": "equals", "value": name}, "target": "end"}
        for name in ("price", "cancel")
    ]
    nodes: list[dict[str, Any]] = [
        {"id": "ask_time", "collect_slots": ["time"], "next_nodes": on, "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    graph = make_graph(
        nodes, language="ja", slots={"time": TIME}, intents={"price": price, "cancel": cancel}
    )
    said = "あー、財布と相談したら今月ちょっと厳しくて…落ち着いたらまた電話しますね"
    filled = {"time": None, "course": "アロマ"}
    assert analyse(Scenario.from_dict(graph), "ask_time", said, "time", filled).intent == "cancel"


@pytest.mark.parametrize(
    "said",
    [
        "등록은 제가 아니라 집사람 앞으로 해 두는 게 맞겠네요",
        "남편 앞으로 해 두는 게 좋겠어요",
    ],
)
def test_another_persons_name_by_a_relation_or_in_their_name(said: str) -> None:
    assert changed("ko", "name", NAME, "김지우", said) == "redo"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "うーん…今のを聞いてて、一か所だけ引っかかるところがあって"),
        ("ko", "어라, 하나가 엉뚱하게 들어가 있네요"),
    ],
)
def test_something_that_does_not_sit_right_is_a_no(language: str, said: str) -> None:
    filled = {"time": "10:00", "name": "Kim", "phone": "5551234567"}
    assert analyse(choose_after_no(language), "confirm", said, None, filled).intent == "deny"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ko", "그때는 애가 아직 피아노 학원에 있을 때라서요, 해 질 무렵쯤이 낫겠어요"),
        ("en", "Oh shoot, ten is my daughter's school play, I won't even be around."),
    ],
)
def test_a_time_by_the_sun_or_one_without_the_caller_changes_the_time(
    language: str, said: str
) -> None:
    assert changed(language, "time", TIME, "10:00", said) == "redo"


def test_someone_tagging_along_changes_the_count() -> None:
    assert changed("ko", "party", PEOPLE, 1, "작은애도 형 따라 다니겠다고 떼를 써서요") == "redo"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "オイルってベタベタしそうで、主人があんまり好きじゃないみたいなんですよね"),
        ("en", "The oil one? My husband isn't keen on oils."),
    ],
)
def test_a_held_option_disliked_asks_for_another(language: str, said: str) -> None:
    course = {
        "type": "enum",
        "kind": "choice",
        "prompt": "?",
        "values": ["アロマオイル", "指圧"] if language == "ja" else ["oil", "shiatsu"],
        "synonyms": {"アロマオイル": ["オイル"]} if language == "ja" else {},
    }
    held = "アロマオイル" if language == "ja" else "oil"
    assert changed(language, "course", course, held, said) == "redo"


def test_the_tier_weighs_in_where_the_rules_heard_only_a_question_topic() -> None:
    """Not where they heard an action or a yes as weakly: "could you set that up?" at a
    greeting that offers one thing to do stays theirs."""
    intents = {
        "hours": {"examples": ["what time do your technicians finish?"]},
        "book": {"examples": ["I'd like to book a cleaning"]},
    }
    on = [
        {"condition": {"field": "nlu.intent", "operator": "equals", "value": name}, "target": "end"}
        for name in intents
    ]
    nodes: list[dict[str, Any]] = [
        {"id": "start", "next_nodes": on},
        {"id": "end", "terminal": True},
    ]
    scenario = Scenario.from_dict(make_graph(nodes, intents=intents))
    said = "After you finish, how soon can the kids play on the carpet again?"
    request = request_at(scenario, "start", said)
    assert not leaves_to_rules(request, NLUResult(intent="hours", confidence=TOPIC_SCORE))
    assert leaves_to_rules(request, NLUResult(intent="hours", confidence=0.85))
    assert leaves_to_rules(request, NLUResult(intent="book", confidence=0.6))
    assert leaves_to_rules(request, NLUResult(intent="affirm", confidence=0.7))
