"""What a successful call means for the turn: the reply, NLG input, and state updates."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.testing.skill_runtime import RecordingSkillRuntime, SkillReply

MakeCall = Callable[..., SkillCall]
ALL_TEXTS = {"response": "R", "answer": "A", "summary": "S", "text": "T"}


async def succeed(
    runtime: RecordingSkillRuntime,
    runner: HTTPSkillRunner,
    call: SkillCall,
    result: dict[str, Any],
) -> SkillOutcome:
    runtime.add(SkillReply.success(result))
    outcome = await runner.run(call)
    assert outcome.status == "success", outcome.error_detail
    return outcome


async def test_response_path_wins_over_every_standard_key(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call({"response_path": "forecast.days.0.line"})
    result = {**ALL_TEXTS, "forecast": {"days": [{"line": "  Sunny all day.  "}]}}
    outcome = await succeed(runtime, runner, call, result)
    assert outcome.reply == "Sunny all day."
    assert outcome.mode == "direct"


@pytest.mark.parametrize("at_path", ["", "   ", 42, None, ["x"]], ids=repr)
async def test_an_unusable_response_path_falls_back_to_response(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall, at_path: Any
) -> None:
    call = make_call({"response_path": "custom"})
    outcome = await succeed(runtime, runner, call, {**ALL_TEXTS, "custom": at_path})
    assert outcome.reply == "R"


@pytest.mark.parametrize(
    ("result", "reply"),
    [
        (ALL_TEXTS, "R"),
        ({"response": "", "answer": "A", "summary": "S", "text": "T"}, "A"),
        ({"response": 5, "answer": " ", "summary": "S", "text": "T"}, "S"),
        ({"summary": None, "text": "T"}, "T"),
    ],
    ids=["response", "answer", "summary", "text"],
)
async def test_standard_keys_are_tried_in_order(
    runtime: RecordingSkillRuntime,
    runner: HTTPSkillRunner,
    make_call: MakeCall,
    result: dict[str, Any],
    reply: str,
) -> None:
    outcome = await succeed(runtime, runner, make_call({}), result)
    assert outcome.reply == reply


async def test_success_template_renders_values_the_result_map_filled(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call(
        {"result_map": {"slots.sunrise": "sun.rise", "context.sunset": "sun.set"}},
        responses={
            "success": "{user.name}, in {city} the sun rises at {slots.sunrise} "
            "and sets at {context.sunset}.",
            "default": "unused",
        },
    )
    outcome = await succeed(runtime, runner, call, {"sun": {"rise": "05:11", "set": "19:57"}})
    assert outcome.reply == "Mina, in Seoul the sun rises at 05:11 and sets at 19:57."


async def test_default_template_is_used_without_a_success_template(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call({}, responses={"default": "Done for {city}.", "skill_error": "unused"})
    outcome = await succeed(runtime, runner, call, {"value": 1})
    assert outcome.reply == "Done for Seoul."


async def test_an_empty_success_template_falls_through_to_default(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call({}, responses={"success": "{slots.ghost}", "default": "Done."})
    outcome = await succeed(runtime, runner, call, {"value": 1})
    assert outcome.reply == "Done."


async def test_scenario_wide_templates_follow_the_node_templates(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    scenario_wide = {"success": "Scenario-wide success in {city}."}
    node_default = make_call(
        {}, responses={"default": "Node default."}, scenario_responses=scenario_wide
    )
    scenario_only = make_call({}, scenario_responses=scenario_wide)
    assert (await succeed(runtime, runner, node_default, {"v": 1})).reply == "Node default."
    assert (await succeed(runtime, runner, scenario_only, {"v": 1})).reply == (
        "Scenario-wide success in Seoul."
    )


async def test_without_text_or_template_the_result_is_said_as_json(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    result = {"city": "서울", "sunrise": "05:11", "ok": True}
    outcome = await succeed(runtime, runner, make_call({}), result)
    assert outcome.reply == json.dumps(result, ensure_ascii=False)
    assert "서울" in (outcome.reply or "")


async def test_an_empty_result_without_templates_gives_an_empty_reply(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    outcome = await succeed(runtime, runner, make_call({}), {})
    assert outcome.reply == ""
    assert outcome.output == {}


async def test_nlg_mode_hands_output_and_citations_to_nlg(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call({"response_mode": "nlg"}, responses={"success": "unused"})
    citations = [{"title": "NOAA", "url": "https://example.org/noaa"}]
    result = {"response": "Sunrise 05:11.", "sunrise": "05:11", "citations": citations}
    outcome = await succeed(runtime, runner, call, result)
    assert outcome.mode == "nlg"
    assert outcome.reply is None
    assert outcome.output == result
    assert outcome.citations == citations


@pytest.mark.parametrize("mode", ["direct", "NLG", "llm", "", " nlg"])
async def test_any_mode_other_than_exactly_nlg_is_direct(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall, mode: str
) -> None:
    outcome = await succeed(runtime, runner, make_call({"response_mode": mode}), ALL_TEXTS)
    assert (outcome.mode, outcome.reply) == ("direct", "R")


async def test_result_map_copies_named_paths_into_slots_and_context(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call(
        {
            "result_map": {
                "slots.city": "place.name",
                "slots.first_day": "days.0",
                "slots.flags": "flags",
                "context.sunrise": "sunrise",
                "context.nothing": "missing.path",
                "context.cleared": "empty",
            }
        }
    )
    result = {
        "place": {"name": "Busan"},
        "days": ["mon", "tue"],
        "flags": {"a": 1},
        "sunrise": "05:11",
        "empty": None,
        "unmapped": "x",
    }
    outcome = await succeed(runtime, runner, call, result)
    assert outcome.slot_updates == {"city": "Busan", "first_day": "mon", "flags": {"a": 1}}
    assert outcome.context_updates == {"sunrise": "05:11", "cleared": None}


async def test_result_map_never_writes_engine_keys_or_underscore_keys(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    result_map = {
        "context.session_user": "v",
        "context.last_skill_status": "v",
        "context.time_of_day": "v",
        "context.daypart": "v",
        "context._private": "v",
        "slots._private": "v",
        "context.concerns": "v",
        "nowhere.key": "v",
    }
    outcome = await succeed(runtime, runner, make_call({"result_map": result_map}), {"v": 1})
    assert outcome.slot_updates == {}
    assert outcome.context_updates == {"concerns": 1}


async def test_runtime_updates_apply_only_to_allowed_keys(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    allowed = [
        "city",
        "mood",
        "_hidden",
        "session_user",
        "last_skill_status",
        "time_of_day",
        "daypart",
        "concerns",
        "slots.card_type",
        "context.topic",
    ]
    result = {
        "slot_updates": {
            "city": "Busan",
            "card_type": "debit",
            "topic": "not a slot update",
            "_hidden": 1,
            "unlisted": 2,
        },
        "context_updates": {
            "mood": "happy",
            "topic": "weather",
            "card_type": "not a context update",
            "concerns": ["sleep"],
            "session_user": {"name": "Eve"},
            "last_skill_status": "success",
            "time_of_day": "night",
            "daypart": "night",
            "_hidden": 1,
            "unlisted": 2,
        },
    }
    outcome = await succeed(runtime, runner, make_call({"allowed_updates": allowed}), result)
    assert outcome.slot_updates == {"city": "Busan", "card_type": "debit"}
    assert outcome.context_updates == {"mood": "happy", "topic": "weather", "concerns": ["sleep"]}


async def test_runtime_updates_are_ignored_without_an_allow_list(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    result = {"slot_updates": {"city": "Busan"}, "context_updates": {"mood": "x"}}
    outcome = await succeed(runtime, runner, make_call({}), result)
    assert (outcome.slot_updates, outcome.context_updates) == ({}, {})


async def test_result_map_wins_over_a_runtime_update_of_the_same_key(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call({"allowed_updates": ["city"], "result_map": {"slots.city": "chosen"}})
    result = {"chosen": "Daegu", "slot_updates": {"city": "Busan"}}
    outcome = await succeed(runtime, runner, call, result)
    assert outcome.slot_updates == {"city": "Daegu"}


async def test_allowed_updates_reach_the_success_template(
    runtime: RecordingSkillRuntime, runner: HTTPSkillRunner, make_call: MakeCall
) -> None:
    call = make_call(
        {"allowed_updates": ["city", "mood"]},
        responses={"success": "{city} / {context.mood}"},
    )
    result = {"slot_updates": {"city": "Busan"}, "context_updates": {"mood": "sunny"}}
    outcome = await succeed(runtime, runner, call, result)
    assert outcome.reply == "Busan / sunny"
