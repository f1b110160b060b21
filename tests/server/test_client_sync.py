"""``dialogkit.client.Client`` against a live server, and its mapping of error statuses."""

from __future__ import annotations

import json
import socket
from typing import Any

import httpx
import pytest

from dialogkit import Engine
from dialogkit.client import AsyncClient, Client, RemoteSession
from dialogkit.engine.session import Reply
from dialogkit.errors import (
    APIError,
    BadRequest,
    ConnectionFailed,
    DialogkitError,
    IdempotencyKeyReused,
    InvalidOption,
    ServerError,
    SessionNotFound,
    ValidationFailed,
)
from dialogkit.scenario import Scenario
from dialogkit.wire import (
    ChatbotSessionCreateRequest,
    ChatbotSessionInfoResponse,
    CompletionOptions,
    RootInfo,
)
from tests.server.conftest import GREETING_NODE, Live


def test_root_and_v1_root(client: Client) -> None:
    root = client.root()
    assert isinstance(root, RootInfo)
    assert root.docs == "/docs"
    assert client.v1_root().version == root.version


def test_create_session_from_keywords_or_a_request(client: Client) -> None:
    created = client.create_session(scenario_name="demo", llm_choice="offline")
    assert created.session_id and created.initial_turn_count == 1
    assert created.llm_choice == "offline"
    request = ChatbotSessionCreateRequest(scenario_name="demo", bot_first=True)
    quiet = client.create_session(request, bot_first=False)
    assert quiet.initial_turn_count == 0 and quiet.initial_response == ""


def test_create_session_rejects_unknown_fields_before_sending(client: Client) -> None:
    with pytest.raises(TypeError, match="bot_frist"):
        client.create_session(scenario_name="demo", bot_frist=True)  # type: ignore[call-arg]


def test_session_from_graph_or_scenario(client: Client, graph: dict[str, Any]) -> None:
    reply = client.create_session_from_graph(graph, bot_first=False)
    assert isinstance(reply, Reply)
    assert reply.session_id and reply.turn_count == 0
    again = client.create_session_from_graph(Scenario.from_dict(graph))
    assert again.turn_count == 1


def test_validate(client: Client, graph: dict[str, Any]) -> None:
    assert client.validate(graph).status == "success"
    graph["graph"]["entry"] = "nowhere"
    result = client.validate(graph)
    assert result.status == "error"
    assert result.message.startswith("Scenario validation failed")


def test_message_and_session_info(client: Client, graph: dict[str, Any]) -> None:
    session_id = client.create_session_from_graph(graph).session_id
    reply = client.message(session_id, "music", 0.0, emotion="calm", user_input={"id": "u1"})
    assert reply.current_node == "chat" and reply.turn_count == 2
    assert reply.trace is None
    info = client.session_info(session_id)
    assert isinstance(info, ChatbotSessionInfoResponse)
    assert info.slots == {"topic": "music"}


def test_start_by_name_gives_a_remote_session_like_the_local_one(client: Client) -> None:
    session = client.start("demo", completion_options=CompletionOptions(include_history=True))
    assert isinstance(session, RemoteSession)
    assert session.initial_reply.session_id == session.id
    assert session.initial_reply.current_node == GREETING_NODE
    assert session.initial_reply.turn_count == 1
    assert session.send("music").turn_count == 2
    done = session.send("finish")
    assert done.session_complete and done.final_data is not None
    assert done.final_data.conversation_history is not None
    assert session.info().session_complete is True


def test_start_from_a_graph(client: Client, graph: dict[str, Any]) -> None:
    session = client.start(graph, bot_first=False, user={"name": "Ada"})
    assert session.initial_reply.turn_count == 0
    assert session.info().context["session_user"]["name"] == "Ada"


def test_server_errors_map_to_dialogkit_errors(client: Client) -> None:
    with pytest.raises(BadRequest) as bad:
        client.start("no-such-scenario")
    assert bad.value.status_code == 400
    assert "no-such-scenario" in str(bad.value)
    with pytest.raises(BadRequest, match="scenario_graph is required"):
        client.create_session_from_graph({})
    with pytest.raises(SessionNotFound) as missing:
        client.message("no-such-session", "hi")
    assert missing.value.status_code == 404
    assert missing.value.body == {"detail": "Session not found"}
    with pytest.raises(SessionNotFound):
        client.session_info("no-such-session")
    with pytest.raises(SessionNotFound):
        client.session_info("")


def test_base_url_may_carry_the_proxy_prefix(dm_server: Live) -> None:
    with Client(f"{dm_server.base_url}/dm/") as client:
        assert client.root().api == "/dm"
        session = client.start("demo")
        assert session.send("music").turn_count == 2
        assert session.info().turn_count == 2


# ---------------------------------------------------------------------------- mapping


def scripted(status: int, body: Any) -> Client:
    """A client whose every request is answered with ``status`` and ``body``."""

    def answer(request: httpx.Request) -> httpx.Response:
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    return Client("http://service.test", transport=httpx.MockTransport(answer))


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, BadRequest),
        (422, ValidationFailed),
        (404, APIError),
        (405, APIError),
        (418, APIError),
        (500, ServerError),
        (503, ServerError),
    ],
)
def test_status_mapping_outside_session_routes(status: int, error: type[APIError]) -> None:
    with scripted(status, {"detail": "nope"}) as client, pytest.raises(error) as raised:
        client.root()
    assert type(raised.value) is error
    assert raised.value.status_code == status
    assert raised.value.body == {"detail": "nope"}
    assert "nope" in str(raised.value)


@pytest.mark.parametrize(
    ("status", "body"), [(404, {"detail": "Session not found"}), (500, "Internal Server Error")]
)
def test_reference_service_unknown_session_on_message(status: int, body: Any) -> None:
    """The reference service answers an unknown session on /v1/message with a 500."""
    with scripted(status, body) as client, pytest.raises(SessionNotFound) as raised:
        client.message("gone", "hi")
    assert raised.value.status_code == status
    assert raised.value.body == body


def test_500_on_session_info_is_a_server_error() -> None:
    with scripted(500, "boom") as client, pytest.raises(ServerError):
        client.session_info("abc")


def test_unexpected_success_body_is_an_api_error() -> None:
    with scripted(200, "<html>proxy page</html>") as client, pytest.raises(APIError) as raised:
        client.v1_root()
    assert raised.value.status_code == 200


def test_requests_carry_the_wire_body_and_the_prefixed_url() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"session_id": "s1", "turn_count": 4})

    transport = httpx.MockTransport(answer)
    with Client("http://service.test/dm", transport=transport) as client:
        client.message("s1", "hello", 0.25, duration=1.5)
    [request] = seen
    assert request.url == "http://service.test/dm/v1/message"
    body = json.loads(request.content)
    assert body["session_id"] == "s1"
    assert body["message_input"]["text"] == "hello"
    assert body["message_input"]["confidence"] == 0.25
    assert body["message_input"]["duration"] == 1.5


def test_a_refused_connection_names_the_url_and_what_to_check() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with Client(url, timeout=2) as client, pytest.raises(ConnectionFailed) as raised:
        client.root()
    assert raised.value.url == f"{url}/"
    assert f"Could not connect to {url}/" in str(raised.value)
    assert "dialogkit serve" in str(raised.value)
    assert isinstance(raised.value.__cause__, httpx.ConnectError)


def test_a_given_http_client_is_left_open(server: Live) -> None:
    with httpx.Client() as http:
        with Client(server.base_url, http_client=http) as client:
            client.root()
        assert not http.is_closed
    with pytest.raises(ValueError, match="not both"):
        Client(server.base_url, http_client=http, transport=httpx.HTTPTransport())


def test_an_owned_http_client_is_closed(server: Live) -> None:
    client = Client(server.base_url)
    client.close()
    with pytest.raises(RuntimeError):
        client.root()


@pytest.mark.parametrize("bot_first", ["maybe", 3.5])
def test_a_wrong_option_is_a_dialogkit_error_naming_the_field(
    client: Client, bot_first: Any
) -> None:
    with pytest.raises(InvalidOption, match=r"bot_first: Input should be a valid boolean") as exc:
        client.start("demo", bot_first=bot_first)
    assert isinstance(exc.value, DialogkitError) and exc.value.fields == ["bot_first"]
    with pytest.raises(InvalidOption, match=r"user\.timezone") as exc:
        client.start("demo", user={"timezone": 9})
    session = client.start("demo")
    with pytest.raises(InvalidOption, match=r"confidence: Input should be a valid number"):
        session.send("hi", confidence="high")  # type: ignore[arg-type]


@pytest.mark.parametrize("base_url", ["localhost:8000", "127.0.0.1:8000/dm", "", "http://"])
def test_a_base_url_without_its_scheme_gets_advice_about_the_url(base_url: str) -> None:
    with pytest.raises(InvalidOption, match=r"must be an address starting with http://") as exc:
        Client(base_url)
    assert exc.value.fields == ["base_url"]
    with pytest.raises(InvalidOption, match=r"such as http://127\.0\.0\.1:8000"):
        AsyncClient(base_url)


def test_the_local_engine_names_a_wrong_option_too(graph: dict[str, Any]) -> None:
    with Engine() as engine, pytest.raises(InvalidOption, match=r"^Invalid option bot_first"):
        engine.start(graph, bot_first="maybe")  # type: ignore[arg-type]


def test_an_idempotency_key_makes_a_retry_answer_the_saved_reply(client: Client) -> None:
    session = client.start("demo")
    first = client.message(session.id, "tea", idempotency_key="turn-2")
    again = client.message(session.id, "tea", idempotency_key="turn-2")
    assert again == first
    assert session.info().turn_count == first.turn_count == 2
    with pytest.raises(IdempotencyKeyReused) as reused:
        client.message(session.id, "coffee", idempotency_key="turn-2")
    assert reused.value.key == "turn-2"
    assert isinstance(reused.value.__cause__, ValidationFailed)
    assert session.info().turn_count == 2
    with pytest.raises(ValidationFailed):  # a key the service refuses is the request's fault
        client.message(session.id, "tea", idempotency_key="k" * 256)


async def test_the_async_client_sends_the_idempotency_key_too(server: Live) -> None:
    async with AsyncClient(server.base_url, timeout=10) as client:
        session = await client.start("demo")
        first = await client.message(session.id, "tea", idempotency_key="a")
        assert await client.message(session.id, "tea", idempotency_key="a") == first
        assert (await session.ainfo()).turn_count == 2
