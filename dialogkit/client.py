"""Typed clients of a deployed dialogkit service (or the reference service it reimplements).

``Client`` (sync) and ``AsyncClient`` share every piece of logic that does no I/O in
``_BaseClient``: building requests from wire models, decoding responses, mapping error
statuses to ``dialogkit.errors``. They add only sending and closing, as httpx's own clients do.

``start()`` returns a session handle shaped like the local ``Session``, so a notebook or an
evaluation loop runs unchanged against an in-process engine or a remote service::

    with Client("http://127.0.0.1:8000") as client:
        session = client.start("card_issuance")
        print(session.initial_reply.response)
        print(session.send("I need a new card").response)

Errors (``dialogkit.errors``), each naming the URL and what to check: 400 -> ``BadRequest``,
422 -> ``ValidationFailed`` (``IdempotencyKeyReused`` when it refuses a key sent before with
another message), 429 (a busy session; nothing was applied) -> ``SessionBusy`` with
``retry_after_s`` from ``Retry-After``, a contract 404 (JSON ``detail``) on a session route ->
``SessionNotFound``, and so is a 500 on ``/v1/message`` (how the reference service answers an
unknown session) unless that 500 is an HTML page, which only a proxy or a broken deployment
sends; other 5xx (a proxy's 502/504 page included) -> ``ServerError``; a 404 that is not the
service's (a missing path prefix such as ``/dm``) and other statuses -> ``APIError``. A refused,
unresolved or reset connection -> ``ConnectionFailed``, no answer in time -> ``RequestTimeout``
(both ``TransportError``, with the httpx exception as ``__cause__``).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Generic, TypedDict, TypeVar, Unpack
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from dialogkit._lifecycle import AsyncClosingMixin, ClosingMixin
from dialogkit.engine.options import StartOptions
from dialogkit.engine.session import Reply
from dialogkit.errors import (
    APIError,
    BadRequest,
    ConnectionFailed,
    IdempotencyKeyReused,
    InvalidOption,
    RequestTimeout,
    ServerError,
    SessionBusy,
    SessionNotFound,
    TransportError,
    ValidationFailed,
    checked_options,
)
from dialogkit.scenario.scenario import Scenario
from dialogkit.wire import (
    ChatbotRequest,
    ChatbotSessionCreateRequest,
    ChatbotSessionCreateResponse,
    ChatbotSessionInfoResponse,
    ChatbotValidateRequest,
    ChatbotValidateResponse,
    MessageInput,
    RequeryContext,
    RootInfo,
    UserInput,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "AsyncClient",
    "AsyncRemoteSession",
    "Client",
    "MessageFields",
    "RemoteSession",
    "SessionFields",
    "StartOptions",
]

T = TypeVar("T")
ModelT = TypeVar("ModelT", bound=BaseModel)

DEFAULT_TIMEOUT = httpx.Timeout(130.0, connect=10.0)
"""Longer than the service's own 120 s response timeout, so the service's answer arrives."""

MESSAGE_PATH = "/v1/message"

GraphLike = Scenario | Mapping[str, Any]


class SessionFields(StartOptions, total=False):
    """Every field of ``ChatbotSessionCreateRequest``."""

    scenario_name: str
    scenario_graph: dict[str, Any]


class MessageFields(TypedDict, total=False):
    """The ``message_input`` fields the service accepts but does not use."""

    duration: float
    emotion: str
    requery_required: bool
    requery_context: RequeryContext | dict[str, Any]


@dataclass(frozen=True)
class _Call(Generic[T]):
    """One request, and how to read a successful answer."""

    method: str
    path: str
    parse: Callable[[bytes], T]
    body: dict[str, Any] | None = None
    session_id: str | None = None
    """Set on session routes, where a 404 means the session is gone."""
    idempotency_key: str | None = None
    """Sent as the ``Idempotency-Key`` header of ``/v1/message``."""

    @property
    def headers(self) -> dict[str, str] | None:
        return {"Idempotency-Key": self.idempotency_key} if self.idempotency_key else None


def _model(model: type[ModelT]) -> Callable[[bytes], ModelT]:
    return model.model_validate_json


def _opening_from_create(content: bytes) -> tuple[str, Reply]:
    """A session-create answer as (session id, initial reply); it has no final_data."""
    created = ChatbotSessionCreateResponse.model_validate_json(content)
    reply = Reply(
        session_id=created.session_id,
        response=created.initial_response,
        current_node=created.initial_current_node,
        turn_count=created.initial_turn_count,
        processing_time_ms=created.initial_processing_time_ms,
        session_complete=created.initial_session_complete,
    )
    return created.session_id, reply


def _opening_from_graph(content: bytes) -> tuple[str, Reply]:
    reply = Reply.model_validate_json(content)
    return reply.session_id, reply


def _graph(graph: GraphLike) -> dict[str, Any]:
    return graph.to_dict() if isinstance(graph, Scenario) else dict(graph)


def _create_request(
    request: ChatbotSessionCreateRequest | None, fields: Mapping[str, Any]
) -> ChatbotSessionCreateRequest:
    """``request`` with ``fields`` laid over it; unknown names are a mistake, not ignored."""
    base = request.model_dump(exclude_unset=True) if request is not None else {}
    with checked_options():
        return ChatbotSessionCreateRequest.of({**base, **fields})


def _response_body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


def _is_html(response: httpx.Response) -> bool:
    """A page meant for a browser: what proxies and misrouted deployments answer."""
    content_type: str = response.headers.get("content-type", "")
    return content_type.startswith("text/html")


def _detail(response: httpx.Response, body: Any) -> str:
    if isinstance(body, dict) and "detail" in body:
        return str(body["detail"])
    if _is_html(response):
        title = re.search(r"<title[^>]*>(.*?)</title>", str(body), re.IGNORECASE | re.DOTALL)
        page = html.unescape(title.group(1)).strip() if title else "no title"
        return f"an HTML page ({page})"
    return str(body)[:500] or "an empty body"


def _hint(response: httpx.Response, body: Any) -> str:
    """What to check, from what answered: a proxy, something that is not the service, or it."""
    status = response.status_code
    if _is_html(response) and status in (502, 503, 504):
        return (
            "a proxy or gateway answered, not the dialogkit service: check that the service "
            "behind it is running and that the proxy can reach it"
        )
    if status == 404:
        return (
            "this URL is not a dialogkit route: check the client's base URL (a deployment "
            "behind a path prefix needs it, e.g. http://host/dm)"
        )
    if status >= 500:
        return "the service failed while handling the request: check its log"
    return "check the request against docs/http-api.md"


def _reused_key(body: Any) -> bool:
    """A 422 that refuses an ``Idempotency-Key`` sent before with another message."""
    items = body.get("detail") if isinstance(body, dict) else None
    return isinstance(items, list) and any(
        isinstance(item, dict) and item.get("type") == "idempotency_key_reused" for item in items
    )


def _retry_after_s(response: httpx.Response) -> int:
    """Seconds to wait from ``Retry-After`` (a number or an HTTP date); 1 if unreadable."""
    value = response.headers.get("retry-after", "").strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 1
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0, math.ceil((when - datetime.now(UTC)).total_seconds()))


def _transport_error(method: str, url: str, exc: httpx.TransportError) -> TransportError:
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeout(
            url,
            f"No answer from {method} {url} in time ({type(exc).__name__}): the service may be "
            "busy or waiting on a model; check it, or give the client a longer timeout=.",
        )
    if isinstance(exc, httpx.ConnectError):
        return ConnectionFailed(
            url,
            f"Could not connect to {url} ({reason}): check that the dialogkit service is "
            "running (make run, or dialogkit serve) and that the host and port are right.",
        )
    return ConnectionFailed(
        url,
        f"The connection to {url} failed before an answer arrived ({type(exc).__name__}: "
        f"{reason}): check the service's log and any proxy between the client and it.",
    )


class _BaseClient:
    """Requests and responses of every endpoint; subclasses only send and close."""

    def __init__(self, base_url: str, *, http_client: object, transport: object) -> None:
        """Both clients take a caller's ``http_client`` or a ``transport`` for their own one.

        Giving both is a mistake (the transport would be ignored), so it is refused here once.
        """
        # A prefix such as "/dm" is part of base_url; every path is appended to it.
        if not re.match(r"https?://[^/\s]", base_url):
            raise InvalidOption(
                ["base_url"],
                f"base_url {base_url!r} must be an address starting with http:// or https://, "
                "such as http://127.0.0.1:8000 (with the path prefix of a service behind one, "
                "such as http://host/dm).",
            )
        self.base_url = base_url.rstrip("/")
        if http_client is not None and transport is not None:
            raise ValueError("Give either http_client or transport, not both.")
        self._owns_http = http_client is None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r})"

    def _url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    # ------------------------------------------------------------------ requests

    @staticmethod
    def _root_call() -> _Call[RootInfo]:
        return _Call("GET", "/", _model(RootInfo))

    @staticmethod
    def _v1_root_call() -> _Call[RootInfo]:
        return _Call("GET", "/v1/", _model(RootInfo))

    @staticmethod
    def _create_session_call(
        request: ChatbotSessionCreateRequest | None, fields: Mapping[str, Any]
    ) -> _Call[ChatbotSessionCreateResponse]:
        body = _create_request(request, fields).to_json()
        return _Call("POST", "/v1/session", _model(ChatbotSessionCreateResponse), body)

    @staticmethod
    def _from_graph_call(graph: GraphLike, fields: Mapping[str, Any]) -> _Call[Reply]:
        body = _create_request(None, {**fields, "scenario_graph": _graph(graph)}).to_json()
        return _Call("POST", "/v1/session/json", _model(Reply), body)

    @staticmethod
    def _validate_call(graph: GraphLike) -> _Call[ChatbotValidateResponse]:
        body = ChatbotValidateRequest(scenario_graph=_graph(graph)).to_json()
        return _Call("POST", "/v1/session/validate", _model(ChatbotValidateResponse), body)

    @staticmethod
    def _message_call(
        session_id: str,
        text: str,
        confidence: float,
        user_input: UserInput | Mapping[str, Any] | None,
        fields: Mapping[str, Any],
        idempotency_key: str | None = None,
    ) -> _Call[Reply]:
        with checked_options():
            message_input = MessageInput.model_validate(
                {**fields, "text": text, "confidence": confidence}
            )
        with checked_options("user_input"):
            user = UserInput.model_validate(user_input or {})
        with checked_options():
            request = ChatbotRequest(
                session_id=session_id, user_input=user, message_input=message_input
            )
        return _Call(
            "POST", MESSAGE_PATH, _model(Reply), request.to_json(), session_id, idempotency_key
        )

    @staticmethod
    def _info_call(session_id: str) -> _Call[ChatbotSessionInfoResponse]:
        if not session_id:
            # No request can name it: "/v1/session/" is the create route.
            raise SessionNotFound(session_id)
        path = f"/v1/session/{quote(session_id, safe='')}"
        return _Call("GET", path, _model(ChatbotSessionInfoResponse), session_id=session_id)

    @staticmethod
    def _start_call(
        scenario: GraphLike | str, options: Mapping[str, Any]
    ) -> _Call[tuple[str, Reply]]:
        """By name: ``/v1/session``; a graph or ``Scenario``: ``/v1/session/json``."""
        if isinstance(scenario, str):
            body = _create_request(None, {**options, "scenario_name": scenario}).to_json()
            return _Call("POST", "/v1/session", _opening_from_create, body)
        call = _BaseClient._from_graph_call(scenario, options)
        return _Call(call.method, call.path, _opening_from_graph, call.body)

    # ------------------------------------------------------------------ responses

    def _decode(self, call: _Call[T], response: httpx.Response) -> T:
        status = response.status_code
        url = self._url(call.path)
        if response.is_success:
            try:
                return call.parse(response.content)
            except ValidationError as exc:
                raise APIError(
                    status,
                    _response_body(response),
                    f"{call.method} {url} answered a body that is not the contract's "
                    f"(is this a dialogkit service?): {exc}",
                ) from exc
        body = _response_body(response)
        message = (
            f"HTTP {status} from {call.method} {url}: {_detail(response, body)}; "
            f"{_hint(response, body)}."
        )
        contract_404 = status == 404 and isinstance(body, dict) and "detail" in body
        unknown_on_message = status == 500 and call.path == MESSAGE_PATH and not _is_html(response)
        if call.session_id is not None and (contract_404 or unknown_on_message):
            raise SessionNotFound(call.session_id, status_code=status, body=body)
        if status == 429:
            raise SessionBusy(
                None,
                _retry_after_s(response),
                message=(
                    f"HTTP 429 from {call.method} {url}: {_detail(response, body)}; nothing "
                    "was applied: send the same request again after the Retry-After seconds."
                ),
                status_code=status,
                body=body,
            )
        if status == 400:
            raise BadRequest(status, body, message)
        if status == 422:
            if call.idempotency_key and _reused_key(body):
                raise IdempotencyKeyReused(call.idempotency_key) from ValidationFailed(
                    status, body, message
                )
            raise ValidationFailed(status, body, message)
        if status >= 500:
            raise ServerError(status, body, message)
        raise APIError(status, body, message)


class Client(ClosingMixin, _BaseClient):
    """A blocking client; ``http_client`` (owned by the caller) or ``transport`` may be given.

    ``timeout`` applies to the httpx client created here; a given ``http_client`` keeps its own.
    """

    def __init__(
        self,
        base_url: str,
        *,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: httpx.Timeout | float | None = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__(base_url, http_client=http_client, transport=transport)
        self._http = http_client or httpx.Client(transport=transport, timeout=timeout)

    def _send(self, call: _Call[T]) -> T:
        url = self._url(call.path)
        try:
            response = self._http.request(call.method, url, json=call.body, headers=call.headers)
        except httpx.TransportError as exc:
            raise _transport_error(call.method, url, exc) from exc
        return self._decode(call, response)

    def root(self) -> RootInfo:
        return self._send(self._root_call())

    def v1_root(self) -> RootInfo:
        return self._send(self._v1_root_call())

    def create_session(
        self, request: ChatbotSessionCreateRequest | None = None, /, **fields: Unpack[SessionFields]
    ) -> ChatbotSessionCreateResponse:
        """``POST /v1/session`` with ``request`` and/or the request's fields as keywords."""
        return self._send(self._create_session_call(request, fields))

    def create_session_from_graph(
        self, graph: GraphLike, /, **options: Unpack[StartOptions]
    ) -> Reply:
        """``POST /v1/session/json``: the session's initial reply (its id in ``session_id``)."""
        return self._send(self._from_graph_call(graph, options))

    def validate(self, graph: GraphLike) -> ChatbotValidateResponse:
        return self._send(self._validate_call(graph))

    def message(
        self,
        session_id: str,
        text: str = "",
        confidence: float = 0.0,
        *,
        user_input: UserInput | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        **fields: Unpack[MessageFields],
    ) -> Reply:
        """``POST /v1/message``; a ``Reply`` whose ``trace`` is None (it stays on the server).

        With ``idempotency_key`` (a new one per message, the same one for its retries) a retry
        after a timeout or a ``SessionBusy`` answers the saved reply instead of a second turn.
        """
        call = self._message_call(session_id, text, confidence, user_input, fields, idempotency_key)
        return self._send(call)

    def session_info(self, session_id: str) -> ChatbotSessionInfoResponse:
        return self._send(self._info_call(session_id))

    def start(self, scenario: GraphLike | str, **options: Unpack[StartOptions]) -> RemoteSession:
        """A session on a registered scenario (by name) or on a graph, like ``Engine.start``."""
        session_id, reply = self._send(self._start_call(scenario, options))
        return RemoteSession(self, session_id, reply)

    def close(self) -> None:
        if self._owns_http:
            self._http.close()


class AsyncClient(AsyncClosingMixin, _BaseClient):
    """The asyncio client; same methods as ``Client``, awaited."""

    def __init__(
        self,
        base_url: str,
        *,
        http_client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: httpx.Timeout | float | None = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__(base_url, http_client=http_client, transport=transport)
        self._http = http_client or httpx.AsyncClient(transport=transport, timeout=timeout)

    async def _send(self, call: _Call[T]) -> T:
        url = self._url(call.path)
        try:
            response = await self._http.request(
                call.method, url, json=call.body, headers=call.headers
            )
        except httpx.TransportError as exc:
            raise _transport_error(call.method, url, exc) from exc
        return self._decode(call, response)

    async def root(self) -> RootInfo:
        return await self._send(self._root_call())

    async def v1_root(self) -> RootInfo:
        return await self._send(self._v1_root_call())

    async def create_session(
        self, request: ChatbotSessionCreateRequest | None = None, /, **fields: Unpack[SessionFields]
    ) -> ChatbotSessionCreateResponse:
        return await self._send(self._create_session_call(request, fields))

    async def create_session_from_graph(
        self, graph: GraphLike, /, **options: Unpack[StartOptions]
    ) -> Reply:
        return await self._send(self._from_graph_call(graph, options))

    async def validate(self, graph: GraphLike) -> ChatbotValidateResponse:
        return await self._send(self._validate_call(graph))

    async def message(
        self,
        session_id: str,
        text: str = "",
        confidence: float = 0.0,
        *,
        user_input: UserInput | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        **fields: Unpack[MessageFields],
    ) -> Reply:
        call = self._message_call(session_id, text, confidence, user_input, fields, idempotency_key)
        return await self._send(call)

    async def session_info(self, session_id: str) -> ChatbotSessionInfoResponse:
        return await self._send(self._info_call(session_id))

    async def start(
        self, scenario: GraphLike | str, **options: Unpack[StartOptions]
    ) -> AsyncRemoteSession:
        session_id, reply = await self._send(self._start_call(scenario, options))
        return AsyncRemoteSession(self, session_id, reply)

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()


class _RemoteSessionBase:
    def __init__(self, session_id: str, initial_reply: Reply) -> None:
        self.id = session_id
        self.initial_reply = initial_reply

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r})"


class RemoteSession(_RemoteSessionBase):
    """A session on a remote service, from ``Client.start``: ``send`` and ``info`` block."""

    def __init__(self, client: Client, session_id: str, initial_reply: Reply) -> None:
        super().__init__(session_id, initial_reply)
        self._client = client

    def send(self, text: str, confidence: float = 0.0) -> Reply:
        return self._client.message(self.id, text, confidence)

    def info(self) -> ChatbotSessionInfoResponse:
        return self._client.session_info(self.id)


class AsyncRemoteSession(_RemoteSessionBase):
    """A session on a remote service, from ``AsyncClient.start``: ``asend`` and ``ainfo``.

    There is no blocking ``send``: an ``httpx.AsyncClient`` belongs to the loop it runs on, so
    a sync bridge would need a second client. Use ``Client`` for blocking code.
    """

    def __init__(self, client: AsyncClient, session_id: str, initial_reply: Reply) -> None:
        super().__init__(session_id, initial_reply)
        self._client = client

    async def asend(self, text: str, confidence: float = 0.0) -> Reply:
        return await self._client.message(self.id, text, confidence)

    async def ainfo(self) -> ChatbotSessionInfoResponse:
        return await self._client.session_info(self.id)

    if not TYPE_CHECKING:  # for type checkers the blocking names simply do not exist

        def __getattr__(self, name: str) -> Any:
            if name in ("send", "info"):
                raise AttributeError(
                    f"AsyncRemoteSession has no blocking {name}(): use `await "
                    f"session.a{name}(...)`, or a sync dialogkit.Client, whose sessions have "
                    f"{name}()."
                )
            raise AttributeError(f"'AsyncRemoteSession' object has no attribute {name!r}")
