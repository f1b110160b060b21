"""Every endpoint of the contract, driven over HTTP with raw httpx (no dialogkit client)."""

from __future__ import annotations

import copy
import re
from importlib import metadata
from typing import Any

import httpx
import pytest

import dialogkit
from tests.server.conftest import GREETING_NODE


def expected_version() -> str:
    try:
        return metadata.version("dialogkit")
    except metadata.PackageNotFoundError:
        return dialogkit.__version__


def start(http: httpx.Client, graph: dict[str, Any], **fields: Any) -> dict[str, Any]:
    response = http.post("/v1/session/json", json={"scenario_graph": graph, **fields})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def say(http: httpx.Client, session_id: str, text: str, **message: Any) -> dict[str, Any]:
    body = {"session_id": session_id, "message_input": {"text": text, **message}}
    response = http.post("/v1/message", json=body)
    assert response.status_code == 200, response.text
    reply: dict[str, Any] = response.json()
    return reply


@pytest.mark.parametrize("path", ["/", "/v1/", "/v1"])
def test_root_and_v1_tell_version_and_documentation_paths(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"message", "version", "docs", "redoc", "openapi", "api"}
    assert body["version"] == expected_version()
    assert body["docs"] == "/docs"
    assert body["redoc"] == "/redoc"
    assert body["openapi"] == "/openapi.json"
    assert body["api"] == ""


def test_create_session_by_name_runs_the_bot_first_turn(http: httpx.Client) -> None:
    response = http.post("/v1/session", json={"scenario_name": "DEMO"})
    assert response.status_code == 200
    body = response.json()
    assert body["message"] == "Session created"
    assert body["session_id"]
    assert body["initial_response"].endswith("What would you like to talk about?")
    assert body["initial_current_node"] == GREETING_NODE
    assert body["initial_turn_count"] == 1
    assert body["initial_processing_time_ms"] > 0
    assert body["initial_session_complete"] is False
    info = http.get(f"/v1/session/{body['session_id']}").json()
    assert info["turn_count"] == 1


def test_create_session_echoes_choices_unchanged_and_stores_completion_options(
    http: httpx.Client,
) -> None:
    request = {
        "scenario_name": "demo",
        "llm_choice": "",
        "nlu_llm_choice": "offline",
        "user_system_prompt": "Speak like a pirate.",
        "completion_options": {"include_slots": False, "include_history": True},
    }
    body = http.post("/v1/session", json=request).json()
    assert body["llm_choice"] == ""
    assert body["nlu_llm_choice"] == "offline"
    assert body["user_system_prompt"] == "Speak like a pirate."
    assert body["completion_options"] == {"include_slots": False, "include_history": True}
    assert set(body) == {
        "session_id",
        "message",
        "llm_choice",
        "nlu_llm_choice",
        "user_system_prompt",
        "completion_options",
        "initial_response",
        "initial_current_node",
        "initial_turn_count",
        "initial_processing_time_ms",
        "initial_session_complete",
    }


def test_create_session_without_bot_first_has_an_empty_opening(http: httpx.Client) -> None:
    body = http.post("/v1/session", json={"scenario_name": "demo", "bot_first": False}).json()
    assert body["initial_response"] == ""
    assert body["initial_turn_count"] == 0
    assert body["initial_current_node"] == GREETING_NODE


@pytest.mark.parametrize(
    ("bot_first", "turn_count", "greets"), [(True, 1, True), (False, 0, False), (None, 1, True)]
)
def test_session_from_graph_answers_the_initial_reply(
    http: httpx.Client, graph: dict[str, Any], bot_first: bool | None, turn_count: int, greets: bool
) -> None:
    fields = {} if bot_first is None else {"bot_first": bot_first}
    body = start(http, graph, **fields)
    assert body["session_id"]
    assert body["turn_count"] == turn_count
    assert bool(body["response"]) is greets
    assert body["current_node"] == GREETING_NODE
    assert body["session_complete"] is False
    assert body["error"] is False
    assert "final_data" not in body


def test_session_from_graph_ignores_scenario_name(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    body = start(http, graph, scenario_name="no-such-scenario")
    assert body["turn_count"] == 1


def test_validate_answers_success_for_a_good_graph(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    response = http.post("/v1/session/validate", json={"scenario_graph": graph})
    assert response.status_code == 200
    assert response.json()["status"] == "success"


def test_validate_counts_errors_and_logs_the_list(
    http: httpx.Client, graph: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    graph["graph"]["entry"] = "nowhere"
    graph["graph"]["nodes"][1]["default_next"] = "missing"
    response = http.post("/v1/session/validate", json={"scenario_graph": graph})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "error"
    assert re.fullmatch(r"Scenario validation failed: \d+ error\(s\)", body["message"])
    assert int(body["message"].split(": ")[1].split()[0]) >= 2
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "nowhere" in logged and "missing" in logged


def test_validate_keeps_the_contract_shape_for_typo_keys_and_counts_every_error(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    """A near-miss key stays a warning over HTTP (`dialogkit validate` fails on it); a
    structure error and a content error are counted together, in the contract's shape."""
    typo = copy.deepcopy(graph)
    typo["slots"]["topic"]["examples"] = ["music"]  # else a second warning: no eval values
    typo["graph"]["nodes"][0]["defualt_next"] = "chat"
    answer = http.post("/v1/session/validate", json={"scenario_graph": typo}).json()
    assert answer == {"status": "success", "message": "Scenario is valid (1 warning(s))"}

    broken = copy.deepcopy(graph)
    broken["graph"]["nodes"][0]["terminal"] = "maybe"  # structure
    broken["graph"]["nodes"][1]["default_next"] = "missing"  # content
    answer = http.post("/v1/session/validate", json={"scenario_graph": broken}).json()
    assert answer == {"status": "error", "message": "Scenario validation failed: 2 error(s)"}


def test_message_moves_the_dialogue_and_counts_turns(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    session_id = start(http, graph)["session_id"]
    reply = say(http, session_id, "music")
    assert reply["session_id"] == session_id
    assert reply["response"] == "Tell me more, or say finish."
    assert reply["current_node"] == "chat"
    assert reply["turn_count"] == 2
    assert reply["processing_time_ms"] > 0
    assert reply["session_complete"] is False
    assert "final_data" not in reply


def test_empty_text_and_low_confidence_are_fallbacks_that_do_not_count(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    session_id = start(http, graph, stt_confidence_threshold=0.5)["session_id"]
    no_input = say(http, session_id, "", confidence=0.9)
    assert no_input["turn_count"] == 1
    assert no_input["response"]
    low = say(http, session_id, "music", confidence=0.5)  # the boundary is included
    assert low["turn_count"] == 1
    assert low["current_node"] == GREETING_NODE


def test_omitted_confidence_is_zero(http: httpx.Client, graph: dict[str, Any]) -> None:
    session_id = start(http, graph, stt_confidence_threshold=0.0)["session_id"]
    response = http.post(
        "/v1/message", json={"session_id": session_id, "message_input": {"text": "music"}}
    )
    assert response.json()["turn_count"] == 1


def finish(http: httpx.Client, graph: dict[str, Any], **options: Any) -> dict[str, Any]:
    session_id = start(http, graph, completion_options=options)["session_id"]
    say(http, session_id, "music")
    return say(http, session_id, "finish")


def test_completion_carries_final_data_with_slots_by_default(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    http_session = start(http, graph)["session_id"]
    say(http, http_session, "music")
    done = say(http, http_session, "finish")
    assert done["session_complete"] is True
    assert done["current_node"] == "end"
    assert done["final_data"] == {"end_reason": "completed", "slots": {"topic": "music"}}


def test_completion_options_choose_the_parts_of_final_data(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    done = finish(http, graph, include_slots=False, include_history=True)
    final = done["final_data"]
    assert "slots" not in final
    history = final["conversation_history"]
    assert [entry["role"] for entry in history] == ["assistant", "user"] * 2 + ["assistant"]
    assert [e["message"] for e in history if e["role"] == "user"] == ["music", "finish"]
    assert history[-1] == {"role": "assistant", "message": "Goodbye."}
    assert all(set(entry) == {"role", "message"} for entry in history)


def test_a_complete_session_keeps_answering_and_stays_complete(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    done = finish(http, graph)
    again = say(http, done["session_id"], "hello again")
    assert again["session_complete"] is True
    assert "final_data" in again


def test_session_info_reports_state_and_expiry(http: httpx.Client, graph: dict[str, Any]) -> None:
    session_id = start(http, graph, user={"name": "Ada", "age": 36})["session_id"]
    say(http, session_id, "music")
    response = http.get(f"/v1/session/{session_id}")
    assert response.status_code == 200
    info = response.json()
    assert info["session_id"] == session_id
    assert info["current_node"] == "chat"
    assert info["turn_count"] == 2
    assert info["session_complete"] is False
    assert info["slots"] == {"topic": "music"}
    assert info["context"]["session_user"]["name"] == "Ada"
    assert "id" not in info["context"]["session_user"]  # empty defaults are not stored
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", info["expires_at"])
    assert 3590 <= info["ttl_seconds"] <= 3600


def test_extra_fields_are_ignored(http: httpx.Client, graph: dict[str, Any]) -> None:
    body = start(http, graph, surprise={"x": 1}, user={"name": "Ada", "shoe_size": 44})
    reply = http.post(
        "/v1/message",
        json={
            "session_id": body["session_id"],
            "message_input": {"text": "music", "sentiment": "happy"},
            "user_input": {"id": "u1", "name": "Ada", "age": 36, "vip": True},
            "channel": "web",
        },
    )
    assert reply.status_code == 200
    assert reply.json()["turn_count"] == 2


def test_unused_message_fields_are_accepted_and_ignored(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    session_id = start(http, graph)["session_id"]
    reply = say(
        http,
        session_id,
        "music",
        duration=-1.0,
        emotion="anything",
        requery_required=True,
        requery_context={"requery_id": "r1", "trigger_type": "LOW_CONFIDENCE_STT"},
    )
    assert reply["turn_count"] == 2


def test_responses_omit_null_fields(http: httpx.Client, graph: dict[str, Any]) -> None:
    body = start(http, graph)
    assert None not in body.values()
    assert set(body) == {
        "session_id",
        "response",
        "current_node",
        "turn_count",
        "processing_time_ms",
        "session_complete",
        "error",
    }


def test_non_ascii_text_round_trips(http: httpx.Client, graph: dict[str, Any]) -> None:
    graph["graph"]["nodes"][1]["responses"]["default"] = "더 말해 주세요."
    session_id = start(http, graph)["session_id"]
    raw = http.post(
        "/v1/message", json={"session_id": session_id, "message_input": {"text": "음악"}}
    )
    assert "더 말해 주세요." in raw.text  # sent as UTF-8, not as \u escapes
    info = http.get(f"/v1/session/{session_id}").json()
    assert info["slots"] == {"topic": "음악"}
