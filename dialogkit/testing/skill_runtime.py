"""``RecordingSkillRuntime``: a scripted skill runtime on 127.0.0.1 for tests.

It is a real HTTP server (the standard library's, in a background thread), so the code under
test exercises its actual HTTP path: timeouts, refused connections, oversized and malformed
bodies included. Every request is recorded; every answer comes from a script::

    from dialogkit.testing.skill_runtime import RecordingSkillRuntime, SkillReply

    with RecordingSkillRuntime([SkillReply.success({"response": "Sunrise is at 05:11."})]) as rt:
        settings = Settings(SKILL_RUNTIME_BASE_URL=rt.base_url)
        ...                       # run a scenario whose node calls a skill
        assert rt.bodies[0]["skill_id"] == "sun_times"

Replies are used in order, one per request; after the last one, ``handler`` (when given)
answers, else ``default`` (when given), else a 500 that says the script ran out.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from dialogkit._lifecycle import AsyncStartStopMixin
from dialogkit.testing._loopback import LoopbackHTTPServer


@dataclass(frozen=True)
class SkillReply:
    """One scripted answer: status, raw body, headers, and how to send it.

    ``delay_s`` waits before answering (to provoke a client timeout); ``chunked`` sends the
    body without a ``Content-Length`` so that a client can only learn its size by reading.
    """

    body: bytes = b""
    status: int = 200
    content_type: str = "application/json"
    delay_s: float = 0.0
    chunked: bool = False

    @classmethod
    def json(cls, data: Any, *, status: int = 200, delay_s: float = 0.0) -> SkillReply:
        """Any JSON value as the body (not only objects: invalid shapes are scriptable too)."""
        return cls(json.dumps(data, ensure_ascii=False).encode(), status=status, delay_s=delay_s)

    @classmethod
    def success(
        cls, result: Any, *, metadata: Mapping[str, Any] | None = None, delay_s: float = 0.0
    ) -> SkillReply:
        """A contract-shaped success: ``{"success": true, "result": ..., "metadata": ...}``."""
        body = {"success": True, "result": result, "metadata": dict(metadata or {})}
        return cls.json(body, delay_s=delay_s)

    @classmethod
    def failure(cls, code: str = "FAILED", message: str = "", *, status: int = 200) -> SkillReply:
        """``{"success": false, "error": {"code": ..., "message": ...}}``."""
        return cls.json(
            {"success": False, "error": {"code": code, "message": message}}, status=status
        )

    @classmethod
    def raw(
        cls,
        body: bytes | str,
        *,
        status: int = 200,
        content_type: str = "text/plain",
        chunked: bool = False,
    ) -> SkillReply:
        """Bytes sent as they are, for bodies that are not JSON at all."""
        data = body.encode() if isinstance(body, str) else body
        return cls(data, status=status, content_type=content_type, chunked=chunked)

    @classmethod
    def oversized(cls, size: int, *, chunked: bool = False) -> SkillReply:
        """A valid success body of at least ``size`` bytes."""
        return cls.success({"response": "x" * size}).with_chunked(chunked)

    def with_chunked(self, chunked: bool = True) -> SkillReply:
        """The same reply, sent with or without a ``Content-Length``."""
        return dataclasses.replace(self, chunked=chunked)


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes = field(repr=False)

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)


Handler = Callable[[RecordedRequest], SkillReply | Mapping[str, Any]]


class RecordingSkillRuntime(AsyncStartStopMixin, LoopbackHTTPServer):
    """A skill runtime that records requests and answers from a script.

    ``replies`` are consumed in order; ``add`` appends more. ``handler`` answers once the
    script is used up (a mapping it returns is sent as a 200 JSON body). Use it as a context
    manager (``with`` or ``async with``); ``base_url`` is valid while it runs.
    """

    def __init__(
        self,
        replies: Iterable[SkillReply | Mapping[str, Any]] = (),
        *,
        handler: Handler | None = None,
        default: SkillReply | Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self._replies: deque[SkillReply] = deque(_as_reply(reply) for reply in replies)
        self._handler = handler
        self._default = None if default is None else _as_reply(default)
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order."""
        with self._lock:
            return list(self._requests)

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies of every request received so far."""
        return [request.json() for request in self.requests]

    def add(self, *replies: SkillReply | Mapping[str, Any]) -> None:
        """Append scripted replies."""
        with self._lock:
            self._replies.extend(_as_reply(reply) for reply in replies)

    def _create_server(self, address: tuple[str, int]) -> ThreadingHTTPServer:
        return ThreadingHTTPServer(address, _handler_class(self))

    def _answer(self, request: RecordedRequest) -> SkillReply:
        with self._lock:
            self._requests.append(request)
            scripted = self._replies.popleft() if self._replies else None
        if scripted is not None:
            return scripted
        if self._handler is not None:
            return _as_reply(self._handler(request))
        if self._default is not None:
            return self._default
        return SkillReply.failure(
            "SCRIPT_EXHAUSTED", "RecordingSkillRuntime has no scripted reply left", status=500
        )


def _as_reply(reply: SkillReply | Mapping[str, Any]) -> SkillReply:
    return reply if isinstance(reply, SkillReply) else SkillReply.json(dict(reply))


def _handler_class(runtime: RecordingSkillRuntime) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out separately: no 40 ms stall

        def do_GET(self) -> None:
            self._respond()

        def do_POST(self) -> None:
            self._respond()

        def _respond(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = RecordedRequest(
                method=self.command,
                path=self.path,
                headers={key.lower(): value for key, value in self.headers.items()},
                body=self.rfile.read(length),
            )
            reply = runtime._answer(request)
            if reply.delay_s and runtime._stopping.wait(reply.delay_s):
                self.close_connection = True
                return
            # One request per connection keeps shutdown simple: no idle keep-alive threads.
            self.close_connection = True
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Connection", "close")
                if reply.chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for start in range(0, len(reply.body), 16384):
                        piece = reply.body[start : start + 16384]
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.write(b"0\r\n\r\n")
                else:
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
            except OSError:
                pass  # the client gave up (a timeout or a size limit): nothing left to tell it

        def log_message(self, format: str, *args: Any) -> None:
            """Silent: tests read ``requests`` instead of a log."""

    return _Handler
