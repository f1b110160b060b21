"""``LoopbackHTTPServer``: the serving machinery the HTTP test doubles share.

Each double is a real ``http.server`` on an ephemeral port of 127.0.0.1, run in a daemon
thread, so the code under test goes through its real HTTP path from sync code, async tests
and private event loops alike. Starting, stopping and cutting delayed replies short are the
same for every double, so they live here; a double only supplies the server that routes
requests to it.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from http.server import ThreadingHTTPServer
from typing import Self

from dialogkit._lifecycle import StartStopMixin

POLL_INTERVAL_S = 0.01
"""How often the serving thread looks for a stop request: ``stop`` waits at most this long."""


class LoopbackHTTPServer(StartStopMixin):
    """Serves in a daemon thread between ``start`` and ``stop`` (or ``with``).

    ``_stopping`` is set while stopping: handlers that delay a reply wait on it, so that a
    stop never waits out a delay.
    """

    def __init__(self, host: str = "127.0.0.1") -> None:
        self._host = host
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @abstractmethod
    def _create_server(self, address: tuple[str, int]) -> ThreadingHTTPServer:
        """A server bound to ``address`` whose handlers answer for this double."""

    def start(self) -> Self:
        """Bind an ephemeral port and serve in a daemon thread."""
        if self._httpd is not None:
            return self
        self._stopping.clear()
        self._httpd = self._create_server((self._host, 0))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": POLL_INTERVAL_S},
            name=type(self).__name__,
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; delayed replies still waiting are cut short."""
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()
        self._httpd = self._thread = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError(f"{type(self).__name__} is not running; call start() first.")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` of the running server."""
        return f"http://{self._host}:{self.port}"
