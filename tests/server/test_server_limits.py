"""What a hostile client cannot make the service keep: every field a session keeps for its life
has a size cap answered with a 422 naming the field, and a 400 never echoes a huge name."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from dialogkit.wire import MAX_OBJECT_BYTES, MAX_PROMPT_CHARS, MAX_SHORT_TEXT_CHARS
from dialogkit_server.errors import ECHO_CHARS

ROUTES = ["/v1/session", "/v1/session/json"]

CAPPED: list[tuple[list[str], Any, Any, str]] = [
    # (path to the field, value at the cap, value over it, pydantic error type)
    (["user_system_prompt"], "p" * MAX_PROMPT_CHARS, "p" * (MAX_PROMPT_CHARS + 1), "string"),
    (["llm_choice"], "m" * MAX_SHORT_TEXT_CHARS, "m" * (MAX_SHORT_TEXT_CHARS + 1), "string"),
    (["nlu_llm_choice"], "m" * MAX_SHORT_TEXT_CHARS, "m" * 900_000, "string"),
    (["user", "id"], "i" * MAX_SHORT_TEXT_CHARS, "i" * (MAX_SHORT_TEXT_CHARS + 1), "string"),
    (["user", "name"], "n" * MAX_SHORT_TEXT_CHARS, "n" * (MAX_SHORT_TEXT_CHARS + 1), "string"),
    (["user", "locale"], "ko-KR", "l" * (MAX_SHORT_TEXT_CHARS + 1), "string"),
    (["user", "timezone"], "Asia/Seoul", "t" * (MAX_SHORT_TEXT_CHARS + 1), "string"),
    (["user", "date_time"], "2026-01-01T09:00:00", "d" * (MAX_SHORT_TEXT_CHARS + 1), "string"),
    # {"k": "..."} is 8 bytes of JSON around the text.
    (
        ["user", "profile"],
        {"k": "v" * (MAX_OBJECT_BYTES - 8)},
        {"k": "v" * MAX_OBJECT_BYTES},
        "object",
    ),
    (["user", "metadata"], {"k": "v" * (MAX_OBJECT_BYTES - 8)}, {"k": ["x"] * 150_000}, "object"),
]


def _body(route: str, path: list[str], value: Any, graph: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"scenario_name": "demo", "scenario_graph": graph}
    if route == "/v1/session":
        del body["scenario_graph"]
    target = body
    for part in path[:-1]:
        target = target.setdefault(part, {})
    target[path[-1]] = value
    return body


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("path", "at_cap", "over", "kind"), CAPPED, ids=lambda v: str(v)[:20])
def test_a_field_over_its_cap_is_a_422_naming_the_field(
    http: httpx.Client,
    graph: dict[str, Any],
    route: str,
    path: list[str],
    at_cap: Any,
    over: Any,
    kind: str,
) -> None:
    response = http.post(route, json=_body(route, path, over, graph))
    assert response.status_code == 422, response.text[:500]
    assert len(response.content) < 2000  # the rejected value is not echoed whole
    (item,) = response.json()["detail"]
    assert item["loc"] == ["body", *path]
    assert item["type"] == ("string_too_long" if kind == "string" else "object_too_large")
    accepted = http.post(route, json=_body(route, path, at_cap, graph))
    assert accepted.status_code == 200, accepted.text[:500]


def test_a_text_location_over_the_cap_is_a_422_at_the_location(http: httpx.Client) -> None:
    body = {"scenario_name": "demo", "user": {"location": "x" * (MAX_SHORT_TEXT_CHARS + 1)}}
    response = http.post("/v1/session", json=body)
    assert response.status_code == 422
    locs = [item["loc"][:3] for item in response.json()["detail"]]
    assert locs and all(loc == ["body", "user", "location"] for loc in locs)


def test_capped_values_are_kept_whole_in_the_session(http: httpx.Client) -> None:
    profile = {"k": "v" * (MAX_OBJECT_BYTES - 8)}
    body = {"scenario_name": "demo", "user": {"profile": profile, "name": "n" * 256}}
    session_id = http.post("/v1/session", json=body).json()["session_id"]
    user = http.get(f"/v1/session/{session_id}").json()["context"]["session_user"]
    assert user["profile"] == profile and user["name"] == "n" * 256


def test_an_unknown_huge_scenario_name_is_a_short_400(http: httpx.Client) -> None:
    name = "x" * 1_500_000
    response = http.post("/v1/session", json={"scenario_name": name})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert len(detail) < 1000, len(detail)
    assert "1500000 characters" in detail and "is not registered" in detail
    assert "x" * ECHO_CHARS in detail  # the start of the name, to recognise it


def test_an_unknown_short_scenario_name_is_echoed_whole(http: httpx.Client) -> None:
    response = http.post("/v1/session", json={"scenario_name": "general_conversation"})
    assert response.status_code == 400
    assert "'general_conversation' is not registered" in response.json()["detail"]


def test_a_misspelt_scenario_name_gets_a_suggestion_in_the_400(http: httpx.Client) -> None:
    response = http.post("/v1/session", json={"scenario_name": "dmeo"})
    assert response.status_code == 400
    assert response.json()["detail"].endswith("did you mean `demo`?")
