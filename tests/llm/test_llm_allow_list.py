"""Model choice: a session names its models, the operator decides the addresses; nothing goes
anywhere the operator did not configure, and DIALOGKIT_LLM_MODELS can restrict the names."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.errors import LLMError
from dialogkit.llm._router import ModelRouter
from dialogkit.testing.openai_server import ErrorReply, RecordedRequest, Reply
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
        llm_models="small",
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


@pytest.fixture
def registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The card graph registered as ``cards``."""
    (tmp_path / "registry.json").write_text('{"cards": "cards.json"}', encoding="utf-8")
    (tmp_path / "cards.json").write_text(json.dumps(graph()), encoding="utf-8")
    monkeypatch.setenv("DIALOGKIT_SCENARIOS_DIR", str(tmp_path))
    return "cards"


def converse(http: Any, request: dict[str, Any], text: str = "debit") -> tuple[Any, Any]:
    """Create a session over HTTP and send one message: (create body, message body)."""
    created = http.post("/v1/session", json=request).json()
    message = {"session_id": created["session_id"], "message_input": {"text": text}}
    return created, http.post("/v1/message", json=message).json()


# The contract: separate model names per session; the process default for an empty choice.
CONTRACT_DEPLOYMENT = {"core_default_llm": "default-nlg", "core_nlu_llm": "default-nlu"}


def test_each_session_sends_its_own_model_names_to_the_default_endpoint(
    server: Server, registered: str
) -> None:
    settings = make_settings(server, llm_models="", **CONTRACT_DEPLOYMENT)
    chosen = {"scenario_name": registered, "llm_choice": "nlg-x", "nlu_llm_choice": "nlu-y"}
    with serving(Engine(settings, skills=RecordingSkills())) as http:
        created, reply = converse(http, chosen)
        assert calls(server) == [("nlu", "nlu-y"), ("nlg", "nlg-x")]
        assert (created["llm_choice"], created["nlu_llm_choice"]) == ("nlg-x", "nlu-y")
        assert reply["response"] == "Reply from nlg-x."

        server.reset()
        created, reply = converse(http, {"scenario_name": registered})
        assert calls(server) == [("nlu", "default-nlu"), ("nlg", "default-nlg")]
        assert (created["llm_choice"], created["nlu_llm_choice"]) == ("", "")
        info = http.get(f"/v1/session/{created['session_id']}").json()
    assert info["context"]["llm_usage"]["warnings"] == []


def test_a_name_the_model_server_refuses_gets_the_usual_fallback(
    registered: str,
) -> None:
    def only_known(request: RecordedRequest) -> Reply:
        if request.model == "no-such-model":
            return ErrorReply(404, f"The model `{request.model}` does not exist")
        return Model()(request)

    with Server(handler=only_known) as refusing:
        settings = make_settings(refusing, llm_models="", **CONTRACT_DEPLOYMENT)
        with serving(Engine(settings, skills=RecordingSkills())) as http:
            chosen = {"scenario_name": registered, "llm_choice": "no-such-model"}
            _, reply = converse(http, chosen)
    assert calls(refusing) == [("nlu", "default-nlu"), ("nlg", "no-such-model")]
    assert reply["response"] == "Your debit card is on its way."  # the node's own template
    assert reply["session_complete"] is True


def test_the_model_list_restricts_the_names_over_http(
    server: Server, other: Server, registered: str, connections: list[Any]
) -> None:
    settings = make_settings(
        server,
        llm_models="nlg-x",
        llm_endpoints=f"mapped={other.base_url}",
        **CONTRACT_DEPLOYMENT,
    )
    chosen = {"scenario_name": registered, "llm_choice": "nlg-x", "nlu_llm_choice": "nlu-y"}
    with serving(Engine(settings, skills=RecordingSkills())) as http:
        created, reply = converse(http, chosen)
        info = http.get(f"/v1/session/{created['session_id']}").json()
    assert reply["response"] == "Reply from nlg-x."
    assert calls(server) == [("nlu", "default-nlu"), ("nlg", "nlg-x")]
    assert other.requests == []
    assert set(connections) <= {"127.0.0.1"}
    assert (created["llm_choice"], created["nlu_llm_choice"]) == ("nlg-x", "nlu-y")
    assert info["context"]["llm_usage"]["warnings"] == [
        "nlu model 'nlu-y' is not served by any configured endpoint (OPENAI_BASE_URL, "
        "DIALOGKIT_LLM_MODELS, DIALOGKIT_LLM_ENDPOINTS); using 'default-nlu'"
    ]


def test_start_up_logs_which_names_are_served_where(
    server: Server, other: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dialogkit.llm.router")
    mapping = "mapped=" + other.base_url.replace("http://", "http://user:secret@")
    ModelRouter(make_settings(server, llm_models="", llm_endpoints=mapping))
    ModelRouter(make_settings(server, llm_models="small", **CONTRACT_DEPLOYMENT))
    ModelRouter(make_settings(None))
    assert [r.getMessage() for r in caplog.records] == [
        f"model routing: any name -> {server.base_url}",
        f"model routing: mapped -> {other.base_url}",
        f"model routing: default-nlg, default-nlu, small -> {server.base_url}",
        "model routing: no model endpoint is configured: every session runs offline",
    ]
