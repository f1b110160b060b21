"""Sanic's HTTP/1.1 protocol, with its request clock started by a request's first byte.

Sanic restarts the clock of its request and response timeouts on every chunk it receives, so
a client that sends a request one header line every few seconds (slowloris) holds its
connection, and its place among the server's connections, for as long as it likes: 300 such
clients were all still connected 70 s into a 30 s ``REQUEST_TIMEOUT``. Sanic has no separate
header timeout; its documented hook for this is a custom protocol class (``protocol=`` of
``app.run`` / ``app.prepare``), which ``dialogkit serve`` passes.

With this protocol, bytes received while a request is being read no longer restart the clock:
the head must arrive within ``REQUEST_TIMEOUT`` of its first byte (else 408 and the connection
is closed), and the body and the answer within ``RESPONSE_TIMEOUT`` of it. Sanic checks its
timeouts every half of the shortest one (15 s with ours); while a head is being read, the next
check is moved to the head's deadline, so a slow head is cut when its time is up, not up to
15 s later. Between requests (keep-alive) nothing changes.
"""

from __future__ import annotations

from time import monotonic

from sanic.http import Stage
from sanic.server.protocols.http_protocol import HttpProtocol

_MARGIN_S = 0.05
"""How long after a head's deadline its check runs (so that the deadline has passed)."""
_READING = (Stage.REQUEST, Stage.HANDLER)
"""Stages in which the client is sending a request (the handler stage reads the body)."""


class RequestClockProtocol(HttpProtocol):
    """``HttpProtocol`` whose timeout clock is not restarted by bytes of a request under way."""

    __slots__ = ()

    def check_timeouts(self) -> None:
        super().check_timeouts()  # type: ignore[no-untyped-call]  # Sanic leaves it untyped
        http, pending = self.http, self._callback_check_timeouts
        if http is None or http.stage is not Stage.REQUEST or pending is None:
            return
        interval = max(
            0.1, min(self.keep_alive_timeout, self.request_timeout, self.response_timeout) / 2
        )
        left = self._time + self.request_timeout - monotonic() + _MARGIN_S
        if 0 < left < interval:
            pending.cancel()
            self._callback_check_timeouts = self.loop.call_later(left, self.check_timeouts)

    def data_received(self, data: bytes) -> None:
        started: float = self._time
        super().data_received(data)
        http = self.http
        if http is not None and http.stage in _READING:
            self._time = started


__all__ = ["RequestClockProtocol"]
