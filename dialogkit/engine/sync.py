"""Running the async core from sync code, in a script or inside Jupyter's running loop.

Every sync call of an engine runs on one private event loop, so long-lived resources (HTTP
connection pools, locks) stay on a single loop across calls and no ``nest_asyncio`` is
needed. The loop runs only while a call runs, and in the cheapest thread that can run it:

- a thread without a running loop (a script, a test, a worker thread) runs it itself, with
  ``run_until_complete``: no thread hop, which costs more than a whole offline turn;
- a thread that already runs a loop (a notebook cell) cannot run a second one, so a helper
  thread runs it while the caller waits.

Calls from several threads take turns (the loop runs in one thread at a time). Work a call
leaves behind (a skill request that outlives an abandoned turn) resumes with the next call.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from dialogkit.errors import DialogkitError

T = TypeVar("T")


class Portal:
    """A private event loop, created on first use and run by whichever thread calls."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._helper: ThreadPoolExecutor | None = None
        self._guard = threading.Lock()
        """Creates and closes the loop and the helper thread."""
        self._turn = threading.Lock()
        """Held while the loop runs a call: one thread at a time."""

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._guard:
            if self._loop is None or self._loop.is_closed():
                self._loop = asyncio.new_event_loop()
            return self._loop

    def _helper_thread(self) -> ThreadPoolExecutor:
        with self._guard:
            if self._helper is None:
                self._helper = ThreadPoolExecutor(1, thread_name_prefix="dialogkit-portal")
            return self._helper

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
        with self._turn:
            if running is None:
                return loop.run_until_complete(coroutine)
            return self._helper_thread().submit(loop.run_until_complete, coroutine).result()

    def __del__(self) -> None:
        # An engine dropped without close(): its idle loop goes with it, quietly, as the
        # daemon thread of a loop that runs forever used to keep it.
        loop = getattr(self, "_loop", None)
        if loop is not None and not loop.is_closed() and not loop.is_running():
            loop.close()

    def close(self) -> None:
        """Finish the loop's async generators and close it (a later call starts a new one)."""
        with self._turn:
            with self._guard:
                loop, helper = self._loop, self._helper
                self._loop = self._helper = None
            if helper is not None:
                helper.shutdown(wait=True)
            if loop is None or loop.is_closed():
                return
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                loop.run_until_complete(loop.shutdown_asyncgens())
            else:
                # A thread with a running loop cannot run this one: a helper thread does.
                closer = threading.Thread(
                    target=loop.run_until_complete, args=(loop.shutdown_asyncgens(),)
                )
                closer.start()
                closer.join(timeout=5)
            loop.close()
