"""Model choice is an allow-list: a name goes only where the operator configured it."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.errors import LLMError
from dialogkit.llm.router import ModelRouter
from dialogkit.testing.openai_server import ScriptedOpenAIServer as Server
from tests.helpers import RecordingSkills
from tests.llm.conftest import make_settings, serving
from tests.llm.test_llm_engine import Model, calls, graph


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every host name looked up and every address connected to, from any transport."""
    seen: list[Any] = []
    lookup = socket.getaddrinfo
    loop_lookup = asyncio.base_events.BaseEventLoop.getaddrinfo
    loop_connect = asyncio.selector_events.BaseSelectorEventLoop.sock_connect
    connect = socket.socket.connect

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(host)
        return lookup(host, *args, **kwargs)

    async def loop_getaddrinfo(self: Any, host: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(host)
        return await loop_lookup(self, host, *args, **kwargs)

    async def sock_connect(self: Any, sock: socket.socket, address: Any) -> None:
        seen.append(address[0])
        await loop_connect(self, sock, address)

    def socket_connect(self: socket.socket, address: Any) -> None:
        seen.append(address[0] if isinstance(address, tuple) else address)
        connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(asyncio.base_events.BaseEventLoop, "getaddrinfo", loop_getaddrinfo)
    monkeypatch.setattr(asyncio.selector_events.BaseSelectorEventLoop, "sock_connect", sock_connect)
    monkeypatch.setattr(socket.socket, "connect", socket_connect)
    yield seen


@pytest.fixture
def server() -> Iterator[Server]:
    with Server(handler=Model()) as scripted:
        yield scripted


@pytest.fixture
def other() -> Iterator[Server]:
    """A second model server, mapped to another name only."""
    with Server(handler=Model()) as scripted:
        yield scripted


async def test_an_unconfigured_name_falls_back_to_the_default_and_says_so(
    server: Server, other: Server, connections: list[Any]
) -> None:
    settings = make_settings(
        server,
        core_default_llm="house-nlg",
        core_nlu_llm="house-nlu",
        llm_models="",
        llm_endpoints=f"mapped={other.base_url}",
    )
    async with Engine(settings, skills=RecordingSkills()) as engine:
        session = await engine.astart(graph(), llm_choice="gpt-4o", nlu_llm_choice="gpt-4o")
        assert session.initial_reply is not None
        await session.asend("debit please")
        usage = (await session.ainfo()).context["llm_usage"]

    assert calls(server) == [("nlu", "house-nlu"), ("nlg", "house-nlg")]
    assert other.requests == []
    assert connections and set(connections) <= {"127.0.0.1"}
    assert len(usage["warnings"]) == 2  # once per purpose, not once per turn
    assert all("'gpt-4o' is not served" in warning for warning in usage["warnings"])


async def test_a_mapped_name_goes_to_its_endpoint_only(server: Server, other: Server) -> None:
    settings = make_settings(
        server,
        core_default_llm="house-nlg",
        llm_models="",
        llm_endpoints=f"mapped={other.base_url}",
    )
    async with Engine(settings, skills=RecordingSkills()) as engine:
        session = await engine.astart(graph(), llm_choice="mapped")
        await session.asend("debit please")
        usage = (await session.ainfo()).context["llm_usage"]
    assert calls(other) == [("nlg", "mapped")]
    assert server.requests == []
    assert usage["warnings"] == []


async def test_names_listed_for_the_default_endpoint_are_served_there(server: Server) -> None:
    settings = make_settings(server, core_default_llm="house-nlg", llm_models="small, large")
    async with Engine(settings, skills=RecordingSkills()) as engine:
        for name in ("large", "unlisted"):
            session = await engine.astart(graph(), llm_choice=name)
            await session.asend("debit please")
    assert calls(server) == [("nlg", "large"), ("nlg", "house-nlg")]


async def test_with_no_endpoint_everything_runs_offline(connections: list[Any]) -> None:
    settings = make_settings(None, core_default_llm="gpt-4o", core_nlu_llm="gpt-4o")
    async with Engine(settings, skills=RecordingSkills()) as engine:
        session = await engine.astart(graph(), llm_choice="gpt-4o-mini", nlu_llm_choice="o3")
        reply = await session.asend("debit please")
        usage = (await session.ainfo()).context["llm_usage"]
    assert reply.session_complete  # the rule NLU and the templates did the turn
    assert reply.response == "Your debit card is on its way."
    assert connections == []
    assert usage["by_model"] == {}
    assert usage["warnings"] == [
        "nlu model 'o3' is not served by any configured endpoint (OPENAI_BASE_URL, "
        "DIALOGKIT_LLM_MODELS, DIALOGKIT_LLM_ENDPOINTS); using 'offline'",
        "nlg model 'gpt-4o-mini' is not served by any configured endpoint (OPENAI_BASE_URL, "
        "DIALOGKIT_LLM_MODELS, DIALOGKIT_LLM_ENDPOINTS); using 'offline'",
    ]


def test_an_endpoint_needs_an_explicit_address() -> None:
    with pytest.raises(LLMError, match="http:// or https://"):
        ModelRouter(make_settings(None, openai_base_url="api.openai.com"))
    with pytest.raises(LLMError, match="http:// or https://"):
        ModelRouter(make_settings(None, llm_endpoints="m=api.example.com|k"))


def test_the_create_response_echoes_the_requested_names(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "registry.json").write_text('{"cards": "cards.json"}', encoding="utf-8")
    (tmp_path / "cards.json").write_text(json.dumps(graph()), encoding="utf-8")
    monkeypatch.setenv("DIALOGKIT_SCENARIOS_DIR", str(tmp_path))
    settings = make_settings(server, core_default_llm="house-nlg", llm_models="")
    request = {"scenario_name": "cards", "llm_choice": "gpt-4o", "nlu_llm_choice": "x"}
    with serving(Engine(settings, skills=RecordingSkills())) as http:
        created = http.post("/v1/session", json=request).json()
        message = {"session_id": created["session_id"], "message_input": {"text": "debit"}}
        reply = http.post("/v1/message", json=message).json()
    assert (created["llm_choice"], created["nlu_llm_choice"]) == ("gpt-4o", "x")
    assert reply["response"] == "Reply from house-nlg."
    assert calls(server) == [("nlg", "house-nlg")]
