"""Natural answers found by a second scout on unseen scenarios, by class and language: a
"no, nothing" to an optional question, a cancel said in other words, a leave-taking that
also says the scenario's own intent, a name after a hesitation or a greeting, several values
in one first answer, a clause that is no name."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import is_question, offers_values, says_nothing
from dialogkit.nlu._discipline import admit, is_clause
from dialogkit.nlu._entities import INVALID, extract, extract_date, known_unit
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._topics import topic_roots
from dialogkit.scenario.model import Slot
from tests.helpers import make_graph
from tests.nlu.reading import analyse

CANCEL = {
    "en": {"examples": ["cancel the request", "never mind, cancel it"], "keywords": ["cancel"]},
    "ko": {"examples": ["취소할게요", "그냥 안 할래요"], "keywords": ["취소"]},
    "ja": {
        "examples": ["キャンセルします", "やっぱりやめます"],
        "keywords": ["キャンセル", "やめます"],
    },
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
    return analyse(scenario, "ask_note", text, "note")


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
def test_no_nothing_to_an_optional_question_is_a_no_not_its_text(language: str, text: str) -> None:
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


NAMES = {
    "patient": {"type": "text", "kind": "person_name"},
    "phone": {"type": "phone"},
    "email": {"type": "email"},
    "drug": {"type": "enum", "values": ["metformin", "lisinopril"]},
}


def welcome(language: str, text: str) -> NLUResult:
    nodes: list[dict[str, Any]] = [
        {
            "id": "welcome",
            "description": "Ask the name.",
            "collect_slots": ["patient"],
            "accept_slots": ["phone", "email", "drug"],
            "default_next": "end",
        },
        {"id": "end", "description": "End.", "terminal": True},
    ]
    scenario = Scenario.from_dict(make_graph(nodes, language=language, slots=NAMES))
    return analyse(scenario, "welcome", text, "patient")


@pytest.mark.parametrize(
    ("language", "text", "name"),
    [
        ("en", "um, Maria Lopez", "Maria Lopez"),
        ("en", "hi, I'm Maria Lopez", "Maria Lopez"),
        ("ko", "음... 김지훈이요", "김지훈"),
        ("ko", "네 안녕하세요 저는 정하늘이라고 합니다", "정하늘"),
        ("ja", "えーと、田中健です", "田中健"),
    ],
)
def test_a_name_loses_its_opening_hesitation_or_greeting(
    language: str, text: str, name: str
) -> None:
    assert welcome(language, text).entities["patient"] == name


@pytest.mark.parametrize(
    ("language", "text", "values"),
    [
        (
            "en",
            "Maria Lopez, 555-201-3344, I need metformin",
            {"patient": "Maria Lopez", "phone": "5552013344", "drug": "metformin"},
        ),
        (
            "ko",
            "김지훈이고 번호는 010-2345-6789예요",
            {"patient": "김지훈", "phone": "010-2345-6789"},
        ),
        (
            "ja",
            "田中健です。メールはtanaka@example.comです",
            {"patient": "田中健", "email": "tanaka@example.com"},
        ),
    ],
)
def test_every_value_of_a_first_answer_is_read(
    language: str, text: str, values: dict[str, Any]
) -> None:
    assert welcome(language, text).entities == values


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "I watched TV for long"), ("ko", "화분에 물을 줬어요"), ("ja", "テレビを見ました")],
)
def test_a_clause_is_never_a_persons_name(language: str, text: str) -> None:
    assert is_clause(text, language)
    slot = Slot.model_validate(NAMES["patient"])
    assert admit("patient", slot, text, question=False, asked=True, language=language) is None


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Will Smith"), ("ko", "김하을"), ("ja", "田中健")]
)
def test_a_name_is_not_a_clause(language: str, name: str) -> None:
    assert not is_clause(name, language)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "do you deliver on Saturdays? is that ok"),
        ("ko", "토요일에도 이사 되나요?"),
        ("ja", "土曜日も大丈夫ですか"),
    ],
)
def test_a_question_about_a_kind_of_day_offers_no_value(language: str, text: str) -> None:
    assert is_question(text, language)
    assert not offers_values(text, language)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "can I pick them up tomorrow at 10?"),
        ("ko", "내일 2시 가능해요?"),
        ("ja", "明日9時は空いてますか"),
    ],
)
def test_a_question_about_one_day_still_offers_it(language: str, text: str) -> None:
    assert offers_values(text, language)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("November 20", "2026-11-20"), ("11월 20일", "2026-11-20"), ("January 5", "2027-01-05")],
)
def test_a_date_without_a_year_that_just_passed_is_not_a_year_ahead(
    text: str, expected: str
) -> None:
    slot = Slot.model_validate({"type": "date"})
    frame = Frame.of({"date_time": "2026-11-25T10:00:00"})
    assert extract_date(slot, text, frame) == expected


@pytest.mark.parametrize(
    ("text", "days"),
    [("a month's worth", 30), ("2 months", 60), ("한 달", 30), ("3개월", 90), ("1ヶ月", 30)],
)
def test_a_month_is_a_span_of_thirty_days(text: str, days: int) -> None:
    slot = Slot.model_validate({"type": "integer", "kind": "duration", "unit": "days"})
    assert extract(slot, text, expected=True) == days


def test_a_calendar_month_is_no_span() -> None:
    slot = Slot.model_validate({"type": "integer", "kind": "duration", "unit": "nights"})
    assert extract(slot, "12월", expected=True) is INVALID
    assert extract(slot, "12月", expected=True) is INVALID


@pytest.mark.parametrize("unit", ["won", "yen", "usd"])
def test_the_documented_money_units_are_known(unit: str) -> None:
    assert known_unit(unit)


FAQ_INTENTS = {
    "ko": {
        "ask_price": ["비용은 대략 얼마예요?", "가격이 어떻게 돼요?"],
        "ask_insurance": ["물건 깨지면 보상되나요?", "파손 보험 되나요?"],
    },
    "en": {
        "ask_hours": ["what are your opening hours?", "are you open on Sunday?"],
        "ask_insurance": ["do you take my insurance?", "is this covered by insurance?"],
    },
    "ja": {
        "ask_fee": ["変更手数料はかかりますか？", "キャンセル料はいくらですか？"],
        "ask_checkin": ["チェックインは何時からですか？"],
    },
}


def faq(language: str, text: str) -> NLUResult:
    nodes: list[dict[str, Any]] = [
        {"id": "ask", "description": "Ask.", "collect_slots": ["note"], "default_next": "end"},
        {"id": "end", "description": "End.", "terminal": True},
    ]
    intents = {name: {"examples": examples} for name, examples in FAQ_INTENTS[language].items()}
    document = make_graph(
        nodes,
        language=language,
        slots={"note": {"type": "text", "prompt": "?"}},
        intents=intents,
        global_transitions=[
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": name},
                "target": "end",
            }
            for name in intents
        ],
    )
    scenario = Scenario.from_dict(document)
    return analyse(scenario, "ask", text, "note")


@pytest.mark.parametrize(
    ("language", "text", "intent"),
    [
        ("ko", "혹시 냉장고 긁히면 보상해 주시나요?", "ask_insurance"),
        ("en", "will my insurance pay for any of it?", "ask_insurance"),
        ("ja", "チェックインって早めにできますか？", "ask_checkin"),
    ],
)
def test_a_question_in_other_words_names_what_it_asks_about(
    language: str, text: str, intent: str
) -> None:
    assert faq(language, text).intent == intent


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("ko", "토요일에도 이사 되나요?"),
        ("ja", "何時に着けばいいですか？"),
        ("en", "what about tomorrow?"),
    ],
)
def test_a_question_about_something_else_names_no_topic(language: str, text: str) -> None:
    assert faq(language, text).intent is None


@pytest.mark.parametrize(
    ("example", "common", "topic"),
    [
        ("should I turn the water off before you arrive?", "befor", "water"),
        ("혹시 주차 되나요?", "혹시", "주차"),
        ("今日って駐車場ありますか？", "今日", "駐車場"),
    ],
)
def test_a_common_word_is_no_topic(example: str, common: str, topic: str) -> None:
    """A question that began "Before I give you that, ..." once asked how to shut the water off,
    because "before" was in that intent's examples alone."""
    roots = topic_roots(example)
    assert topic in roots
    assert common not in roots


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("can you bring it to my house?", "delivery"),
        ("I'll come get it", "pickup"),
        ("집으로 갖다 주세요", "delivery"),
        ("届けてください", "delivery"),
    ],
)
def test_an_enum_value_said_in_other_words(text: str, value: str) -> None:
    slot = Slot.model_validate(
        {
            "type": "enum",
            "values": ["pickup", "delivery"],
            "synonyms": {"delivery": ["배달", "配達"]},
        }
    )
    assert extract(slot, text, expected=True) == value
