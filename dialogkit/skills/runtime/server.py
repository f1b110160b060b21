"""``RuntimeServer``: a runtime app served in the background of the current process.

Tests and ``make run`` need a runtime without a second process. The app runs on its own
event loop in a daemon thread, so it works the same whether the caller is synchronous or
already inside an event loop, and the caller's loop is never blocked by the runtime.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from typing import Any, Self

from sanic import Sanic

from dialogkit._lifecycle import AsyncStartStopMixin
from dialogkit.errors import DialogkitError
from dialogkit.skills.runtime.app import create_runtime_app

START_TIMEOUT_S = 10.0
DRAIN_TIMEOUT_S = 1.0


class RuntimeServer(AsyncStartStopMixin):
    """Serve a runtime app (default: a fresh reference app) on ``host``:``port``.

    ``port=0`` picks a free port; read ``base_url`` after ``start()``. An app can be
    served once: Sanic finalizes its routes at start-up.
    """

    def __init__(
        self, app: Sanic[Any, Any] | None = None, *, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self._app = app or create_runtime_app()
        self._host = host
        self._port = port
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._address: tuple[str, int] | None = None

    @property
    def app(self) -> Sanic[Any, Any]:
        return self._app

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` of the running server."""
        if self._address is None:
            raise DialogkitError("The skill runtime server is not running; call start().")
        host, port = self._address
        return f"http://{host}:{port}"

    def start(self) -> Self:
        """Start serving; returns once the server accepts connections."""
        if self._thread is not None:
            return self
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="skill-runtime", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            raise DialogkitError(f"The skill runtime did not start within {START_TIMEOUT_S} s.")
        if self._error is not None:
            self._thread.join()
            self._thread = None
            raise DialogkitError(
                f"The skill runtime failed to start: {self._error}"
            ) from self._error
        return self

    def stop(self) -> None:
        """Stop accepting, let open requests finish briefly, and join the thread."""
        if self._thread is None:
            return
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join()
        self._thread = None
        self._address = None

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except Exception as exc:  # reported to start(), which waits for it
            self._error = exc
        finally:
            self._ready.set()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            self._loop = None

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        sock = socket.create_server((self._host, self._port))
        self._app.config.MOTD = False
        # TouchUp rewrites methods of the Sanic class itself, and a second rewrite in the same
        # process fails; a background runtime shares its process, so it must not touch up.
        self._app.config.TOUCHUP = False
        # A helper server inside the caller's process is not the caller's application: Sanic's
        # advice to run "your application" in debug mode would only confuse (chat, scripts).
        os.environ.setdefault("SANIC_IGNORE_PRODUCTION_WARNING", "1")
        # Sanic's AsyncioServer is untyped. create_server() already listens; the app's
        # start-up runs before the address is published, so no request arrives earlier.
        try:
            server: Any = await self._app.create_server(
                sock=sock, access_log=False, return_asyncio_server=True
            )
            await server.startup()
            await server.before_start()
            await server.after_start()
        except BaseException:
            sock.close()
            raise
        self._address = sock.getsockname()[:2]
        self._ready.set()
        await self._stop.wait()
        await server.before_stop()
        close = server.close()
        if close is not None:
            await close
        for connection in server.connections:
            connection.close_if_idle()
        deadline = asyncio.get_running_loop().time() + DRAIN_TIMEOUT_S
        # Sanic's connection set has no "empty" notification, so polling it is the only way.
        while server.connections and asyncio.get_running_loop().time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        for connection in list(server.connections):
            connection.abort()
        await server.after_stop()
