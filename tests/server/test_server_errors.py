"""Every error row of the contract, as a client sees it on the wire."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from sanic.application.constants import Mode

from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.session import Reply
from dialogkit.settings import Settings
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit.wire import ChatbotSessionInfoResponse, FrameworkError
from dialogkit_server import create_app
from tests.server.conftest import Live, running

SECRET = "s3cret-internal-detail"


def detail(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"detail"}
    assert isinstance(body["detail"], str)
    return body["detail"]


# ---------------------------------------------------------------------------- 400


@pytest.mark.parametrize("name", ["", "   "])
def test_empty_scenario_name_is_400(http: httpx.Client, name: str) -> None:
    response = http.post("/v1/session", json={"scenario_name": name})
    assert response.status_code == 400
    assert "empty" in detail(response)


def test_missing_scenario_name_is_400(http: httpx.Client) -> None:
    response = http.post("/v1/session", json={})
    assert response.status_code == 400


def test_unregistered_scenario_name_is_400_naming_the_registered_ones(http: httpx.Client) -> None:
    response = http.post("/v1/session", json={"scenario_name": "general_conversation"})
    assert response.status_code == 400
    text = detail(response)
    assert "general_conversation" in text and "demo" in text


def test_registered_scenario_whose_file_is_broken_is_400(
    http: httpx.Client, scenario_registry: Any
) -> None:
    (scenario_registry / "demo.json").rename(scenario_registry / "demo.json.bak")
    try:
        response = http.post("/v1/session", json={"scenario_name": "demo"})
    finally:
        (scenario_registry / "demo.json.bak").rename(scenario_registry / "demo.json")
    assert response.status_code == 400
    assert "demo.json" in detail(response)


@pytest.mark.parametrize("graph", [{}, None])
def test_empty_scenario_graph_is_400(http: httpx.Client, graph: Any) -> None:
    body = {} if graph is None else {"scenario_graph": graph}
    response = http.post("/v1/session/json", json=body)
    assert response.status_code == 400
    assert "scenario_graph is required" in detail(response)


def test_graph_with_errors_is_400_summarizing_them(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    graph["graph"]["entry"] = "nowhere"
    response = http.post("/v1/session/json", json={"scenario_graph": graph})
    assert response.status_code == 400
    text = detail(response)
    assert "error(s)" in text and "nowhere" in text
    assert "\n" not in text


def test_a_graph_without_a_slug_is_not_called_scenario_empty_quotes(
    http: httpx.Client, graph: dict[str, Any]
) -> None:
    del graph["metadata"]["slug"]
    response = http.post("/v1/session/json", json={"scenario_graph": graph})
    assert response.status_code == 400
    text = detail(response)
    assert text.startswith("The scenario (no metadata.slug) is invalid"), text
    assert "metadata.slug" in text


def test_unparseable_graph_is_400(http: httpx.Client) -> None:
    response = http.post("/v1/session/json", json={"scenario_graph": {"graph": {"nodes": 3}}})
    assert response.status_code == 400
    assert "graph.nodes" in detail(response)


# ---------------------------------------------------------------------------- 404


@pytest.mark.parametrize("session_id", ["no-such-session", "00000000-0000-0000-0000-000000000000"])
def test_info_of_an_unknown_session_is_404(http: httpx.Client, session_id: str) -> None:
    response = http.get(f"/v1/session/{session_id}")
    assert response.status_code == 404
    assert response.json() == {"detail": "Session not found"}


@pytest.mark.parametrize("session_id", ["", "no-such-session"])
def test_message_to_an_unknown_session_is_404_not_500(http: httpx.Client, session_id: str) -> None:
    response = http.post(
        "/v1/message", json={"session_id": session_id, "message_input": {"text": "hi"}}
    )
    assert response.status_code == 404
    assert response.json() == {"detail": "Session not found"}


def test_message_without_session_id_is_404(http: httpx.Client) -> None:
    response = http.post("/v1/message", json={"message_input": {"text": "hi"}})
    assert response.status_code == 404


def test_expired_session_is_404_for_info_and_message(
    graph: dict[str, Any], scenario_registry: Any
) -> None:
    with running() as live, httpx.Client(base_url=live.base_url) as http:
        session_id = http.post("/v1/session/json", json={"scenario_graph": graph}).json()[
            "session_id"
        ]
        live.clock.offset = 3599
        assert http.get(f"/v1/session/{session_id}").status_code == 200
        live.clock.offset = 3601
        assert http.get(f"/v1/session/{session_id}").json() == {"detail": "Session not found"}
        message = {"session_id": session_id, "message_input": {"text": "music"}}
        response = http.post("/v1/message", json=message)
        assert response.status_code == 404


def test_unknown_path_is_404(http: httpx.Client) -> None:
    assert http.get("/v2/").status_code == 404


# ---------------------------------------------------------------------------- 405


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/"),
        ("DELETE", "/"),
        ("PUT", "/v1/"),
        ("POST", "/v1/"),
        ("GET", "/v1/session"),
        ("GET", "/v1/session/json"),
        ("GET", "/v1/session/validate"),
        ("GET", "/v1/message"),
        ("DELETE", "/v1/session/abc"),
    ],
)
def test_wrong_method_is_405(http: httpx.Client, method: str, path: str) -> None:
    response = http.request(method, path)
    assert response.status_code == 405
    assert response.headers["content-type"].startswith("application/json")


# ---------------------------------------------------------------------------- 422


POST_PATHS = ["/v1/session", "/v1/session/json", "/v1/session/validate", "/v1/message"]


def items(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 422
    body = response.json()
    assert set(body) == {"detail"}
    for item in body["detail"]:
        assert set(item) == {"type", "loc", "msg", "input"}
        assert isinstance(item["type"], str) and isinstance(item["msg"], str)
        assert item["loc"][0] == "body"
    result: list[dict[str, Any]] = body["detail"]
    return result


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("body", [[1, 2], "text", 3, None, True])
def test_body_that_is_not_an_object_is_422(http: httpx.Client, path: str, body: Any) -> None:
    [item] = items(http.post(path, json=body))
    assert item["loc"] == ["body"]
    assert item["input"] == body


@pytest.mark.parametrize("path", POST_PATHS)
def test_malformed_json_is_422(http: httpx.Client, path: str) -> None:
    response = http.post(
        path, content=b'{"session_id": ', headers={"content-type": "application/json"}
    )
    [item] = items(response)
    assert item["type"] == "json_invalid"
    assert item["loc"] == ["body"]


@pytest.mark.parametrize("path", POST_PATHS)
def test_empty_body_is_422_missing(http: httpx.Client, path: str) -> None:
    [item] = items(http.post(path))
    assert item == {"type": "missing", "loc": ["body"], "msg": "Field required", "input": None}


def test_message_input_as_string_is_422(http: httpx.Client) -> None:
    response = http.post("/v1/message", json={"session_id": "x", "message_input": "hello"})
    [item] = items(response)
    assert item["loc"] == ["body", "message_input"]
    assert item["input"] == "hello"


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("/v1/session", {"scenario_name": "demo", "bot_first": "maybe"}, ["body", "bot_first"]),
        ("/v1/session", {"scenario_name": 7}, ["body", "scenario_name"]),
        ("/v1/session", {"max_fallback_retries": -1}, ["body", "max_fallback_retries"]),
        ("/v1/session", {"user": {"age": "old"}}, ["body", "user", "age"]),
        (
            "/v1/session/json",
            {"user": {"location": {"latitude": 91, "longitude": 0}}},
            ["body", "user", "location", "ChatbotSessionLocation", "latitude"],
        ),
        ("/v1/session/json", {"scenario_graph": [1]}, ["body", "scenario_graph"]),
        ("/v1/session/validate", {"scenario_graph": "graph"}, ["body", "scenario_graph"]),
        (
            "/v1/message",
            {"message_input": {"requery_context": {"consecutive_attempt": -1}}},
            ["body", "message_input", "requery_context", "consecutive_attempt"],
        ),
        (
            "/v1/message",
            {"message_input": {"confidence": "high"}},
            ["body", "message_input", "confidence"],
        ),
    ],
)
def test_wrong_field_shapes_are_422_with_the_field_path(
    http: httpx.Client, path: str, body: dict[str, Any], loc: list[Any]
) -> None:
    assert loc in [item["loc"] for item in items(http.post(path, json=body))]


@pytest.mark.parametrize(
    "path", ["/v1/session", "/v1/session/json", "/v1/session/validate", "/v1/message"]
)
def test_oversized_body_is_rejected_before_processing_as_documented(
    http: httpx.Client, path: str
) -> None:
    big = {"scenario_graph": {"padding": "x" * (3 * 1024 * 1024)}}
    response = http.post(path, json=big)
    assert response.status_code == 413
    assert FrameworkError.model_validate(response.json()).status == 413
    documented = http.get("/openapi.json").json()["paths"][path]["post"]["responses"]
    assert "413" in documented


# ---------------------------------------------------------------------------- failures


class BrokenEngine(Engine):
    """An engine whose internals fail in the ways the service must contain."""

    async def amessage(self, session_id: str, text: str, confidence: float = 0.0) -> Reply:
        if text == "engine-error":
            return Reply(error=True)
        raise RuntimeError(SECRET)

    async def ainfo(self, session_id: str) -> ChatbotSessionInfoResponse:
        raise RuntimeError(SECRET)


EMPTY_ERROR_REPLY = {
    "session_id": "",
    "response": "",
    "current_node": "",
    "turn_count": 0,
    "processing_time_ms": 0.0,
    "session_complete": False,
    "error": True,
}


@pytest.fixture(scope="module")
def broken(scenario_registry: Any) -> Any:
    with running(BrokenEngine(Settings(), router=OfflineRouter())) as live:
        yield live


@pytest.mark.parametrize("text", ["engine-error", "crash"])
def test_internal_dialogue_errors_are_200_with_error_true_and_empty_fields(
    broken: Live, text: str
) -> None:
    message = {"session_id": "any", "message_input": {"text": text}}
    response = httpx.post(f"{broken.base_url}/v1/message", json=message)
    assert response.status_code == 200
    assert response.json() == EMPTY_ERROR_REPLY
    assert SECRET not in response.text


def test_unhandled_exception_is_a_generic_500(broken: Live) -> None:
    response = httpx.get(f"{broken.base_url}/v1/session/any")
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/json")
    assert SECRET not in response.text
    assert "Traceback" not in response.text
    assert "RuntimeError" not in response.text


def test_debug_mode_still_sends_no_traceback(scenario_registry: Any) -> None:
    engine = BrokenEngine(Settings(), router=OfflineRouter())
    app = create_app(engine)
    app.state.mode = Mode.DEBUG  # what `sanic --debug` does; it also turns Sanic's logs up
    loggers = [logging.getLogger(name) for name in logging.root.manager.loggerDict]
    levels = {logger: logger.level for logger in loggers}
    try:
        with RuntimeServer(app) as server:
            response = httpx.get(f"{server.base_url}/v1/session/any")
    finally:
        engine.close()
        for logger, level in levels.items():
            logger.setLevel(level)
    assert response.status_code == 500
    assert SECRET not in response.text
    assert "Traceback" not in response.text
