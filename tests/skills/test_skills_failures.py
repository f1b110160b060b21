"""Every way a skill call can fail, the error code it records, and the fallback it says."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from dialogkit.nlg._phrases import skill_error
from dialogkit.settings import Settings
from dialogkit.skills._base import SkillCall
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.skills._result import SkillErrorCode
from dialogkit.testing.skill_runtime import RecordingSkillRuntime, SkillReply

MakeCall = Callable[..., SkillCall]
LIMIT = 2000


@dataclass(frozen=True)
class Failure:
    code: SkillErrorCode
    reply: SkillReply | None = None
    base_url: str | None = None  # None: the recording runtime's address
    settings: dict[str, Any] = field(default_factory=dict)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def success_with(result: Any) -> SkillReply:
    return SkillReply.json({"success": True, "result": result})


FAILURES = {
    "timeout": Failure(
        SkillErrorCode.TIMEOUT,
        SkillReply.success({"response": "late"}, delay_s=3),
        settings={"skill_runtime_timeout_s": 0.2},
    ),
    "connection-refused": Failure(SkillErrorCode.UNAVAILABLE, base_url=closed_port_url()),
    "no-runtime-configured": Failure(SkillErrorCode.UNAVAILABLE, base_url=""),
    "not-a-url": Failure(SkillErrorCode.UNAVAILABLE, base_url="runtime:port"),
    "http-500": Failure(SkillErrorCode.HTTP_ERROR, SkillReply.raw("boom", status=500)),
    "http-404-large-body": Failure(
        SkillErrorCode.HTTP_ERROR, SkillReply.raw("x" * 10 * LIMIT, status=404)
    ),
    "oversized": Failure(SkillErrorCode.RESPONSE_TOO_LARGE, SkillReply.oversized(LIMIT)),
    "oversized-chunked": Failure(
        SkillErrorCode.RESPONSE_TOO_LARGE, SkillReply.oversized(5 * LIMIT, chunked=True)
    ),
    "not-json": Failure(SkillErrorCode.INVALID_RESPONSE, SkillReply.raw("<html>hi</html>")),
    "json-array": Failure(SkillErrorCode.INVALID_RESPONSE, SkillReply.json([1, 2])),
    "result-string": Failure(SkillErrorCode.INVALID_RESPONSE, success_with("Sunrise 05:11")),
    "result-array": Failure(SkillErrorCode.INVALID_RESPONSE, success_with([{"a": 1}])),
    "result-null": Failure(SkillErrorCode.INVALID_RESPONSE, success_with(None)),
    "success-not-boolean": Failure(
        SkillErrorCode.INVALID_RESPONSE, SkillReply.json({"success": "yes", "result": {}})
    ),
    "citations-not-list": Failure(
        SkillErrorCode.INVALID_RESPONSE, success_with({"response": "x", "citations": "NOAA"})
    ),
    "slot-updates-not-object": Failure(
        SkillErrorCode.INVALID_RESPONSE, success_with({"slot_updates": [["city", "Busan"]]})
    ),
    "context-updates-not-object": Failure(
        SkillErrorCode.INVALID_RESPONSE, success_with({"context_updates": "mood=calm"})
    ),
    "success-false": Failure(
        SkillErrorCode.FAILED, SkillReply.failure("NO_DATA", "nothing for that date")
    ),
}

ALL_RESPONSES = {
    "skill_error": "Skill error for {user.name}.",
    "error": "Generic error.",
    "default": "Default text.",
    "success": "Never on failure.",
}
SCENARIO_WIDE = {"skill_error": "Scenario-wide error.", "success": "Never on failure."}
# (node params, node responses, scenario-wide responses, expected reply)
FALLBACK_LEVELS = {
    "params.fallback": (
        {"fallback": "Fallback for {user.name}."},
        ALL_RESPONSES,
        SCENARIO_WIDE,
        "Fallback for Mina.",
    ),
    "responses.skill_error": ({}, ALL_RESPONSES, SCENARIO_WIDE, "Skill error for Mina."),
    "responses.error": (
        {"fallback": ""},
        {"error": "Generic error.", "default": "D."},
        SCENARIO_WIDE,
        "Generic error.",
    ),
    "responses.default": (
        {},
        {"default": "Default text.", "success": "S."},
        SCENARIO_WIDE,
        "Default text.",
    ),
    "scenario-wide responses": ({}, {"success": "S."}, SCENARIO_WIDE, "Scenario-wide error."),
    "built-in": ({}, {"success": "S."}, {"success": "S."}, skill_error("en")),
}


@pytest.mark.parametrize("level", FALLBACK_LEVELS)
@pytest.mark.parametrize("kind", FAILURES)
async def test_failures_record_their_code_and_say_the_first_available_fallback(
    runtime: RecordingSkillRuntime, make_call: MakeCall, kind: str, level: str
) -> None:
    failure = FAILURES[kind]
    params, responses, scenario_responses, expected_reply = FALLBACK_LEVELS[level]
    if failure.reply is not None:
        runtime.add(failure.reply)
    settings = Settings(
        skill_runtime_base_url=runtime.base_url,
        skill_runtime_max_response_bytes=LIMIT,
        **failure.settings,
    )
    call = make_call(
        {**params, "result_map": {"slots.city": "city"}, "allowed_updates": ["city"]},
        responses=responses,
        scenario_responses=scenario_responses,
    )
    async with HTTPSkillRunner(settings, base_url=failure.base_url) as runner:
        outcome = await runner.run(call)

    assert outcome.status == "error"
    assert outcome.error_code == failure.code
    assert outcome.error_detail
    assert outcome.reply == expected_reply
    assert outcome.mode == "direct"
    assert (outcome.slot_updates, outcome.context_updates, outcome.output) == ({}, {}, {})


async def test_the_built_in_sentence_is_in_the_scenario_language(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(SkillReply.raw("down", status=503), SkillReply.raw("down", status=503))
    korean = await runner.run(make_call({}, language="ko"))
    unknown = await runner.run(make_call({}, language="fr"))
    assert korean.reply == skill_error("ko")
    assert unknown.reply == skill_error("en")


async def test_a_failed_nlg_node_still_says_its_fallback(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(SkillReply.failure())
    outcome = await runner.run(make_call({"response_mode": "nlg", "fallback": "Try later."}))
    assert (outcome.status, outcome.mode, outcome.reply) == ("error", "direct", "Try later.")


async def test_error_details_name_the_cause_for_the_logs(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(
        SkillReply.raw("upstream exploded", status=502),
        SkillReply.failure("NO_DATA", "nothing for that date"),
        success_with({"citations": {"a": 1}}),
    )
    details = [(await runner.run(make_call({}))).error_detail or "" for _ in range(3)]
    assert "HTTP 502" in details[0] and "upstream exploded" in details[0]
    assert "NO_DATA" in details[1] and "nothing for that date" in details[1]
    assert "citations" in details[2]


async def test_a_body_exactly_at_the_size_limit_is_accepted(
    runtime: RecordingSkillRuntime, make_call: MakeCall
) -> None:
    reply = SkillReply.success({"response": "fits"})
    runtime.add(reply, reply.with_chunked())
    settings = Settings(
        skill_runtime_base_url=runtime.base_url, skill_runtime_max_response_bytes=len(reply.body)
    )
    async with HTTPSkillRunner(settings) as runner:
        outcomes = [await runner.run(make_call({})) for _ in range(2)]
    assert [outcome.reply for outcome in outcomes] == ["fits", "fits"]


async def test_missing_result_and_metadata_mean_an_empty_success(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    runtime.add(SkillReply.json({"success": True}))
    outcome = await runner.run(make_call({}, responses={"success": "Done."}))
    assert (outcome.status, outcome.reply, outcome.output) == ("success", "Done.", {})
