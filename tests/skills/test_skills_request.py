"""What the runner sends: path, body, context, and how arguments are assembled."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from dialogkit.skills._base import SkillCall
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.testing.skill_runtime import RecordingSkillRuntime, SkillReply
from dialogkit.wire import ChatbotSessionLocation

MakeCall = Callable[..., SkillCall]
OK = SkillReply.success({"response": "done"})


async def test_body_carries_skill_arguments_and_context(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(OK)
    call = make_call(
        {"skill": "sun_times", "arguments": {"latitude": 35.1, "longitude": 129.0}},
        locale="ko-KR",
        timezone="Asia/Seoul",
        session_id="abc-123",
    )

    outcome = await runner.run(call)

    assert outcome.status == "success"
    (request,) = runtime.requests
    assert (request.method, request.path) == ("POST", "/v1/skills/execute")
    assert request.headers["content-type"] == "application/json"
    body = request.json()
    assert body["skill_id"] == "sun_times"
    assert body["arguments"] == {"latitude": 35.1, "longitude": 129.0}
    context = body["context"]
    assert uuid.UUID(context.pop("request_id"))
    assert context == {
        "session_id": "abc-123",
        "skill_version": "1.4.0",
        "locale": "ko-KR",
        "timezone": "Asia/Seoul",
    }


async def test_every_call_gets_a_fresh_request_id(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(OK, OK, OK)
    call = make_call()
    for _ in range(3):
        await runner.run(call)
    ids = [body["context"]["request_id"] for body in runtime.bodies]
    assert len(set(ids)) == 3


@pytest.mark.parametrize(
    ("skill_version", "scenario_version", "sent"),
    [("2.0.1", "1.4.0", "2.0.1"), ("", "1.4.0", "1.4.0"), ("", "", "")],
)
async def test_skill_version_prefers_the_node_then_the_scenario(
    runtime: RecordingSkillRuntime,
    runner: HTTPSkillRunner,
    make_call: MakeCall,
    skill_version: str,
    scenario_version: str,
    sent: str,
) -> None:
    runtime.add(OK)
    await runner.run(make_call({"skill_version": skill_version}, version=scenario_version))
    assert runtime.bodies[0]["context"]["skill_version"] == sent


async def test_input_map_overlays_fixed_arguments(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(OK)
    params = {
        "arguments": {"city": "Tokyo", "units": "metric", "date": "2000-01-01", "mood": "x"},
        "input_map": {
            "city": "slots.city",  # a same-named input value wins over the fixed one
            "date": "slots.nothing",  # null: not sent, so the fixed value stays
            "mood": "context.absent",  # missing: not sent either
            "utterance": "input.text",
            "intent": "nlu.intent",
            "entity": "nlu.entities.city",
            "name": "user.name",
            "turns": "turn.count",
            "ghost": "slots.ghost",
        },
    }
    await runner.run(make_call(params))
    assert runtime.bodies[0]["arguments"] == {
        "city": "Seoul",
        "units": "metric",
        "date": "2000-01-01",
        "mood": "x",
        "utterance": "when does the sun rise?",
        "intent": "ask_sun",
        "entity": "Busan",
        "name": "Mina",
        "turns": 3,
    }


def scope_with_location(location: Any) -> dict[str, Any]:
    return {"slots": {}, "context": {}, "user": {"location": location}}


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ({"latitude": 37.5665, "longitude": 126.978}, {"latitude": 37.5665, "longitude": 126.978}),
        (
            {"latitude": -90, "longitude": 180, "accuracy": 5},
            {"latitude": -90.0, "longitude": 180.0},
        ),
        (
            ChatbotSessionLocation(latitude=35.0, longitude=-120.5),
            {"latitude": 35.0, "longitude": -120.5},
        ),
        ("Seoul", {}),
        ({"latitude": 91, "longitude": 10}, {}),
        ({"latitude": 10, "longitude": -180.5}, {}),
        ({"latitude": "37.5", "longitude": "127"}, {}),
        ({"latitude": True, "longitude": 10}, {}),
        ({"latitude": 10}, {}),
        (None, {}),
    ],
    ids=[
        "object",
        "bounds-and-extra-fields",
        "model",
        "text",
        "latitude-out-of-range",
        "longitude-out-of-range",
        "strings",
        "boolean",
        "incomplete",
        "none",
    ],
)
async def test_location_based_skills_get_only_validated_coordinates(
    runtime: RecordingSkillRuntime,
    runner: HTTPSkillRunner,
    make_call: MakeCall,
    location: Any,
    expected: dict[str, float],
) -> None:
    runtime.add(OK)
    params = {"location_based": True, "arguments": {"date": "2024-06-21"}}
    await runner.run(make_call(params, scope=scope_with_location(location)))
    assert runtime.bodies[0]["arguments"] == {"date": "2024-06-21", **expected}


async def test_location_is_not_sent_unless_the_node_is_location_based(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(OK)
    await runner.run(make_call({}))
    assert runtime.bodies[0]["arguments"] == {}


async def test_location_overrides_fixed_coordinates_and_input_map_overrides_location(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(OK, OK)
    scope = scope_with_location({"latitude": 1.0, "longitude": 2.0})
    scope["slots"] = {"lat": 3.0}
    fixed = {"latitude": 9.0, "longitude": 9.0}
    await runner.run(make_call({"location_based": True, "arguments": fixed}, scope=scope))
    await runner.run(
        make_call(
            {"location_based": True, "arguments": fixed, "input_map": {"latitude": "slots.lat"}},
            scope=scope,
        )
    )
    first, second = (body["arguments"] for body in runtime.bodies)
    assert first == {"latitude": 1.0, "longitude": 2.0}
    assert second == {"latitude": 3.0, "longitude": 2.0}


async def test_text_location_keeps_fixed_coordinates_of_the_scenario(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(OK)
    fixed = {"latitude": 37.5, "longitude": 127.0}
    await runner.run(
        make_call({"location_based": True, "arguments": fixed}, scope=scope_with_location("Seoul"))
    )
    assert runtime.bodies[0]["arguments"] == fixed
