"""Turns waiting for a session inside one process: first come, first served, for a while.

Both stores serialize a session's turns with one ``asyncio.Lock`` per busy session (dropped
when nobody waits), and both give up after the same wait with ``SessionBusy``. For the Redis
store this queue also keeps a worker's waiters off Redis: only the head of the queue polls the
shared lock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from dialogkit.errors import SessionBusy


class SessionQueues:
    """One waiting line per busy session; a session nobody waits for costs nothing."""

    def __init__(self, wait_s: float) -> None:
        self.wait_s = wait_s
        self._lines: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def turn(self, session_id: str, gives_up: float | None = None) -> AsyncIterator[None]:
        """Hold the session's place until the block ends; ``SessionBusy`` when the turns
        ahead take longer than ``wait_s`` (or past ``gives_up``, a ``time.monotonic()``
        instant)."""
        if gives_up is None:
            gives_up = time.monotonic() + self.wait_s
        line, waiting = self._lines.get(session_id) or (asyncio.Lock(), 0)
        self._lines[session_id] = (line, waiting + 1)
        try:
            try:
                async with asyncio.timeout(max(0.0, gives_up - time.monotonic())):
                    await line.acquire()
            except TimeoutError:
                raise SessionBusy(self.wait_s) from None
            try:
                yield
            finally:
                line.release()
        finally:
            line, waiting = self._lines[session_id]
            if waiting <= 1:
                del self._lines[session_id]
            else:
                self._lines[session_id] = (line, waiting - 1)

    def __len__(self) -> int:
        """Sessions with a turn running or waiting."""
        return len(self._lines)

    def clear(self) -> None:
        self._lines.clear()
