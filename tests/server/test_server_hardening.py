"""Hostile inputs against a real server: caps, short echoes, the admin token, readiness,
escaped logs and a catastrophic regex that must not stall other sessions."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.settings import Settings
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit.store._memory import MemoryStore
from dialogkit_server import create_app
from dialogkit_server.errors import ECHO_CHARS
from tests.helpers import make_graph
from tests.server.conftest import DEMO, FakeClock, GatedSkills, running


@contextmanager
def serving(settings: Settings) -> Iterator[httpx.Client]:
    """An offline engine served with ``settings`` (the service reads its caps from them)."""
    engine = Engine(settings, store=MemoryStore(), router=OfflineRouter(), skills=GatedSkills())
    try:
        with (
            RuntimeServer(create_app(engine, settings)) as server,
            httpx.Client(base_url=server.base_url, timeout=30) as http,
        ):
            yield http
    finally:
        engine.close()


# ---------------------------------------------------------------------------- 422 echoes


def test_a_422_echoes_only_a_short_prefix_of_a_large_input(http: httpx.Client) -> None:
    huge = "x" * 1_500_000
    response = http.post("/v1/message", json={"session_id": "s", "message_input": huge})
    assert response.status_code == 422
    assert len(response.content) < 2 * ECHO_CHARS + 500
    (item,) = response.json()["detail"]
    assert item["loc"] == ["body", "message_input"]
    assert item["input"].startswith("x" * ECHO_CHARS) and len(item["input"]) <= ECHO_CHARS + 3


def test_a_422_for_a_large_array_body_echoes_a_prefix_of_its_json(http: httpx.Client) -> None:
    response = http.post("/v1/message", json=list(range(200_000)))
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert item["input"].startswith("[0,1,2,3") and len(item["input"]) <= ECHO_CHARS + 3


def test_a_small_rejected_input_is_echoed_whole(http: httpx.Client) -> None:
    response = http.post("/v1/message", json={"message_input": {"text": 5}})
    assert response.status_code == 422
    assert response.json()["detail"][0]["input"] == 5


# ---------------------------------------------------------------------------- caps


def test_an_utterance_over_the_cap_is_a_422_in_the_contract_shape(http: httpx.Client) -> None:
    cap = Settings().max_utterance_chars
    created = http.post("/v1/session", json={"scenario_name": "demo"}).json()
    text = "a" * (cap + 1)
    response = http.post(
        "/v1/message", json={"session_id": created["session_id"], "message_input": {"text": text}}
    )
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert item["type"] == "string_too_long"
    assert item["loc"] == ["body", "message_input", "text"]
    assert str(cap) in item["msg"]
    at_cap = http.post(
        "/v1/message",
        json={"session_id": created["session_id"], "message_input": {"text": "a" * cap}},
    )
    assert at_cap.status_code == 200 and not at_cap.json().get("error")


def many_nodes(count: int) -> dict[str, Any]:
    graph = copy.deepcopy(DEMO)
    extra = [
        {"id": f"n{i}", "description": "Filler.", "default_next": "chat"} for i in range(count)
    ]
    graph["graph"]["nodes"].extend(extra)
    return graph


def test_a_graph_with_too_many_nodes_is_a_400_and_not_valid() -> None:
    settings = Settings(DIALOGKIT_MAX_GRAPH_NODES=10)
    with serving(settings) as http:
        response = http.post("/v1/session/json", json={"scenario_graph": many_nodes(20)})
        assert response.status_code == 400
        assert "DIALOGKIT_MAX_GRAPH_NODES" in response.json()["detail"]
        checked = http.post("/v1/session/validate", json={"scenario_graph": many_nodes(20)})
        assert checked.status_code == 200
        assert checked.json()["status"] == "error"
        assert http.post("/v1/session/json", json={"scenario_graph": DEMO}).status_code == 200


def test_a_graph_body_over_the_byte_cap_is_a_400() -> None:
    settings = Settings(DIALOGKIT_MAX_GRAPH_BYTES=4096)
    graph = copy.deepcopy(DEMO)
    graph["metadata"]["description"] = "d" * 5000
    with serving(settings) as http:
        response = http.post("/v1/session/json", json={"scenario_graph": graph})
        assert response.status_code == 400
        assert "DIALOGKIT_MAX_GRAPH_BYTES" in response.json()["detail"]
        checked = http.post("/v1/session/validate", json={"scenario_graph": graph})
        assert checked.json()["status"] == "error"


# ---------------------------------------------------------------------------- admin token


def test_the_admin_token_protects_session_reads_when_set() -> None:
    settings = Settings(DIALOGKIT_ADMIN_TOKEN="t0ken")
    with serving(settings) as http:
        session_id = http.post("/v1/session", json={"scenario_name": "demo"}).json()["session_id"]
        for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": "t0ken"}):
            response = http.get(f"/v1/session/{session_id}", headers=headers)
            assert response.status_code == 401
            assert set(response.json()) == {"detail"}
            assert response.headers["www-authenticate"] == "Bearer"
        good = http.get(f"/v1/session/{session_id}", headers={"authorization": "Bearer t0ken"})
        assert good.status_code == 200 and good.json()["session_id"] == session_id
        # Everything else stays open, as the contract says.
        sent = {"session_id": session_id, "message_input": {"text": "weather"}}
        assert http.post("/v1/message", json=sent).status_code == 200


def test_without_a_token_session_reads_stay_open(http: httpx.Client) -> None:
    session_id = http.post("/v1/session", json={"scenario_name": "demo"}).json()["session_id"]
    assert http.get(f"/v1/session/{session_id}").status_code == 200


# ---------------------------------------------------------------------------- logs


def test_client_text_in_logs_cannot_forge_a_line(
    http: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "x\n2026-01-01 ERROR dialogkit forged line"
    graph = copy.deepcopy(DEMO)
    graph["graph"]["nodes"][0]["default_next"] = forged
    with caplog.at_level(logging.WARNING, logger="dialogkit.server"):
        response = http.post("/v1/session/validate", json={"scenario_graph": graph})
    assert response.json()["status"] == "error"
    logged = [r.getMessage() for r in caplog.records if "validation failed" in r.getMessage()]
    assert logged, "the validation failure was not logged"
    lines = logged[0].splitlines()
    assert not any(line.startswith("2026-01-01") for line in lines)
    assert any("default_next" in line and "forged line" in line for line in lines)


async def test_node_and_skill_ids_are_escaped_in_turn_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    node_id, skill = "look\nFORGED node line", "lookup\r\nFORGED skill line"
    graph = make_graph(
        [
            {
                "id": "start",
                "description": "Start.",
                "responses": {"default": "Hello."},
                "default_next": node_id,
            },
            {
                "id": node_id,
                "description": "Calls a skill.",
                "params": {"skill": skill, "fallback": "The lookup failed."},
                "terminal": True,
            },
        ],
    )
    # No runtime is configured, so the skill fails and the failure is logged.
    async with Engine(Settings(SKILL_RUNTIME_BASE_URL=""), router=OfflineRouter()) as engine:
        session = await engine.astart(graph, bot_first=False)
        with caplog.at_level(logging.WARNING, logger="dialogkit.turn"):
            reply = await session.asend("hi")
    assert reply.response == "The lookup failed."
    messages = [r.getMessage() for r in caplog.records if "failed at node" in r.getMessage()]
    assert len(messages) == 1
    assert len(messages[0].splitlines()) == 1
    assert "look\\nFORGED node line" in messages[0]
    assert "lookup\\r\\nFORGED skill line" in messages[0]


# ---------------------------------------------------------------------------- regex


HOSTILE_GRAPH: dict[str, Any] = {
    "metadata": {"slug": "hostile", "name": "Hostile", "language": "en", "version": "1"},
    "graph": {
        "entry": "start",
        "nodes": [
            {
                "id": "start",
                "description": "Start.",
                "responses": {"default": "Say something."},
                "next_nodes": [
                    {
                        "condition": {
                            "field": "input.text",
                            "operator": "matches",
                            "value": "^(a+)+$",
                        },
                        "target": "start",
                    }
                ],
                "default_next": "start",
            }
        ],
    },
}


async def test_a_catastrophic_regex_does_not_stall_other_sessions() -> None:
    """While hostile turns run, a turn of another session answers within 100 ms.

    Under Python's ``re`` each hostile turn would block the event loop for longer than the
    age of the universe (2**4000 steps). The budget is checked on the fastest of several
    tries, so a loaded test machine does not make it fail; a stalled loop fails every try.
    """
    cap = Settings().max_utterance_chars
    hostile_text = "a" * (cap - 1) + "!"
    clock, skills = FakeClock(), GatedSkills()
    engine = Engine(
        Settings(), store=MemoryStore(clock=clock), router=OfflineRouter(), skills=skills
    )
    with running(engine) as live:
        async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
            hostile = (
                await http.post("/v1/session/json", json={"scenario_graph": HOSTILE_GRAPH})
            ).json()
            created = await http.post("/v1/session", json={"scenario_name": "demo"})
            benign = created.json()["session_id"]

            async def hostile_turns() -> list[httpx.Response]:
                sent = {"session_id": hostile["session_id"], "message_input": {}}
                sent["message_input"] = {"text": hostile_text}
                return [await http.post("/v1/message", json=sent) for _ in range(20)]

            async def benign_turn() -> float:
                started = time.perf_counter()
                sent = {"session_id": benign, "message_input": {"text": "weather"}}
                response = await http.post("/v1/message", json=sent)
                assert response.status_code == 200 and not response.json().get("error")
                return time.perf_counter() - started

            running_hostile = asyncio.ensure_future(hostile_turns())
            times = []
            while not running_hostile.done() or len(times) < 5:
                times.append(await benign_turn())
                if len(times) >= 50:
                    break
            answers = await asyncio.wait_for(running_hostile, 60)
    assert all(r.status_code == 200 and not r.json().get("error") for r in answers)
    assert min(times) < 0.100, sorted(times)[:5]


def test_the_hostile_graph_is_valid_because_re2_runs_it(http: httpx.Client) -> None:
    response = http.post("/v1/session/validate", json={"scenario_graph": HOSTILE_GRAPH})
    assert response.json()["status"] == "success", json.dumps(response.json())


def test_a_turn_deadline_longer_than_the_response_timeout_is_warned_about(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="dialogkit.server"):
        create_app(settings=Settings(DIALOGKIT_TURN_DEADLINE_S=119))
    assert any("does not fit" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="dialogkit.server"):
        create_app(settings=Settings())
    assert not any("does not fit" in r.getMessage() for r in caplog.records)
