"""Natural answers to a booking bot, by failure class and language: declared nouns over
built-in counters, values offered in a question, mid-sentence corrections, natural zeros,
the speaker added to a count, names in carrier phrases, renaming at a read-back, one-character
nouns, natural yes and cancel phrasings, questions matched by the thing asked about,
informal amounts."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import correction, is_question, offers_values
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._entities import extract_text
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU
from dialogkit.nlu._words import nouns_pattern
from dialogkit.nlu.lang import paraphrases
from dialogkit.scenario.model import Intent, Slot
from dialogkit.scenario.slot_meaning import slot_meaning_problems
from tests.helpers import make_graph

BIKES = {
    "adult_bikes": Slot(
        type="integer",
        kind="count",
        unit="items",
        nouns=["adult bike", "adult bikes", "adult", "adults", "big bike", "big bikes"],
    ),
    "kids_bikes": Slot(
        type="integer",
        kind="count",
        unit="items",
        nouns=["kids bike", "kids bikes", "kid", "kids", "child", "children", "small bikes"],
    ),
    "hours": Slot(type="integer", kind="duration", unit="hours"),
}
PARTY = {"party": Slot(type="integer", kind="count", unit="people")}
TAXI = {
    "passengers": Slot(type="integer", kind="count", unit="people", nouns=["人数", "名"]),
    "suitcases": Slot(type="integer", kind="count", unit="items", nouns=["スーツケース", "荷物"]),
    "guest_name": Slot(type="text", kind="person_name"),
}
NAME = {"name": Slot(type="text", kind="person_name")}


def scenario(language: str, *, accept: list[str] | None = None) -> Scenario:
    node: dict[str, Any] = {"id": "n", "description": "N.", "terminal": True}
    if accept:
        node["accept_slots"] = accept
    slots = {**BIKES, **PARTY, **TAXI, **NAME}
    document = make_graph(
        [node],
        language=language,
        slots={name: slot.model_dump(exclude_none=True) for name, slot in slots.items()},
    )
    return Scenario.from_dict(document)


def analyse(
    text: str,
    slots: dict[str, Slot],
    expected: str | None,
    *,
    language: str = "en",
    intents: dict[str, Intent] | None = None,
    accept: list[str] | None = None,
    filled: dict[str, Any] | None = None,
) -> NLUResult:
    graph = scenario(language, accept=accept)
    request = NLURequest(
        scenario=graph,
        node=graph.nodes[0],
        text=text,
        intents={**(intents or {}), **BUILTIN_INTENTS},
        slots=slots,
        expected_slot=expected,
        filled_slots=filled or {},
    )
    return RuleNLU().analyse(request)


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("2 adult bikes and 1 kids bike", {"adult_bikes": 2, "kids_bikes": 1}),
        ("3 adult bikes", {"adult_bikes": 3}),
        ("2 adults, zero kids", {"adult_bikes": 2, "kids_bikes": 0}),
        ("two adults and one child", {"adult_bikes": 2, "kids_bikes": 1}),
        ("2 adult bikes for 3 hours", {"adult_bikes": 2, "hours": 3}),
        ("2 big ones and 2 small ones", {"adult_bikes": 2, "kids_bikes": 2}),
    ],
)
def test_a_declared_noun_wins_over_a_built_in_counter(text: str, counts: dict[str, int]) -> None:
    assert analyse(text, BIKES, "adult_bikes").entities == counts


@pytest.mark.parametrize(
    ("text", "language", "offered"),
    [
        ("can I pick them up tomorrow at 10?", "en", True),
        ("is 10 ok?", "en", True),
        ("tomorrow 10ish?", "en", True),
        ("내일 2시 가능해요?", "ko", True),
        ("토요일 오후 2시에 가능할까요?", "ko", True),
        ("오늘 오후 5시 되나요", "ko", True),
        ("내일 열 시쯤?", "ko", True),
        ("明日の朝9時に来てもらえますか？", "ja", True),
        ("明日9時は空いてますか？", "ja", True),
        ("how much is it on Sunday?", "en", False),
        ("몇 시에 가능해요?", "ko", False),
        ("일요일에 문 열어요?", "ko", False),
        ("日曜日も大丈夫ですか？", "ja", False),
        ("明日は開いていますか", "ja", False),
    ],
)
def test_a_question_offering_a_value_is_told_from_one_about_it(
    text: str, language: str, offered: bool
) -> None:
    assert is_question(text, language)
    assert offers_values(text, language) is offered


@pytest.mark.parametrize(
    ("text", "language", "meant"),
    [
        ("세 명... 아니 네 명이요", "ko", "네 명이요"),
        ("세 명 아니 네 명", "ko", "네 명"),
        ("3人、いや、4人です", "ja", "4人です"),
        ("Thursday, not Wednesday, at 11 am", "en", "Thursday at 11 am"),
    ],
)
def test_a_correction_in_mid_sentence_means_the_value_after_it(
    text: str, language: str, meant: str
) -> None:
    assert correction(text, language) == meant


def test_a_corrected_count_takes_the_new_value() -> None:
    assert analyse("세 명... 아니 네 명이요", PARTY, "party", language="ko").entities == {
        "party": 4
    }
    assert analyse("3人、いや、4人です", TAXI, "passengers", language="ja").entities == {
        "passengers": 4
    }


@pytest.mark.parametrize(
    ("text", "expected", "counts"),
    [
        ("スーツケースはありません", "suitcases", {"suitcases": 0}),
        ("荷物はないです", "suitcases", {"suitcases": 0}),
        ("ありません", "suitcases", {"suitcases": 0}),
        ("3人です。スーツケースはありません", "passengers", {"passengers": 3, "suitcases": 0}),
        ("分からないです", "suitcases", {}),
    ],
)
def test_natural_zeros_in_japanese(text: str, expected: str, counts: dict[str, int]) -> None:
    assert analyse(text, TAXI, expected, language="ja").entities == counts


@pytest.mark.parametrize(
    ("text", "language", "count"),
    [
        ("아이 한 명이랑 저요", "ko", 2),
        ("친구 한 명 데려갈게요", "ko", 2),
        ("子供と私です", "ja", 2),
        ("友達2人と私です", "ja", 3),
        ("2 people and me", "en", 3),
        ("두 명이요", "ko", 2),
    ],
)
def test_the_speaker_added_to_a_count_is_one_more(text: str, language: str, count: int) -> None:
    assert analyse(text, PARTY, "party", language=language).entities == {"party": count}


def test_bare_numbers_in_a_row_fill_the_asked_slot_and_the_next() -> None:
    assert analyse("2 and 1", BIKES, "adult_bikes").entities == {
        "adult_bikes": 2,
        "kids_bikes": 1,
    }
    assert analyse("2 at 7", BIKES, "adult_bikes").entities == {"adult_bikes": 2}


def test_a_count_of_people_answers_a_count_of_things_one_each() -> None:
    assert analyse("me and my wife, plus our two kids", BIKES, "adult_bikes").entities == {
        "adult_bikes": 2,
        "kids_bikes": 2,
    }


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("put it under Jordan Smith", "Jordan Smith"),
        ("the name should be Alex Park", "Alex Park"),
        ("my name is Ann Lee", "Ann Lee"),
        ("예약자는 정하늘이에요", "정하늘"),
        ("김 민수요", "김민수"),
        ("이름을 김민준으로 바꿔 주세요", "김민준"),
        ("鈴木と言います", "鈴木"),
        ("名前は山口です", "山口"),
        ("내일 가요", "내일 가요"),
    ],
)
def test_a_name_is_read_out_of_its_carrier_phrase(text: str, name: str) -> None:
    assert extract_text(Slot(type="text", kind="person_name"), text, "name") == name


@pytest.mark.parametrize(
    ("text", "language", "name"),
    [
        ("the name should be Alex Park", "en", "Alex Park"),
        ("이름을 김민준으로 바꿔 주세요", "ko", "김민준"),
        ("名前は山口です", "ja", "山口"),
    ],
)
def test_a_read_back_that_accepts_a_name_takes_a_new_one(
    text: str, language: str, name: str
) -> None:
    result = analyse(text, NAME, None, language=language, accept=["name"], filled={"name": "X"})
    assert result.entities == {"name": name}


def test_a_read_back_takes_no_name_from_a_remark_about_it() -> None:
    result = analyse("名前が間違っています", NAME, None, language="ja", accept=["name"])
    assert "name" not in result.entities
    assert analyse("looks good", NAME, None, accept=["name"]).entities == {}


def test_a_one_character_noun_is_a_word_of_its_own() -> None:
    pattern = nouns_pattern(("名", "명"))
    assert pattern.search("3名です")
    assert pattern.search("三名")
    assert pattern.search("세 명이요")
    assert not pattern.search("名前が間違っています")
    assert not pattern.search("성명을 알려 주세요")
    assert "passengers" not in analyse("名前が間違っています", TAXI, None, language="ja").entities


def test_validate_warns_about_very_short_nouns() -> None:
    problems = list(
        slot_meaning_problems(
            {"party": Slot(type="integer", kind="count", unit="people", nouns=["名", "人数"])}
        )
    )
    assert [(p.path, p.severity) for p in problems] == [("slots.party.nouns[0]", "warning")]


@pytest.mark.parametrize(
    ("text", "language"),
    [("looks good", "en"), ("all good", "en"), ("大丈夫です", "ja"), ("네 예약할게요", "ko")],
)
def test_natural_yes(text: str, language: str) -> None:
    assert analyse(text, {}, None, language=language).intent == "affirm"


CANCEL = {
    "cancel": Intent(
        examples=["cancel the reservation", "취소해 주세요"],
        keywords=["forget it", "never mind", "안 할게요", "やめます"],
    )
}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("ugh, forget the whole thing", "en"),
        ("그냥 안 할래요", "ko"),
        ("아 됐어요 안 할래요", "ko"),
        ("actually, count me out", "en"),
        ("I'll hold off on this", "en"),
        ("아무래도 이번엔 접을게요", "ko"),
        ("그건 없던 걸로 해 주세요", "ko"),
        ("すみません、なかったことにしてください", "ja"),
        ("その件は見合わせます", "ja"),
    ],
)
def test_cancel_phrasings_through_the_paraphrase_groups(text: str, language: str) -> None:
    assert "forget the whole thing" in paraphrases("forget it")
    assert analyse(text, {}, None, language=language, intents=CANCEL).intent == "cancel"


FAQ = {
    "ask_deposit": Intent(examples=["do I need to leave a deposit?", "do you need my ID?"]),
    "reserve": Intent(examples=["예약하고 싶어요"], keywords=["예약"]),
    "ask_cancel_fee": Intent(examples=["취소 수수료가 있나요?", "예약 취소는 어떻게 해요?"]),
}


@pytest.mark.parametrize(
    ("text", "language", "intent"),
    [
        ("why do you need my name?", "en", None),
        ("do I need a deposit?", "en", "ask_deposit"),
        ("예약 취소는 어떻게 하나요?", "ko", "ask_cancel_fee"),
        ("예약하고 싶어요", "ko", "reserve"),
    ],
)
def test_a_question_goes_to_the_thing_it_asks_about(
    text: str, language: str, intent: str | None
) -> None:
    assert analyse(text, {}, None, language=language, intents=FAQ).intent == intent


@pytest.mark.parametrize(
    ("text", "expected", "values"),
    [
        ("just an hour", "hours", {"hours": 1}),
        ("an hour", "hours", {"hours": 1}),
        ("a couple of hours", "hours", {}),
    ],
)
def test_informal_amounts(text: str, expected: str, values: dict[str, int]) -> None:
    assert analyse(text, BIKES, expected).entities == values


def test_a_time_hedged_with_ish() -> None:
    when = {"day": Slot(type="date"), "at": Slot(type="time")}
    assert analyse("tmrw 10ish", when, "day").entities["at"] == "10:00"
    assert analyse("10:30-ish", when, "at").entities["at"] == "10:30"
