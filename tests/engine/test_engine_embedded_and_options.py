"""``Engine(skill_runtime="embedded")`` and the start options shared with the clients."""

from __future__ import annotations

import inspect
import threading
import typing

import httpx
import pytest

from dialogkit import AsyncClient, Client, Engine, Scenario
from dialogkit.engine.options import EngineStartOptions, StartOptions
from dialogkit.wire import ChatbotSessionCreateRequest
from tests.helpers import CARD_ISSUANCE_TURNS


def runtime_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "skill-runtime"]


def test_embedded_runtime_runs_skills_and_stops_on_close() -> None:
    before = len(runtime_threads())
    engine = Engine(skill_runtime="embedded")
    url = engine.settings.skill_runtime_base_url
    assert url.startswith("http://127.0.0.1:")
    assert len(runtime_threads()) == before + 1
    session = engine.start(Scenario.load("card_issuance"), user={"name": "김민수"})
    for text in CARD_ISSUANCE_TURNS:
        reply = session.send(text)
    assert (reply.current_node, reply.session_complete) == ("issued", True)
    assert reply.final_data is not None
    engine.close()
    assert len(runtime_threads()) == before
    with pytest.raises(httpx.ConnectError):
        httpx.get(url, timeout=2)


def test_without_a_runtime_the_skill_fails_on_a_terminal_node_that_invites_no_retry() -> None:
    with Engine() as engine:
        session = engine.start(Scenario.load("card_issuance"), user={"name": "김민수"})
        for text in CARD_ISSUANCE_TURNS:
            reply = session.send(text)
    assert (reply.current_node, reply.session_complete) == ("issue_failed", True)
    assert "다시 시도" not in reply.response
    assert "1588-0000" in reply.response


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"skill_runtime": "remote"}, "embedded"),
        ({"skill_runtime": "embedded", "skills": object()}, "not both"),
    ],
)
def test_embedded_runtime_arguments_are_checked(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Engine(**kwargs)  # type: ignore[arg-type]


def keyword_names(function: object) -> set[str]:
    parameters = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    return {p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY}


def unpacked(function: object) -> type:
    """The TypedDict a ``**options: Unpack[...]`` parameter names."""
    hints = typing.get_type_hints(function, include_extras=True)
    [argument] = typing.get_args(hints["options"])
    return argument  # type: ignore[no-any-return]


def test_local_and_remote_start_accept_the_same_names() -> None:
    engine_names = keyword_names(Engine.astart)
    assert set(EngineStartOptions.__annotations__) == engine_names
    assert unpacked(Engine.start) is EngineStartOptions
    for method in (Client.start, AsyncClient.start):
        assert unpacked(method) is StartOptions
    # The remote form is the local one minus the process-only setting, and every name is a
    # field of the session-create request.
    assert set(StartOptions.__annotations__) == engine_names - {"hybrid_nlu"}
    assert set(StartOptions.__annotations__) <= set(ChatbotSessionCreateRequest.model_fields)


def test_engine_start_refuses_an_unknown_option() -> None:
    with Engine() as engine, pytest.raises(TypeError, match="llm_choise"):
        engine.start(Scenario.load("card_issuance"), llm_choise="x")  # type: ignore[call-arg]
