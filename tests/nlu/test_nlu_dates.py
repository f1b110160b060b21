"""Dates and times in the user's frame, in Korean, Japanese and English."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.engine.turn import initial_context
from dialogkit.nlu._entities import INVALID, extract
from dialogkit.nlu._frame import Frame
from dialogkit.scenario.model import Slot

# Monday 23 November 2026, 22:30 in Seoul: already Tuesday in no time zone west of it.
FRAME = Frame.of({"date_time": "2026-11-23T22:30:00+09:00", "timezone": "Asia/Seoul"})


def date_of(text: str, name: str = "visit_date", **definition: Any) -> Any:
    slot = Slot.model_validate({"type": "date", **definition})
    return extract(slot, text, expected=True, frame=FRAME, name=name)


def time_of(text: str, *, expected: bool = True, **rules: Any) -> Any:
    slot = Slot.model_validate({"type": "time", "validation": rules})
    return extract(slot, text, expected=expected, frame=FRAME)


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("오늘이요", "2026-11-23"),
        ("내일 갈게요", "2026-11-24"),
        ("모레", "2026-11-25"),
        ("글피", "2026-11-26"),
        ("다음 주 금요일", "2026-12-04"),
        ("이번 주 토요일", "2026-11-28"),
        ("금요일에요", "2026-11-27"),
        ("3일 후", "2026-11-26"),
        ("다음 달 3일", "2026-12-03"),
        ("今日", "2026-11-23"),
        ("明日でお願いします", "2026-11-24"),
        ("明後日", "2026-11-25"),
        ("来週の金曜日", "2026-12-04"),
        ("今週の土曜日", "2026-11-28"),
        ("来月3日", "2026-12-03"),
        ("today", "2026-11-23"),
        ("tomorrow please", "2026-11-24"),
        ("the day after tomorrow", "2026-11-25"),
        ("next Friday", "2026-12-04"),
        ("next week's Tuesday", "2026-12-01"),
        ("this Saturday", "2026-11-28"),
        ("this weekend", "2026-11-28"),
        ("in 2 weeks", "2026-12-07"),
        ("담주 화욜", "2026-12-01"),
        ("이틀 뒤에요", "2026-11-25"),
        ("일주일 후", "2026-11-30"),
        ("次の日曜日", "2026-11-29"),
    ],
)
def test_relative_dates_count_from_the_users_today(text: str, iso: str) -> None:
    assert date_of(text) == iso


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2024-03-05", "2024-03-05"),
        ("2024.3.5", "2024-03-05"),
        ("2024년 3월 5일", "2024-03-05"),
        ("2024年3月5日", "2024-03-05"),
        ("20240305", "2024-03-05"),
        ("March 5th, 2024", "2024-03-05"),
        ("5 March 2024", "2024-03-05"),
        ("the fifth of March 2024", "2024-03-05"),
        ("3/5/2024", "2024-03-05"),
    ],
)
def test_written_dates(text: str, iso: str) -> None:
    assert date_of(text) == iso


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("3월 5일", "2027-03-05"),
        ("삼월 오일이요", "2027-03-05"),
        ("12월 25일", "2026-12-25"),
        ("십이월 이십오일", "2026-12-25"),
        ("三月五日", "2027-03-05"),
        ("12月24日", "2026-12-24"),
        ("3/5", "2027-03-05"),
        ("March 5th", "2027-03-05"),
        ("5 March", "2027-03-05"),
        ("25일", "2026-11-25"),
        ("24日の金曜日", "2026-11-24"),
    ],
)
def test_a_date_without_a_year_is_the_next_such_date(text: str, iso: str) -> None:
    assert date_of(text) == iso


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("95년 3월 2일생이에요", "1995-03-02"),
        ("950302", "1995-03-02"),
        ("95/3/2", "1995-03-02"),
        ("05.03.02", "2005-03-02"),
        ("March 2, '95", "1995-03-02"),
        ("1995年3月2日", "1995-03-02"),
        ("평성 아니고 1988년 12월 1일", "1988-12-01"),
        ("구십오년 삼월 이일이요", "1995-03-02"),
        ("천구백구십년 오월 십칠일", "1990-05-17"),
        ("저 90년생이고 5월 17일이에요", "1990-05-17"),
        ("平成2年5月17日", "1990-05-17"),
        ("昭和六十年一月八日生まれです", "1985-01-08"),
        ("05/17/1990", "1990-05-17"),
        ("1990. 5. 17.", "1990-05-17"),
        ("May 17th, nineteen ninety", "1990-05-17"),
        ("일구구공년 오월 십칠일", "1990-05-17"),
    ],
)
def test_two_digit_years_of_a_birth_date_are_in_the_past(text: str, iso: str) -> None:
    assert date_of(text, name="birth_date") == iso


@pytest.mark.parametrize(
    "text",
    ["오늘", "내일요", "明日", "tomorrow", "2030-01-01", "1850-01-01", "5월 17일", "May 17th"],
)
def test_a_birth_date_is_a_plausible_past_date_written_out(text: str) -> None:
    assert date_of(text, name="birth_date") is INVALID
    assert date_of(text, name="dob", description="Date of birth") is INVALID


def test_periods_decide_which_side_of_today_a_date_lies() -> None:
    assert date_of("어제", validation={"period": "future"}) is INVALID
    assert date_of("3월 5일", validation={"period": "past"}) == "2026-03-05"
    assert date_of("12월 25일", validation={"period": "past"}) == "2025-12-25"
    assert date_of("27/3/2", validation={"period": "future"}) == "2027-03-02"
    assert date_of("95/3/2", validation={"period": "past"}) == "1995-03-02"


@pytest.mark.parametrize(
    "text",
    [
        "we'll need to pick another weekend",
        "a different Saturday",
        "다른 주말로 할게요",
        "다른 토요일이요",
        "別の週末にしたいです",
        "別の土曜日で",
    ],
)
def test_another_day_of_a_kind_names_no_date(text: str) -> None:
    """ "Another weekend" asks for a change; it is not this weekend."""
    assert date_of(text) is INVALID


@pytest.mark.parametrize(
    "text",
    [
        "일일 이용권으로 할게요",
        "1일 체험 코스요",
        "2일권 두 장이요",
        "3일 동안 빌릴게요",
        "사흘치 말고 3일치로요",
        "一日体験コースでお願いします",
        "一日中家にいます",
        "2日間のコースで",
        "3日分まとめて",
    ],
)
def test_a_number_of_days_is_no_day_of_the_month(text: str) -> None:
    """A day pass, a one-day course, "all day": the day counter counts days (each
    language's ``day_spans``), so no date of the 1st or the 2nd is taken from them."""
    assert date_of(text) is INVALID


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("5일에 체험하고 싶어요", "2026-12-05"),
        ("12월 1일 체험", "2026-12-01"),
        ("2일에 갈게요", "2026-12-02"),
        ("5日に体験したいです", "2026-12-05"),
    ],
)
def test_a_day_said_with_its_particle_is_still_a_date(text: str, iso: str) -> None:
    assert date_of(text) == iso


def test_invalid_calendar_dates_are_refused() -> None:
    assert date_of("2023-02-30") is INVALID
    assert date_of("13월 5일") is INVALID


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("7시 반", "07:30"),
        ("저녁 7시 반", "19:30"),
        ("오후 두 시", "14:00"),
        ("밤 12시", "00:00"),
        ("밤 11시", "23:00"),
        ("새벽 2시", "02:00"),
        ("아침 8시 15분", "08:15"),
        ("일곱 시 반이요", "07:30"),
        ("열두 시 삼십 분", "12:30"),
        ("7시 10분 전", "06:50"),
        ("내일 저녁 7시에 4명", "19:00"),
        ("7時半", "07:30"),
        ("夜7時", "19:00"),
        ("夜の七時", "19:00"),
        ("午後三時", "15:00"),
        ("十九時", "19:00"),
        ("夕方6時15分", "18:15"),
        ("half past seven", "07:30"),
        ("quarter to eight", "07:45"),
        ("twenty past 7 in the evening", "19:20"),
        ("7 pm", "19:00"),
        ("7:30pm", "19:30"),
        ("at 7 in the evening", "19:00"),
        ("tonight at 8", "20:00"),
        ("tomorrow night at 9", "21:00"),
        ("9 in the morning", "09:00"),
        ("quarter past 7 pm", "19:15"),
        ("at seven-thirty in the evening", "19:30"),
        ("twenty to 9 pm", "20:40"),
        ("여덟시", "08:00"),
        ("저녁 여섯시 반쯤", "18:30"),
        ("19:30", "19:30"),
        ("noon", "12:00"),
        ("자정", "00:00"),
    ],
)
def test_clock_times_with_day_parts_and_minutes(text: str, clock: str) -> None:
    assert time_of(text) == clock


def test_an_hour_without_a_day_part_takes_the_reading_the_slot_allows() -> None:
    evening = {"pattern": r"^(1[1-9]|2[01]):[0-5]\d$"}
    assert time_of("7시", **evening) == "19:00"
    assert time_of("7時で", **evening) == "19:00"
    assert time_of("seven o'clock", **evening) == "19:00"
    assert time_of("朝9時", **evening) is INVALID
    assert time_of("7시") == "07:00"


def test_a_bare_number_is_an_hour_only_when_the_time_was_asked_for() -> None:
    assert time_of("저녁 7") == "19:00"
    assert time_of("저녁 7", expected=False) is INVALID
    assert time_of("3 people") is INVALID
    assert time_of("두 명이요") is INVALID
    assert time_of("25시") is INVALID
    assert time_of("7:75") is INVALID


def test_relative_dates_follow_the_users_time_zone() -> None:
    slot = Slot(type="date")
    late_in_utc = Frame.of({"date_time": "2026-11-23T20:00:00+00:00", "timezone": "Asia/Seoul"})
    assert extract(slot, "오늘", expected=True, frame=late_in_utc) == "2026-11-24"
    naive = Frame.of({"date_time": "2026-11-23T23:30:00", "timezone": "Asia/Tokyo"})
    assert extract(slot, "明日", expected=True, frame=naive) == "2026-11-24"


@pytest.mark.parametrize(
    "text",
    [
        "9" * 5000,
        "1," * 3000,
        "99999999999일 후",
        "in 99999999999 weeks",
        "9999년 99월 99일",
        "0000-00-00",
        "일" * 3000,
        "二" * 3000,
        "one " * 2000,
        "平成99年99月99日",
        "999999999999999999999999 km",
    ],
)
def test_absurd_input_is_never_an_error(text: str) -> None:
    for definition in (
        {"type": "date"},
        {"type": "date", "description": "birth date"},
        {"type": "time"},
        {"type": "integer", "unit": "m"},
        {"type": "number"},
        {"type": "phone"},
        {"type": "pattern", "unit": "m", "pattern": r"(?P<value>\d+)"},
    ):
        slot = Slot.model_validate(definition)
        extract(slot, text, expected=True, frame=FRAME)


@pytest.mark.parametrize(
    ("slot", "text", "value"),
    [
        ({"type": "date"}, "日にちを明日から明後日に変えて", "2026-11-25"),
        ({"type": "date"}, "明日じゃなくて明後日", "2026-11-25"),
        ({"type": "date"}, "내일 말고 모레요", "2026-11-25"),
        ({"type": "date"}, "모레 대신 내일", "2026-11-24"),
        ({"type": "date"}, "Friday, not Thursday", "2026-11-27"),
        ({"type": "date"}, "change it from tomorrow to Sunday", "2026-11-29"),
        ({"type": "date"}, "11月24日から26日まで", "2026-11-24"),
        ({"type": "time"}, "7시에서 8시로 바꿔 주세요", "08:00"),
        ({"type": "time"}, "7時じゃなくて夜8時で", "20:00"),
        ({"type": "integer", "unit": "people"}, "4명 말고 5명으로", 5),
        ({"type": "integer", "unit": "people"}, "3人じゃなくて4人", 4),
        ({"type": "integer", "unit": "people"}, "5명이요, 4명 말고", 5),
        ({"type": "date"}, "明後日で、明日じゃなくて", "2026-11-25"),
        ({"type": "time"}, "8 pm, not 7 pm", "20:00"),
    ],
)
def test_a_value_replaced_in_the_same_breath(slot: dict[str, Any], text: str, value: Any) -> None:
    assert extract(Slot.model_validate(slot), text, expected=True, frame=FRAME) == value


@pytest.mark.parametrize(
    "text", ["人数が一人増えました", "한 명 더 와요", "two more people", "1명 추가요"]
)
def test_a_change_by_some_people_is_not_the_party_size(text: str) -> None:
    slot = Slot(type="integer", unit="people")
    assert extract(slot, text, expected=True, frame=FRAME) is INVALID


@pytest.mark.parametrize(
    ("user", "part"),
    [
        ({"date_time": "2026-11-23T10:00:00Z", "timezone": "Asia/Seoul"}, "evening"),
        ({"date_time": "2026-11-23T10:00:00+09:00", "timezone": "Asia/Seoul"}, "morning"),
        ({"date_time": "2026-11-23T23:30:00"}, "night"),
    ],
)
def test_the_time_of_day_is_the_users(user: dict[str, Any], part: str) -> None:
    assert initial_context("ko", user)["time_of_day"] == part
