"""Worker processes: which stores can be shared by several, and the guard for the one that can't.

The memory store lives in one process. Behind several workers, each would keep its own
sessions, and a client whose next request lands on another worker would see "session not
found" at random. So a service on the memory store refuses to start as one of several workers,
with a message that says what to do, instead of failing later and intermittently.

Sanic's own server is told the worker count (``dialogkit serve --workers``) and refuses before
it starts anything. An ASGI server (``uvicorn --workers``, ``hypercorn --workers``) does not tell
the application; its workers are child processes of one supervisor, so each worker on the
memory store claims an exclusive lock named after that supervisor: the first one holds it, any
sibling fails its start-up.
"""

from __future__ import annotations

import fcntl
import logging
import multiprocessing
import os
import tempfile
from pathlib import Path
from typing import Any

from sanic import Sanic

from dialogkit.engine.engine import Engine
from dialogkit.errors import ConfigurationError
from dialogkit.settings import Settings
from dialogkit.store.memory import MemoryStore

logger = logging.getLogger("dialogkit.server")

MEMORY_STORE_NOT_SHARED = (
    "The memory store cannot be shared by several worker processes: each would keep its own "
    "sessions. Run one worker, or set DIALOGKIT_REDIS_URL to share sessions through Redis."
)


def check_workers(workers: int, settings: Settings) -> None:
    """Refuse several workers on the memory store (``ConfigurationError``)."""
    if workers > 1 and not settings.redis_url:
        raise ConfigurationError(MEMORY_STORE_NOT_SHARED)


def guard_store(app: Sanic[Any, Any], engine: Engine) -> None:
    """On the memory store, make a sibling worker of the same supervisor fail its start-up."""
    if not isinstance(engine.store, MemoryStore):
        return

    async def claim(app: Sanic[Any, Any]) -> None:
        app.ctx.memory_store_claim = claim_single_worker()

    app.before_server_start(claim)


def claim_single_worker() -> int | None:
    """Hold this supervisor's memory-store lock for the life of the process.

    A process that is not a child (a single-process server, ``dialogkit serve``) claims
    nothing. Returns the descriptor that keeps the lock; the lock ends with the process.
    """
    if multiprocessing.parent_process() is None:
        return None
    path = Path(tempfile.gettempdir()) / f"dialogkit-memory-store-{os.getppid()}.lock"
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        logger.error(MEMORY_STORE_NOT_SHARED)
        raise ConfigurationError(MEMORY_STORE_NOT_SHARED) from None
    return descriptor
