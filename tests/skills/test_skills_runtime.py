"""The reference runtime over real HTTP, alone and called by HTTPSkillRunner."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import date
from typing import Any

import httpx
import pytest

from dialogkit.errors import DialogkitError
from dialogkit.settings import Settings
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.skills.runtime import RuntimeServer, create_runtime_app
from dialogkit.skills.runtime.arguments import InvalidArguments
from dialogkit.wire import SkillContext

MakeCall = Callable[..., SkillCall]
CARD = {
    "card_type": "체크카드",
    "name": "김민아",
    "birth_date": "1990-05-17",
    "phone": "010-1234-5678",
    "address": "서울시 중구 세종대로 110",
    "issued_on": "2024-06-07",
}


@pytest.fixture(scope="module")
def server() -> Iterator[RuntimeServer]:
    with RuntimeServer() as running:
        yield running


@pytest.fixture
async def http(server: RuntimeServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        yield client


async def execute(
    http: httpx.AsyncClient, skill_id: str, arguments: dict[str, Any], **context: str
) -> httpx.Response:
    body = {
        "skill_id": skill_id,
        "arguments": arguments,
        "context": {"request_id": "r-1", **context},
    }
    return await http.post("/v1/skills/execute", json=body)


async def test_health_lists_the_skills(http: httpx.AsyncClient) -> None:
    response = await http.get("/health")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "skills": ["fire_mission", "issue_card", "local_time", "sun_times"],
    }


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ko-KR", "일출은 05:11"),
        ("ja-JP", "日の出は05:11"),
        ("en-US", "sunrise is at 05:11"),
        ("fr-FR", "sunrise"),
    ],
)
async def test_sun_times_answers_in_the_locale_language(
    http: httpx.AsyncClient, locale: str, words: str
) -> None:
    response = await execute(
        http,
        "sun_times",
        {"latitude": 37.5665, "longitude": 126.978, "date": "2024-06-21"},
        locale=locale,
        timezone="Asia/Seoul",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    assert body["metadata"]["request_id"] == "r-1"
    result = body["result"]
    assert (result["date"], result["sunrise"], result["sunset"]) == ("2024-06-21", "05:11", "19:57")
    assert result["day_length_minutes"] == 886
    assert words in result["response"]


async def test_sun_times_defaults_to_today_in_the_zone_and_reports_polar_night(
    http: httpx.AsyncClient,
) -> None:
    today = await execute(
        http, "sun_times", {"latitude": 37.5, "longitude": 127.0, "timezone": "Asia/Seoul"}
    )
    assert date.fromisoformat(today.json()["result"]["date"])
    polar = await execute(
        http,
        "sun_times",
        {"latitude": 78.22, "longitude": 15.65, "date": "2024-12-21"},
        locale="en",
    )
    result = polar.json()["result"]
    assert (result["sunrise"], result["polar"], result["timezone"]) == (None, "night", "UTC")
    assert "does not rise" in result["response"]


async def test_local_time_answers_with_time_and_part_of_day(http: httpx.AsyncClient) -> None:
    response = await execute(
        http,
        "local_time",
        {"date_time": "2024-06-21T21:15:00+09:00"},
        locale="ja-JP",
        timezone="Asia/Tokyo",
    )
    result = response.json()["result"]
    assert (result["local_time"], result["time_of_day"], result["time_of_day_word"]) == (
        "21:15",
        "night",
        "夜",
    )


async def test_issue_card_answers_with_a_masked_luhn_number(http: httpx.AsyncClient) -> None:
    first = (await execute(http, "issue_card", CARD, locale="ko-KR")).json()["result"]
    again = (await execute(http, "issue_card", CARD, locale="ko-KR")).json()["result"]
    assert first == again
    assert first["brand"] == "Mastercard"
    assert first["card_number_masked"] == f"**** **** **** {first['last4']}"
    assert first["delivery_estimate"] == "2024-06-14"
    assert first["last4"] in first["response"] and "김민아님" in first["response"]


async def test_fire_mission_answers_in_radio_style(http: httpx.AsyncClient) -> None:
    arguments = {"observer_grid": "10001000", "gun_grid": "0500 0500", "target_grid": "1400 1000"}
    result = (await execute(http, "fire_mission", arguments, locale="ko-KR")).json()["result"]
    assert result["response"] == (
        "Target grid 1400 1000, azimuth 1083 mils, range 10296 meters, charge 5, "
        "time of flight 18.6 seconds."
    )


async def test_an_unknown_skill_is_a_404_with_the_error_shape(http: httpx.AsyncClient) -> None:
    response = await execute(http, "weather", {})
    assert response.status_code == 404
    body = response.json()
    assert body["success"] is False
    assert body["error"]["code"] == "UNKNOWN_SKILL"
    assert "sun_times" in body["error"]["message"]


@pytest.mark.parametrize(
    ("skill_id", "arguments", "fields"),
    [
        ("issue_card", {"name": "Kim"}, ["card_type", "birth_date", "phone", "address"]),
        ("issue_card", {**CARD, "phone": "12"}, ["phone"]),
        ("issue_card", {**CARD, "birth_date": "2030-01-01"}, ["birth_date"]),
        ("sun_times", {"latitude": 95, "longitude": 0}, ["latitude"]),
        ("sun_times", {"longitude": 0}, ["latitude"]),
        ("sun_times", {"latitude": 1, "longitude": 0, "date": "June 21"}, ["date"]),
        ("sun_times", {"latitude": 1, "longitude": 0, "timezone": "Mars/Olympus"}, ["timezone"]),
        ("local_time", {"date_time": "noon"}, ["date_time"]),
        ("fire_mission", {"observer_grid": "12", "gun_grid": "1234 5678"}, ["observer_grid"]),
        ("fire_mission", {"observer_grid": "1234 5678", "gun_grid": "1234 5678"}, ["target_grid"]),
        (
            "fire_mission",
            {"observer_grid": "1234 5678", "gun_grid": "1234 5678", "direction_mils": 7000},
            ["direction_mils"],
        ),
        (
            "fire_mission",
            {"observer_grid": "1234 5678", "gun_grid": "1234 5678", "direction_mils": 10},
            ["distance_m"],
        ),
        (
            "fire_mission",
            {"observer_grid": "0000 0000", "gun_grid": "0000 0000", "target_grid": "9000 9000"},
            ["target"],
        ),
    ],
)
async def test_bad_arguments_are_a_400_naming_each_argument(
    http: httpx.AsyncClient, skill_id: str, arguments: dict[str, Any], fields: list[str]
) -> None:
    response = await execute(http, skill_id, arguments)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "INVALID_ARGUMENTS"
    assert [problem["field"] for problem in error["details"]] == fields


@pytest.mark.parametrize(
    "body",
    [b"not json", b"[1, 2]", b'{"arguments": {}}', b'{"skill_id": "sun_times", "arguments": []}'],
)
async def test_a_body_that_is_not_a_skill_request_is_a_422(
    http: httpx.AsyncClient, body: bytes
) -> None:
    response = await http.post("/v1/skills/execute", content=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "INVALID_REQUEST"


async def test_a_crashing_skill_is_a_500_with_the_error_shape() -> None:
    def broken(arguments: Any, context: SkillContext) -> dict[str, Any]:
        raise ZeroDivisionError("division by zero")

    def strict(arguments: Any, context: SkillContext) -> dict[str, Any]:
        raise InvalidArguments({"x": "is required"})

    app = create_runtime_app({"broken": broken, "strict": strict})
    async with RuntimeServer(app) as server, httpx.AsyncClient(base_url=server.base_url) as http:
        crashed = await execute(http, "broken", {})
        refused = await execute(http, "strict", {})
        missing = await http.get("/nowhere")
    assert crashed.status_code == 500
    assert crashed.json()["error"]["code"] == "INTERNAL"
    assert refused.status_code == 400
    assert missing.status_code == 404 and missing.json()["success"] is False


async def test_the_runner_uses_the_reference_runtime_end_to_end(
    server: RuntimeServer, make_call: MakeCall
) -> None:
    scope = {
        "slots": {"date": "2024-12-21"},
        "context": {},
        "user": {"location": {"latitude": 37.5665, "longitude": 126.978}},
    }
    sun = make_call(
        {
            "skill": "sun_times",
            "location_based": True,
            "input_map": {"date": "slots.date"},
            "result_map": {"context.sunrise": "sunrise"},
        },
        scope=scope,
        locale="ko-KR",
        timezone="Asia/Seoul",
    )
    card = make_call({"skill": "issue_card", "fallback": "카드 신청을 처리하지 못했어요."})
    async with HTTPSkillRunner(Settings(skill_runtime_base_url=server.base_url)) as runner:
        sun_outcome = await runner.run(sun)
        card_outcome = await runner.run(card)
    assert sun_outcome.status == "success"
    assert sun_outcome.reply is not None and sun_outcome.reply.startswith("2024-12-21 일출은 07:4")
    assert sun_outcome.context_updates["sunrise"].startswith("07:4")
    assert (card_outcome.status, card_outcome.error_code) == ("error", "SKILL_RUNTIME_HTTP_ERROR")
    assert card_outcome.reply == "카드 신청을 처리하지 못했어요."


async def test_one_runner_serves_two_event_loops_and_closes_both(
    server: RuntimeServer, make_call: MakeCall
) -> None:
    call = make_call({"skill": "local_time"})
    runner = HTTPSkillRunner(Settings(skill_runtime_base_url=server.base_url))
    here = await runner.run(call)

    async def on_a_private_loop() -> list[SkillOutcome]:
        # The second call reuses this loop's kept-alive connection; closing the runner here
        # closes this loop's client directly and the test loop's by scheduling it there.
        outcomes = [await runner.run(call), await runner.run(call)]
        await runner.aclose()
        return outcomes

    there = await asyncio.to_thread(asyncio.run, on_a_private_loop())
    again = await runner.run(call)
    await runner.aclose()
    assert [o.status for o in (here, *there, again)] == ["success"] * 4


def test_a_busy_port_fails_to_start_with_a_clear_error(server: RuntimeServer) -> None:
    port = int(server.base_url.rsplit(":", 1)[1])
    with pytest.raises(DialogkitError, match="failed to start"):
        RuntimeServer(port=port).start()
