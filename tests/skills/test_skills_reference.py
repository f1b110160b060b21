"""The reference skills' computations, as pure functions."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from dialogkit.skills.runtime import fire_mission, issue_card, local_time, sun_times
from dialogkit.skills.runtime.arguments import InvalidArguments
from dialogkit.skills.runtime.fire_mission import Point
from dialogkit.wire import SkillContext

SEOUL = (37.5665, 126.978)
KST = ZoneInfo("Asia/Seoul")


def minutes(moment: datetime | None) -> int:
    assert moment is not None
    return moment.hour * 60 + moment.minute


@pytest.mark.parametrize(
    ("day", "sunrise", "sunset"),
    # Published times for Seoul (Korea Astronomy and Space Science Institute).
    [(date(2024, 6, 21), "05:11", "19:57"), (date(2024, 12, 21), "07:43", "17:17")],
)
def test_seoul_sunrise_and_sunset_match_published_times(
    day: date, sunrise: str, sunset: str
) -> None:
    times = sun_times.sun_times(*SEOUL, day, KST)
    for computed, published in ((times.sunrise, sunrise), (times.sunset, sunset)):
        hours, mins = map(int, published.split(":"))
        assert abs(minutes(computed) - (hours * 60 + mins)) <= 2
    assert times.polar is None
    assert 570 < times.day_length_minutes < 890


def test_times_are_local_to_the_zone_including_daylight_saving() -> None:
    summer = sun_times.sun_times(40.7128, -74.006, date(2024, 7, 4), ZoneInfo("America/New_York"))
    assert summer.sunrise is not None and summer.sunrise.utcoffset() == timedelta(hours=-4)
    assert "05:28" <= sun_times.clock(summer.sunrise) <= "05:33"


@pytest.mark.parametrize(
    ("day", "polar", "length"), [(date(2024, 6, 21), "day", 1440), (date(2024, 12, 21), "night", 0)]
)
def test_polar_day_and_night_have_no_sunrise(day: date, polar: str, length: int) -> None:
    times = sun_times.sun_times(78.22, 15.65, day, ZoneInfo("Arctic/Longyearbyen"))
    assert (times.sunrise, times.sunset, times.polar) == (None, None, polar)
    assert times.day_length_minutes == length


@pytest.mark.parametrize(
    ("hour", "part"),
    [
        (0, "night"),
        (4, "night"),
        (5, "morning"),
        (11, "morning"),
        (12, "afternoon"),
        (16, "afternoon"),
        (17, "evening"),
        (20, "evening"),
        (21, "night"),
        (23, "night"),
    ],
)
def test_time_of_day_bands(hour: int, part: str) -> None:
    assert local_time.time_of_day(hour) == part


@pytest.mark.parametrize(
    ("longitude", "key"),
    [(126.9, "Etc/GMT-8"), (127.6, "Etc/GMT-9"), (-74.0, "Etc/GMT+5"), (3, "Etc/GMT")],
)
def test_nautical_zone_from_longitude(longitude: float, key: str) -> None:
    assert local_time.nautical_zone(longitude).key == key


def test_local_time_reads_a_moment_in_the_zone_and_language() -> None:
    moment = datetime(2024, 6, 21, 5, 30, tzinfo=UTC)
    result = local_time.local_time(moment, KST, "ko")
    assert (result["local_time"], result["date"], result["time_of_day"]) == (
        "14:30",
        "2024-06-21",
        "afternoon",
    )
    assert result["time_of_day_word"] == "오후"
    assert "14:30" in result["response"]


def test_local_time_prefers_the_timezone_argument_then_context_then_longitude() -> None:
    at = {"date_time": "2024-06-21T05:30:00+00:00"}
    context = SkillContext(timezone="Europe/Paris", locale="en-US")
    assert local_time.run({**at, "timezone": "Asia/Tokyo"}, context)["local_time"] == "14:30"
    assert local_time.run(at, context)["local_time"] == "07:30"
    assert local_time.run({**at, "longitude": -74.0}, SkillContext())["local_time"] == "00:30"
    assert local_time.run(at, SkillContext())["timezone"] == "UTC"


@pytest.mark.parametrize("number", ["79927398713", "4539148803436467", "5555555555554444"])
def test_luhn_accepts_valid_numbers(number: str) -> None:
    assert issue_card.luhn_valid(number)
    assert not issue_card.luhn_valid(number[:-1] + str((int(number[-1]) + 1) % 10))


def test_card_numbers_are_deterministic_luhn_valid_and_branded() -> None:
    details = ("credit", "Kim Mina", "1990-05-17", "01012345678", "Seoul")
    number = issue_card.card_number("4", *details)
    assert number == issue_card.card_number("4", *details)
    assert number != issue_card.card_number("4", *details[:-1], "Busan")
    assert len(number) == 16 and number.startswith("4") and issue_card.luhn_valid(number)
    assert issue_card.mask(number) == f"**** **** **** {number[-4:]}"


@pytest.mark.parametrize(
    ("card_type", "brand"),
    [
        ("credit", "Visa"),
        ("신용카드", "Visa"),
        ("체크카드", "Mastercard"),
        ("Debit", "Mastercard"),
        ("transit", "Visa"),
    ],
)
def test_card_brand_follows_the_card_type(card_type: str, brand: str) -> None:
    assert issue_card.brand_of(card_type)[0] == brand


@pytest.mark.parametrize(
    ("start", "delivery"),
    [
        (date(2024, 6, 3), date(2024, 6, 10)),  # Monday -> next Monday
        (date(2024, 6, 7), date(2024, 6, 14)),  # Friday -> next Friday
        (date(2024, 6, 8), date(2024, 6, 14)),  # Saturday -> Friday
    ],
)
def test_delivery_counts_business_days(start: date, delivery: date) -> None:
    assert issue_card.add_business_days(start, 5) == delivery


@pytest.mark.parametrize(
    ("grid", "point"),
    [
        ("123456", Point(12300, 45600)),
        ("12345678", Point(12340, 56780)),
        ("1234 5678", Point(12340, 56780)),
        ("12345 67890", Point(12345, 67890)),
        (" 0123  0456 ", Point(1230, 4560)),
    ],
)
def test_grids_parse_at_their_precision(grid: str, point: Point) -> None:
    assert fire_mission.parse_grid(grid) == point


@pytest.mark.parametrize("grid", ["12345", "1234567", "123 4567", "12AB5678", "", "123456789012"])
def test_bad_grids_are_rejected(grid: str) -> None:
    with pytest.raises(InvalidArguments):
        fire_mission.parse_grid(grid)


def test_direction_and_distance_between_points() -> None:
    origin = Point(10000, 10000)
    assert fire_mission.direction(origin, Point(10000, 15000)) == 0
    assert fire_mission.direction(origin, Point(15000, 10000)) == 1600
    assert fire_mission.direction(origin, Point(10000, 5000)) == 3200
    assert fire_mission.direction(origin, Point(5000, 10000)) == 4800
    assert fire_mission.direction(origin, Point(13000, 14000)) == 655  # atan2(3, 4) = 36.87°
    assert fire_mission.distance(origin, Point(13000, 14000)) == 5000


def test_a_shift_moves_along_and_across_the_observer_target_line() -> None:
    known = Point(20000, 30000)
    assert fire_mission.shift(known, 0, 100, 200) == pytest.approx(Point(20100, 30200))
    moved = fire_mission.shift(known, 1600, -100, -400)  # direction east: left is north
    assert (moved.easting, moved.northing) == pytest.approx((19600, 30100))


def test_grids_are_written_with_ten_metre_precision_and_wrap_in_the_square() -> None:
    assert fire_mission.format_grid(Point(12349.99999999, 56780), " ") == "1235 5678"
    assert fire_mission.format_grid(Point(-50, 100_020)) == "99950002"


@pytest.mark.parametrize(
    ("range_m", "charge"),
    [(0, 1), (3500, 1), (3501, 2), (7500, 3), (9000, 4), (13000, 5), (18000, 6)],
)
def test_charge_is_the_lowest_band_covering_the_range(range_m: int, charge: int) -> None:
    assert fire_mission.charge_for(range_m)[0] == charge


def test_beyond_the_greatest_range_there_is_no_charge() -> None:
    with pytest.raises(InvalidArguments, match="greatest range"):
        fire_mission.charge_for(18001)


def test_time_of_flight_grows_with_range_for_one_charge() -> None:
    _, velocity = fire_mission.charge_for(7000)
    flights = [fire_mission.time_of_flight(r, velocity) for r in (5600, 6500, 7500)]
    assert flights == sorted(flights) and 10 < flights[0] < flights[-1] < 40


def test_fire_mission_by_grid_polar_and_shift() -> None:
    context = SkillContext()
    base = {"observer_grid": "1000 1000", "gun_grid": "0500 0500"}
    by_grid = fire_mission.run({**base, "target_grid": "1400 1000"}, context)
    polar = fire_mission.run({**base, "direction_mils": 1600, "distance_m": 4000}, context)
    shift = fire_mission.run(
        {
            **base,
            "known_point_grid": "1400 0900",
            "direction_mils": 1600,
            "left_right_m": -1000,
            "add_drop_m": 0,
        },
        context,
    )
    for result in (by_grid, polar, shift):
        assert result["target_grid"] == "14001000"
        assert result["observer_target_direction_mils"] == 1600
        assert result["observer_target_distance_m"] == 4000
        assert result["gun_target_range_m"] == 10296
        assert (
            result["gun_target_azimuth_mils"] == 1083
        )  # atan2(9000, 5000) = 60.945° = 1083.47 mils
        assert result["charge"] == 5
    assert [r["method"] for r in (by_grid, polar, shift)] == ["grid", "polar", "shift"]
    assert by_grid["response"].startswith(
        "Target grid 1400 1000, azimuth 1083 mils, range 10296 meters"
    )
