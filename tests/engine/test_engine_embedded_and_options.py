"""``Engine(skill_runtime="embedded")`` and the start options shared with the clients."""

from __future__ import annotations

import inspect
import threading
import typing

import httpx
import pytest

from dialogkit import AsyncClient, AsyncRemoteSession, Client, Engine, RemoteSession, Scenario
from dialogkit.engine.options import EngineStartOptions, StartOptions
from dialogkit.engine.session import Session
from dialogkit.engine.state import SessionConfig
from dialogkit.wire import ChatbotSessionCreateRequest, SessionOptions, SessionSettings
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
    assert unpacked(Engine.start) is EngineStartOptions
    assert unpacked(Engine.astart) is EngineStartOptions
    for method in (Client.start, AsyncClient.start):
        assert unpacked(method) is StartOptions
    # The typed keywords name exactly the one definition of the options (the wire model),
    # which the create request extends with the scenario; the engine adds its process-only
    # setting.
    assert set(StartOptions.__annotations__) == set(SessionOptions.model_fields)
    assert set(EngineStartOptions.__annotations__) == set(StartOptions.__annotations__) | {
        "hybrid_nlu"
    }
    assert set(ChatbotSessionCreateRequest.model_fields) - set(SessionOptions.model_fields) == {
        "scenario_name",
        "scenario_graph",
    }
    # The session's config keeps the options as given under the same definition.
    assert issubclass(SessionConfig, SessionSettings)
    for name, field in SessionSettings.model_fields.items():
        assert repr(SessionConfig.model_fields[name]) == repr(field)


def test_engine_start_refuses_an_unknown_option() -> None:
    with Engine() as engine, pytest.raises(TypeError, match="llm_choise"):
        engine.start(Scenario.load("card_issuance"), llm_choise="x")  # type: ignore[call-arg]


def sync_twins(sync: type, asynchronous: type) -> list[tuple[str, str]]:
    """(sync name, async name) of every public method the two classes both have: the same
    name on twin classes, ``name``/``aname`` on one class."""
    names = {name for name in dir(sync) if not name.startswith("_")}
    twins = []
    for name in sorted(names):
        if not callable(getattr(sync, name)) or name in ("close", "aclose"):
            continue
        if sync is asynchronous and f"a{name}" in names:
            twins.append((name, f"a{name}"))
        elif sync is not asynchronous and name in dir(asynchronous):
            twins.append((name, name))
    return twins


@pytest.mark.parametrize(
    ("sync", "asynchronous", "at_least"),
    [(Engine, Engine, 4), (Session, Session, 4), (Client, AsyncClient, 8)],
    ids=["Engine", "Session", "Client"],
)
def test_sync_methods_take_the_parameters_of_their_async_twins(
    sync: type, asynchronous: type, at_least: int
) -> None:
    twins = sync_twins(sync, asynchronous)
    assert len(twins) >= at_least, twins
    for sync_name, async_name in twins:
        blocking = inspect.signature(getattr(sync, sync_name))
        awaited = inspect.signature(getattr(asynchronous, async_name))
        assert inspect.iscoroutinefunction(getattr(asynchronous, async_name)), async_name
        assert list(blocking.parameters.values()) == list(awaited.parameters.values()), (
            f"{sync.__name__}.{sync_name} and {asynchronous.__name__}.{async_name} differ"
        )


def test_remote_sessions_take_the_parameters_of_local_ones() -> None:
    for remote in (RemoteSession, AsyncRemoteSession):
        for name in ("send", "asend", "info", "ainfo"):
            if hasattr(remote, name):
                local = inspect.signature(getattr(Session, name)).parameters
                assert list(inspect.signature(getattr(remote, name)).parameters.values()) == list(
                    local.values()
                ), name
