"""``fire_mission``: firing data for a target, by plane grid arithmetic in one 100 km square.

Grids are MGRS-style numeric references without the zone and square letters: 6, 8 or 10
digits (100 m, 10 m, 1 m precision), half easting and half northing, written together
(``12345678``) or apart (``1234 5678``); a reference denotes the south-west corner of its
square. Directions are in NATO mils (6400 to the circle, clockwise from grid north).

Charge and time of flight come from a deliberately simple teaching model, not from firing
tables: the charge is the lowest whose band covers the range, and the time of flight is that
of a drag-free low-angle trajectory at the charge's muzzle velocity.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dialogkit.skills.runtime.arguments import InvalidArguments, is_blank, number, text
from dialogkit.wire import SkillContext

MILS = 6400
SQUARE_M = 100_000
GRAVITY = 9.81
CHARGES = (
    # (charge, greatest range in metres, muzzle velocity in m/s)
    (1, 3_500, 250.0),
    (2, 5_500, 310.0),
    (3, 7_500, 380.0),
    (4, 10_000, 460.0),
    (5, 13_000, 560.0),
    (6, 18_000, 690.0),
)
MAX_RANGE_M = CHARGES[-1][1]


@dataclass(frozen=True)
class Point:
    """Easting and northing in metres from the square's south-west corner."""

    easting: float
    northing: float

    def moved(self, direction_mils: float, distance_m: float) -> Point:
        """The point ``distance_m`` away in direction ``direction_mils``."""
        angle = direction_mils * 2 * math.pi / MILS
        return Point(
            self.easting + distance_m * math.sin(angle),
            self.northing + distance_m * math.cos(angle),
        )


def parse_grid(value: str, name: str = "grid") -> Point:
    """A numeric grid reference as a point; ``InvalidArguments`` names ``name`` when bad."""
    parts = value.split()
    if len(parts) == 2 and len(parts[0]) == len(parts[1]):
        easting, northing = parts
    else:
        digits = "".join(parts)
        half = len(digits) // 2
        easting, northing = digits[:half], digits[half:]
    if len(easting) != len(northing) or not re.fullmatch(r"[0-9]{6,10}", easting + northing):
        raise InvalidArguments(
            {name: f"must be a 6, 8 or 10 digit grid like '1234 5678', got {value!r}"}
        )
    scale = 10 ** (5 - len(easting))
    return Point(int(easting) * scale, int(northing) * scale)


def format_grid(point: Point, separator: str = "") -> str:
    """The 8-digit reference (10 m) of the square holding ``point``, wrapped into the square."""
    easting, northing = (
        math.floor(round(coordinate, 6) / 10) % (SQUARE_M // 10)
        for coordinate in (point.easting, point.northing)
    )
    return f"{easting:04d}{separator}{northing:04d}"


def direction(origin: Point, target: Point) -> int:
    """Grid direction from ``origin`` to ``target`` in whole mils (0 to 6399)."""
    angle = math.atan2(target.easting - origin.easting, target.northing - origin.northing)
    return round(angle * MILS / (2 * math.pi)) % MILS


def distance(origin: Point, target: Point) -> int:
    """Distance in whole metres."""
    return round(math.hypot(target.easting - origin.easting, target.northing - origin.northing))


def shift(
    known_point: Point, direction_mils: float, left_right_m: float, add_drop_m: float
) -> Point:
    """A shift from a known point along the observer's line (right and add are positive)."""
    return known_point.moved(direction_mils, add_drop_m).moved(
        direction_mils + MILS / 4, left_right_m
    )


def charge_for(range_m: float) -> tuple[int, float]:
    """The lowest charge whose band covers ``range_m``, with its muzzle velocity."""
    for charge, greatest, velocity in CHARGES:
        if range_m <= greatest:
            return charge, velocity
    raise InvalidArguments(
        {"target": f"is {range_m:.0f} m from the gun, beyond the greatest range {MAX_RANGE_M} m"}
    )


def time_of_flight(range_m: float, velocity: float) -> float:
    """Seconds of flight of a drag-free low-angle trajectory reaching ``range_m``."""
    elevation = 0.5 * math.asin(min(1.0, GRAVITY * range_m / velocity**2))
    return 2 * velocity * math.sin(elevation) / GRAVITY


def target_of(arguments: Mapping[str, Any], observer: Point) -> tuple[str, Point]:
    """The target by the first method the arguments give: grid, shift, or polar."""
    if not is_blank(arguments.get("target_grid")):
        return "grid", parse_grid(text(arguments, "target_grid"), "target_grid")
    direction_mils = number(arguments, "direction_mils", 0, MILS)
    if direction_mils is None:
        raise InvalidArguments(
            {"target_grid": "is required unless direction_mils locates the target (polar or shift)"}
        )
    if not is_blank(arguments.get("known_point_grid")):
        known_point = parse_grid(text(arguments, "known_point_grid"), "known_point_grid")
        left_right = number(arguments, "left_right_m", -SQUARE_M, SQUARE_M) or 0.0
        add_drop = number(arguments, "add_drop_m", -SQUARE_M, SQUARE_M) or 0.0
        return "shift", shift(known_point, direction_mils, left_right, add_drop)
    distance_m = number(arguments, "distance_m", 1, SQUARE_M)
    if distance_m is None:
        raise InvalidArguments({"distance_m": "is required for a polar mission"})
    return "polar", observer.moved(direction_mils, distance_m)


def run(arguments: Mapping[str, Any], context: SkillContext) -> dict[str, Any]:
    """Arguments: observer_grid, gun_grid, and target_grid, or direction_mils with distance_m
    (polar), or direction_mils with known_point_grid, left_right_m and add_drop_m (shift)."""
    observer = parse_grid(text(arguments, "observer_grid"), "observer_grid")
    gun = parse_grid(text(arguments, "gun_grid"), "gun_grid")
    method, target = target_of(arguments, observer)
    azimuth, range_m = direction(gun, target), distance(gun, target)
    charge, velocity = charge_for(range_m)
    flight = round(time_of_flight(range_m, velocity), 1)
    return {
        "method": method,
        "target_grid": format_grid(target),
        "gun_target_azimuth_mils": azimuth,
        "gun_target_range_m": range_m,
        "observer_target_direction_mils": direction(observer, target),
        "observer_target_distance_m": distance(observer, target),
        "charge": charge,
        "time_of_flight_s": flight,
        "response": f"Target grid {format_grid(target, ' ')}, azimuth {azimuth} mils, "
        f"range {range_m} meters, charge {charge}, time of flight {flight:g} seconds.",
    }
