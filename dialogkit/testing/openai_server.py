"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests of LLM-backed dialogues.

It is a real server (``http.server`` in a background thread), so it tests what really goes
over the wire with any ``openai`` version: mocking libraries that patch ``httpx`` do not see
``openai`` 3.x, which sends through ``httpx2``. It runs in its own thread, not on an event
loop, so the same server serves sync code, async tests and the engine's private loop.

Script replies in order, or answer with a handler; every request is recorded::

    with ScriptedOpenAIServer() as server:
        server.queue({"intent": "affirm", "entities": {}, "confidence": 0.9,
                      "dialogue_act": "affirm"},
                     "Great, let's continue.",
                     ErrorReply(429),
                     Delay(5.0))  # longer than the client timeout
        settings = Settings(openai_base_url=server.base_url, core_default_llm="m", ...)
        ...
        assert server.chat_requests[0].model == "m"

A reply is one of: a ``str`` (the assistant's text), a ``dict`` or ``list`` (sent as JSON
text, as structured NLU answers are), ``Completion`` (full control, ``content=None`` for an
empty answer), ``ErrorReply`` (an HTTP error with an OpenAI-style body), ``Delay`` (wait,
then reply) or ``RawBody`` (any bytes, e.g. garbage). Queued replies are used first, then
the handler; a request with neither gets HTTP 400 saying so.

``POST …/embeddings`` answers with deterministic vectors: ``embed(text)`` (default
``word_vector``, which makes texts sharing words similar) for each input, unless a reply was
queued with ``queue_embeddings`` (an ``ErrorReply``, ``Delay`` or ``RawBody``, or a list of
vectors sent as they are)::

    with ScriptedOpenAIServer(embed=lambda text: [1.0, 0.0] if "yes" in text else [0.0, 1.0]):
        ...
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.client import responses
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TypeAlias

from dialogkit.testing._loopback import LoopbackHTTPServer

__all__ = [
    "Completion",
    "Delay",
    "EmbedFunction",
    "ErrorReply",
    "Handler",
    "RawBody",
    "RecordedRequest",
    "Reply",
    "ScriptedOpenAIServer",
    "word_vector",
]


@dataclass(frozen=True)
class Completion:
    """A chat completion; token counts default to word counts of prompt and content."""

    content: str | None
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True)
class ErrorReply:
    """An HTTP error with the body OpenAI sends: ``{"error": {"message", "type", ...}}``."""

    status: int
    message: str = ""
    type: str = ""
    code: str | None = None


@dataclass(frozen=True)
class Delay:
    """Wait ``seconds`` (cut short when the server stops), then send ``then``."""

    seconds: float
    then: Reply = ""


@dataclass(frozen=True)
class RawBody:
    """A response body sent as is, for garbage and protocol-violation tests."""

    body: str | bytes
    status: int = 200
    content_type: str = "application/json"


Reply: TypeAlias = str | dict[str, Any] | list[Any] | Completion | ErrorReply | Delay | RawBody


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages = self.body.get("messages")
        return messages if isinstance(messages, list) else []

    @property
    def response_format(self) -> dict[str, Any] | None:
        value = self.body.get("response_format")
        return value if isinstance(value, dict) else None

    @property
    def api_key(self) -> str | None:
        """The bearer token of the ``Authorization`` header."""
        scheme, _, token = self.headers.get("authorization", "").partition(" ")
        return token if scheme.lower() == "bearer" else None

    @property
    def system(self) -> str:
        """The text of every system message, joined by blank lines."""
        return "\n\n".join(self.contents("system"))

    @property
    def last_user(self) -> str | None:
        """The text of the final message when it is a user message."""
        if self.messages and self.messages[-1].get("role") == "user":
            return _text(self.messages[-1].get("content"))
        return None

    def contents(self, role: str | None = None) -> list[str]:
        """The text of each message (of ``role``, if given), in order."""
        return [
            _text(message.get("content"))
            for message in self.messages
            if role is None or message.get("role") == role
        ]


Handler: TypeAlias = Callable[[RecordedRequest], Reply]
EmbedFunction: TypeAlias = Callable[[str], list[float]]

WORD_VECTOR_DIM = 64


def word_vector(text: str) -> list[float]:
    """A deterministic unit vector: each lower-cased word adds 1 to a dimension picked by its
    hash, so two texts are as similar as the words they share (cosine of word counts)."""
    vector = [0.0] * WORD_VECTOR_DIM
    for word in text.lower().split():
        digest = hashlib.sha256(word.strip("?!.,").encode()).digest()
        vector[int.from_bytes(digest[:4], "big") % WORD_VECTOR_DIM] += 1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


_ERROR_TYPES: Mapping[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
}


class ScriptedOpenAIServer(LoopbackHTTPServer):
    """An OpenAI-compatible server for tests: ``POST …/chat/completions``, ``POST
    …/embeddings``, ``GET …/models``.

    Use it as a context manager (or call ``start`` and ``stop``). Paths are matched by their
    end, so ``base_url`` works with or without the ``/v1`` prefix.
    """

    def __init__(
        self,
        *replies: Reply,
        handler: Handler | None = None,
        models: Sequence[str] = ("scripted",),
        host: str = "127.0.0.1",
        embed: EmbedFunction = word_vector,
    ) -> None:
        super().__init__(host)
        self.handler = handler
        self.embed = embed
        self._embedding_replies: deque[Reply] = deque()
        self.models = list(models)
        self._replies: deque[Reply] = deque(replies)
        self._requests: list[RecordedRequest] = []
        self._errors: list[Exception] = []
        self._lock = threading.Lock()
        self._completions = 0
        self._in_flight = 0
        self._max_in_flight = 0

    # -- lifecycle -----------------------------------------------------------------------

    def _create_server(self, address: tuple[str, int]) -> ThreadingHTTPServer:
        return _HTTPServer(address, _RequestHandler, self)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop; re-raise the first exception a handler raised, so a broken script fails."""
        self.stop()
        if exc is None and self._errors:
            raise self._errors[0]

    @property
    def base_url(self) -> str:
        """The URL to give an OpenAI client, such as ``http://127.0.0.1:PORT/v1``."""
        return f"{super().base_url}/v1"

    # -- scripting and inspection --------------------------------------------------------

    def queue(self, *replies: Reply) -> None:
        """Append replies for the next chat completion requests, in order."""
        with self._lock:
            self._replies.extend(replies)

    def queue_embeddings(self, *replies: Reply) -> None:
        """Append replies for the next embedding requests, before ``embed`` answers them."""
        with self._lock:
            self._embedding_replies.extend(replies)

    @property
    def pending(self) -> int:
        """How many queued replies are not used yet."""
        with self._lock:
            return len(self._replies)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received, in order."""
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The chat completion requests received, in order."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        """The embedding requests received, in order."""
        return [r for r in self.requests if r.path.rstrip("/").endswith("/embeddings")]

    @property
    def errors(self) -> list[Exception]:
        """Exceptions raised by the handler (each answered with HTTP 500)."""
        with self._lock:
            return list(self._errors)

    @property
    def max_in_flight(self) -> int:
        """The most chat completion requests this server was answering at the same time."""
        with self._lock:
            return self._max_in_flight

    def reset(self) -> None:
        """Forget queued replies, recorded requests, handler errors and ``max_in_flight``."""
        with self._lock:
            self._replies.clear()
            self._embedding_replies.clear()
            self._requests.clear()
            self._errors.clear()
            self._max_in_flight = 0

    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self._max_in_flight = max(self._max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    # -- serving (called on handler threads) ---------------------------------------------

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        if self.handler is None:
            return ErrorReply(
                400,
                "ScriptedOpenAIServer: no reply is scripted for this request; "
                "queue one or pass a handler.",
            )
        try:
            return self.handler(request)
        except Exception as exc:
            with self._lock:
                self._errors.append(exc)
            return ErrorReply(500, f"ScriptedOpenAIServer handler failed: {exc!r}")

    def _next_embedding_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._embedding_replies:
                return self._embedding_replies.popleft()
        inputs = request.body.get("input")
        texts = [inputs] if isinstance(inputs, str) else inputs
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return ErrorReply(400, "`input` must be a string or a list of strings.")
        try:
            return [self.embed(text) for text in texts]
        except Exception as exc:
            with self._lock:
                self._errors.append(exc)
            return ErrorReply(500, f"ScriptedOpenAIServer embed failed: {exc!r}")

    def _completion_body(self, request: RecordedRequest, reply: Completion) -> dict[str, Any]:
        with self._lock:
            self._completions += 1
            number = self._completions
        prompt_tokens = reply.prompt_tokens
        if prompt_tokens is None:
            prompt_tokens = sum(len(text.split()) for text in request.contents())
        completion_tokens = reply.completion_tokens
        if completion_tokens is None:
            completion_tokens = len((reply.content or "").split())
        return {
            "id": f"chatcmpl-scripted-{number}",
            "object": "chat.completion",
            "created": 0,
            "model": request.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content, "refusal": None},
                    "finish_reason": reply.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _models_body(self) -> dict[str, Any]:
        return {
            "object": "list",
            "data": [
                {"id": name, "object": "model", "created": 0, "owned_by": "scripted"}
                for name in self.models
            ],
        }


def _text(content: Any) -> str:
    """Message content as text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _error_body(error: ErrorReply) -> dict[str, Any]:
    default_type = "server_error" if error.status >= 500 else "api_error"
    return {
        "error": {
            "message": error.message or responses.get(error.status, "Error"),
            "type": error.type or _ERROR_TYPES.get(error.status, default_type),
            "param": None,
            "code": error.code,
        }
    }


class _HTTPServer(ThreadingHTTPServer):
    request_queue_size = 1024  # load tests open hundreds of connections at once

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[BaseHTTPRequestHandler],
        scripted: ScriptedOpenAIServer,
    ) -> None:
        self.scripted = scripted
        super().__init__(address, handler)


class _RequestHandler(BaseHTTPRequestHandler):
    # HTTP/1.0: one request per connection, so no idle keep-alive connection can hold a
    # handler thread when the server stops.
    protocol_version = "HTTP/1.0"
    server: _HTTPServer
    timeout = 10

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log lines on stderr."""

    def do_GET(self) -> None:
        scripted = self.server.scripted
        scripted._record(self._recorded({}))
        if self.path.rstrip("/").endswith("/models"):
            self._send_json(200, scripted._models_body())
        else:
            self._send_json(404, _error_body(ErrorReply(404, f"No route for GET {self.path}")))

    def do_POST(self) -> None:
        scripted = self.server.scripted
        length = int(self.headers.get("content-length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = None
        request = self._recorded(body if isinstance(body, dict) else {})
        scripted._record(request)
        if self.path.rstrip("/").endswith("/embeddings") and isinstance(body, dict):
            self._reply_embeddings(request, scripted._next_embedding_reply(request))
        elif not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, _error_body(ErrorReply(404, f"No route for POST {self.path}")))
        elif not isinstance(body, dict):
            self._send_json(400, _error_body(ErrorReply(400, "The body is not a JSON object.")))
        elif body.get("stream"):
            message = "ScriptedOpenAIServer does not stream; call without stream=True."
            self._send_json(400, _error_body(ErrorReply(400, message)))
        else:
            scripted._enter()
            self._answering = True
            try:
                self._reply(request, scripted._next_reply(request))
            finally:
                self._answered()

    def _answered(self) -> None:
        """The request stops counting as in flight once its answer is about to be written:
        counting until the write returned would overlap with the client's next request,
        which the client may send on another connection (another thread) as soon as it has
        read the answer."""
        if getattr(self, "_answering", False):
            self._answering = False
            self.server.scripted._leave()

    def _recorded(self, body: dict[str, Any]) -> RecordedRequest:
        headers = {name.lower(): value for name, value in self.headers.items()}
        return RecordedRequest(self.command, self.path, headers, body)

    def _reply(self, request: RecordedRequest, reply: Reply) -> None:
        scripted = self.server.scripted
        while isinstance(reply, Delay):
            scripted._stopping.wait(reply.seconds)
            reply = reply.then
        if isinstance(reply, ErrorReply):
            self._send_json(reply.status, _error_body(reply))
        elif isinstance(reply, RawBody):
            data = reply.body.encode() if isinstance(reply.body, str) else reply.body
            self._send(reply.status, data, reply.content_type)
        else:
            if isinstance(reply, dict | list):
                reply = Completion(json.dumps(reply, ensure_ascii=False))
            elif isinstance(reply, str):
                reply = Completion(reply)
            self._send_json(200, scripted._completion_body(request, reply))

    def _reply_embeddings(self, request: RecordedRequest, reply: Reply) -> None:
        """A list of vectors as OpenAI's embedding answer; anything else as ``_reply``."""
        while isinstance(reply, Delay):
            self.server.scripted._stopping.wait(reply.seconds)
            reply = reply.then
        if not isinstance(reply, list):
            self._reply(request, reply)
            return
        inputs = request.body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        tokens = sum(len(str(text).split()) for text in texts)
        self._send_json(
            200,
            {
                "object": "list",
                "data": [
                    {"object": "embedding", "index": index, "embedding": vector}
                    for index, vector in enumerate(reply)
                ],
                "model": request.model,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    def _send_json(self, status: int, body: Any) -> None:
        # ASCII escapes, as many servers send: a lone surrogate in a scripted reply then
        # reaches the client as ``\ud800``, exactly as a misbehaving model's would.
        self._send(status, json.dumps(body).encode(), "application/json")

    def _send(self, status: int, data: bytes, content_type: str) -> None:
        self._answered()
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass  # the client gave up (a timeout test); nobody is left to answer
