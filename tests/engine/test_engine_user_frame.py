"""Values in the session user's frame: relative dates, several values per utterance."""

from __future__ import annotations

from typing import Any

from dialogkit import Engine, Session
from tests.helpers import make_graph

SLOTS: dict[str, Any] = {
    "day": {"type": "date", "prompt": "Which day?", "validation": {"period": "future"}},
    "at": {"type": "time", "prompt": "What time?"},
    "guests": {
        "type": "integer",
        "prompt": "For how many?",
        "unit": "people",
        "validation": {"min": 1, "max": 8},
    },
    "birth_date": {"type": "date", "prompt": "Your date of birth?"},
}
BOOK = {
    "id": "book",
    "description": "Collect a booking.",
    "collect_slots": ["day", "at", "guests"],
    "default_next": "born",
}
BORN = {
    "id": "born",
    "description": "Ask the birth date.",
    "collect_slots": ["birth_date"],
    "default_next": "done",
}
DONE = {
    "id": "done",
    "description": "Read back.",
    "terminal": True,
    "responses": {"default": "{day} {at} x{guests}, born {birth_date}."},
}


def start(engine: Engine, user: dict[str, Any], language: str = "en") -> Session:
    document = make_graph([BOOK, BORN, DONE], slots=SLOTS, language=language)
    return engine.start(document, bot_first=True, user=user)


def test_relative_dates_resolve_against_the_session_users_date_time(engine: Engine) -> None:
    # A Sunday far from the server clock, in the user's own time zone.
    session = start(engine, {"date_time": "2031-03-02T21:00:00+09:00", "timezone": "Asia/Seoul"})
    session.send("tomorrow")
    assert session.info().slots["day"] == "2031-03-03"


def test_the_users_time_zone_decides_which_day_today_is(engine: Engine) -> None:
    # 20:00 UTC on the 2nd is 05:00 on the 3rd in Seoul.
    session = start(
        engine, {"date_time": "2031-03-02T20:00:00+00:00", "timezone": "Asia/Seoul"}, "ko"
    )
    session.send("오늘이요")
    assert session.info().slots["day"] == "2031-03-03"


def test_several_values_in_one_utterance_land_in_their_own_slots(engine: Engine) -> None:
    session = start(engine, {"date_time": "2031-03-02T21:00:00+09:00", "timezone": "Asia/Seoul"})
    reply = session.send("tomorrow at 7 pm for 4")
    assert session.info().slots == {"day": "2031-03-03", "at": "19:00", "guests": 4}
    assert reply.response == "Your date of birth?"


def test_korean_and_japanese_bookings_in_one_utterance(engine: Engine) -> None:
    user = {"date_time": "2031-03-02T21:00:00+09:00", "timezone": "Asia/Seoul"}
    korean = start(engine, user, "ko")
    korean.send("다음 주 금요일 저녁 7시 반에 네 명이요")
    assert korean.info().slots == {"day": "2031-03-07", "at": "19:30", "guests": 4}
    japanese = start(engine, user, "ja")
    japanese.send("明後日の夜七時に二名で")
    assert japanese.info().slots == {"day": "2031-03-04", "at": "19:00", "guests": 2}


def test_a_birth_date_is_not_read_from_a_relative_day_word(engine: Engine) -> None:
    session = start(engine, {"date_time": "2031-03-02T21:00:00+09:00", "timezone": "Asia/Seoul"})
    session.send("tomorrow at 7 pm for 4")
    session.send("today")
    assert "birth_date" not in session.info().slots
    reply = session.send("March 2, '95")
    assert reply.response == "2031-03-03 19:00 x4, born 1995-03-02."
