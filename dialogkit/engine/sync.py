"""Running the async core from sync code, in a script or inside Jupyter's running loop.

Every sync call of an engine runs on one private event loop in a daemon thread. That works
the same whether or not the calling thread already runs a loop (a notebook cell), needs no
``nest_asyncio``, and keeps long-lived resources (HTTP connection pools, locks) on a single
loop across calls.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from dialogkit.errors import DialogkitError

T = TypeVar("T")


class Portal:
    """A private event loop in a background thread, started on first use."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._guard:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="dialogkit-portal", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` to completion on the portal loop and return its result."""
        loop = self._ensure()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            coroutine.close()
            raise DialogkitError(
                "A sync dialogkit method was called from async code running on dialogkit's "
                "own loop; use the async method (asend, ainfo, astart) instead."
            )
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    def close(self) -> None:
        """Stop the loop and its thread (a later call starts a new one)."""
        with self._guard:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        asyncio.run_coroutine_threadsafe(loop.shutdown_asyncgens(), loop).result(timeout=5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        loop.close()
