"""The hotel case of the issue, per language, with slots that declare no nouns or kinds (as
an author who read older docs would write them): counts, durations, ranges, questions,
corrections and "the name is wrong" at the read-back."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine

WORDS = {
    "en": {
        "prompts": ["When?", "Nights?", "Adults?", "Children?", "Room?", "Name?"],
        "rooms": ["double", "twin", "suite"],
        "price": ["how much is the room?", "what does the suite cost?"],
        "cancel": ["cancel my booking", "I want to cancel"],
        "adults": "Number of adults",
        "children": "Number of children",
    },
    "ko": {
        "prompts": ["언제 오세요?", "몇 박?", "성인은요?", "아이는요?", "객실은요?", "성함은요?"],
        "rooms": ["더블", "트윈", "스위트"],
        "price": ["방 가격이 얼마예요?", "스위트는 얼마예요?"],
        "cancel": ["예약 취소해 주세요", "취소할게요"],
        "adults": "성인 인원",
        "children": "어린이 인원",
    },
    "ja": {
        "prompts": ["ご到着は", "何泊", "大人は", "お子様は", "お部屋は", "お名前は"],
        "rooms": ["ダブル", "ツイン", "スイート"],
        "price": ["料金はいくらですか", "スイートはいくらですか"],
        "cancel": ["予約をキャンセルしてください", "キャンセルします"],
        "adults": "大人の人数",
        "children": "子供の人数",
    },
}
SLOTS = ("check_in", "nights", "adults", "children", "room", "guest_name")


def hotel(language: str) -> dict[str, Any]:
    words = WORDS[language]
    asked = dict(zip(SLOTS, words["prompts"], strict=True))
    changed = {"any": [{"field": f"nlu.entities.{s}", "operator": "exists"} for s in SLOTS]}
    return {
        "metadata": {"slug": "hotel", "name": "Hotel", "language": language, "version": "1"},
        "intents": {
            "ask_price": {"examples": words["price"]},
            "cancel": {"examples": words["cancel"]},
        },
        "slots": {
            "check_in": {
                "type": "date",
                "prompt": asked["check_in"],
                "validation": {"period": "future"},
            },
            "nights": {"type": "integer", "unit": "nights", "prompt": asked["nights"]},
            "adults": {
                "type": "integer",
                "unit": "people",
                "prompt": asked["adults"],
                "description": words["adults"],
            },
            "children": {
                "type": "integer",
                "unit": "people",
                "prompt": asked["children"],
                "description": words["children"],
            },
            "room": {"type": "enum", "values": words["rooms"], "prompt": asked["room"]},
            "guest_name": {"type": "text", "prompt": asked["guest_name"]},
        },
        "graph": {
            "entry": "ask",
            "global_transitions": [
                {
                    "condition": {
                        "field": "nlu.intent",
                        "operator": "equals",
                        "value": "ask_price",
                    },
                    "action": "stay",
                },
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": "cancel"},
                    "target": "cancelled",
                },
            ],
            "nodes": [
                {
                    "id": "ask",
                    "description": "Collect.",
                    "collect_slots": list(SLOTS),
                    "default_next": "confirm",
                },
                {
                    "id": "confirm",
                    "description": "Read back.",
                    "responses": {
                        "default": "{check_in} {nights} {adults}/{children} {room} {guest_name}?"
                    },
                    "accept_slots": list(SLOTS),
                    "next_nodes": [
                        {"condition": changed, "target": "confirm"},
                        {
                            "condition": {
                                "field": "nlu.intent",
                                "operator": "equals",
                                "value": "affirm",
                            },
                            "target": "done",
                        },
                    ],
                },
                {
                    "id": "done",
                    "description": "Done.",
                    "responses": {"default": "OK."},
                    "terminal": True,
                },
                {
                    "id": "cancelled",
                    "description": "Stop.",
                    "responses": {"default": "Bye."},
                    "terminal": True,
                },
            ],
        },
    }


USER = {"date_time": "2026-11-23T10:00:00+09:00", "timezone": "Asia/Seoul"}


def slots_after(engine: Engine, language: str, *texts: str) -> dict[str, Any]:
    session = engine.start(hotel(language), user=USER)
    for text in texts:
        session.send(text)
    return {k: v for k, v in session.info().slots.items() if v is not None}


@pytest.mark.parametrize(
    ("language", "texts", "slots"),
    [
        ("en", ["two adults and a kid"], {"adults": 2, "children": 1}),
        ("en", ["2 adults, no children"], {"adults": 2, "children": 0}),
        ("en", ["just me"], {"adults": 1}),
        (
            "en",
            ["I need a room from next friday for 3 nights"],
            {"check_in": "2026-12-04", "nights": 3},
        ),
        ("en", ["from the 10th to the 13th of December"], {"check_in": "2026-12-10"}),
        (
            "en",
            ["tomorrow", "a week", "me and my wife", "no kids"],
            {"check_in": "2026-11-24", "nights": 7, "adults": 2, "children": 0},
        ),
        ("ko", ["성인 둘에 아이 하나요"], {"adults": 2, "children": 1}),
        ("ko", ["어른 2명이고 아이는 없어요"], {"adults": 2, "children": 0}),
        ("ko", ["다음 주 금요일부터 2박이요"], {"check_in": "2026-12-04", "nights": 2}),
        ("ko", ["12월 10일부터 13일까지요"], {"check_in": "2026-12-10"}),
        ("ko", ["다음 주 월요일에 2박 3일로요"], {"check_in": "2026-11-30", "nights": 2}),
        ("ja", ["来週の月曜日から2泊3日で"], {"check_in": "2026-11-30", "nights": 2}),
        ("en", ["me, my husband and our two kids"], {"adults": 2, "children": 2}),
        (
            "ko",
            ["내일", "일주일이요", "저랑 아내요", "없어요"],
            {"check_in": "2026-11-24", "nights": 7, "adults": 2, "children": 0},
        ),
        ("ja", ["大人2人と子供1人です"], {"adults": 2, "children": 1}),
        ("ja", ["大人二人で、子供はいません"], {"adults": 2, "children": 0}),
        ("ja", ["来週の金曜日から3泊で"], {"check_in": "2026-12-04", "nights": 3}),
        (
            "ja",
            ["明日", "1週間です", "私と妻です", "いません"],
            {"check_in": "2026-11-24", "nights": 7, "adults": 2, "children": 0},
        ),
    ],
)
def test_counts_durations_and_ranges(
    engine: Engine, language: str, texts: list[str], slots: dict[str, Any]
) -> None:
    assert slots_after(engine, language, *texts) == slots


BOOKED = {
    "en": ["tomorrow", "2 nights", "2 adults and 1 child", "twin", "Kim"],
    "ko": ["내일", "2박", "성인 2명 아이 1명", "트윈", "김민수"],
    "ja": ["明日", "2泊", "大人2人と子供1人", "ツイン", "田中です"],
}


@pytest.mark.parametrize(
    ("language", "text", "changed"),
    [
        ("en", "how much is the suite per night?", {}),
        ("en", "not a twin, a double", {"room": "double"}),
        ("en", "actually make it three nights", {"nights": 3}),
        ("en", "no wait, 3 adults", {"adults": 3}),
        ("ko", "스위트는 1박에 얼마예요?", {}),
        ("ko", "트윈 말고 더블로 해 주세요", {"room": "더블"}),
        ("ko", "아 아니 3박이요", {"nights": 3}),
        ("ja", "スイートは一泊いくらですか", {}),
        ("ja", "ツインじゃなくてダブル", {"room": "ダブル"}),
        ("ja", "いや、3泊です", {"nights": 3}),
        ("en", "I don't need a twin, a double is fine", {"room": "double"}),
        ("en", "no, not 2 nights, 3", {"nights": 3}),
        ("en", "it's not Kim, it's Lee", {"guest_name": "Lee"}),
        ("en", "I don't want the suite", {}),
        ("ko", "스위트는 싫어요", {}),
        ("ja", "スイートはいらないです", {}),
    ],
)
def test_questions_and_corrections_at_the_read_back(
    engine: Engine, language: str, text: str, changed: dict[str, Any]
) -> None:
    before = slots_after(engine, language, *BOOKED[language])
    assert set(before) == set(SLOTS)
    assert slots_after(engine, language, *BOOKED[language], text) == {**before, **changed}


@pytest.mark.parametrize(
    ("language", "wrong", "name"),
    [
        ("en", "no, the name is wrong", "Lee"),
        ("ko", "이름이 틀렸어요", "박서준이에요"),
        ("ja", "名前が違います", "山田です"),
    ],
)
def test_the_name_is_wrong_clears_it_and_asks_again(
    engine: Engine, language: str, wrong: str, name: str
) -> None:
    session = engine.start(hotel(language), user=USER)
    for text in BOOKED[language]:
        session.send(text)
    reply = session.send(wrong)
    assert reply.current_node == "ask"
    assert reply.response == WORDS[language]["prompts"][5]
    reply = session.send(name)
    assert reply.current_node == "confirm"
    assert (
        session.info().slots["guest_name"] == {"en": "Lee", "ko": "박서준", "ja": "山田"}[language]
    )
