"""Sanic's HTTP/1.1 protocol, with its request clock started by a request's first byte.

Sanic restarts the clock of its request and response timeouts on every chunk it receives, so
a client that sends a request one header line every few seconds (slowloris) holds its
connection, and its place among the server's connections, for as long as it likes: 300 such
clients were all still connected 70 s into a 30 s ``REQUEST_TIMEOUT``. Sanic has no separate
header timeout; its documented hook for this is a custom protocol class (``protocol=`` of
``app.run`` / ``app.prepare``), which ``dialogkit serve`` passes.

With this protocol, bytes received while a request is being read no longer restart the clock:
the head must arrive within ``REQUEST_TIMEOUT`` of its first byte (else 408 and the connection
is closed), and the body and the answer within ``RESPONSE_TIMEOUT`` of it. Timeouts are
checked every half of the shortest one, so a connection is closed at most that much later.
Between requests (keep-alive) nothing changes.
"""

from __future__ import annotations

from sanic.http import Stage
from sanic.server.protocols.http_protocol import HttpProtocol

_READING = (Stage.REQUEST, Stage.HANDLER)
"""Stages in which the client is sending a request (the handler stage reads the body)."""


class RequestClockProtocol(HttpProtocol):
    """``HttpProtocol`` whose timeout clock is not restarted by bytes of a request under way."""

    __slots__ = ()

    def data_received(self, data: bytes) -> None:
        started: float = self._time
        super().data_received(data)
        http = self.http
        if http is not None and http.stage in _READING:
            self._time = started


__all__ = ["RequestClockProtocol"]
