"""Worker processes: which stores can be shared by several, and the guard for the one that can't.

The memory store lives in one process. Behind several workers, each would keep its own
sessions, and a client whose next request lands on another worker would see "session not
found" at random. So a service on the memory store refuses to start as one of several workers,
with a message that says what to do, instead of failing later and intermittently.

Sanic's own server is told the worker count (``dialogkit serve --workers``) and refuses before
it starts anything. An ASGI server (``uvicorn --workers``, ``hypercorn --workers``) does not tell
the application; its workers are child processes of one supervisor, so each worker on the
memory store claims a name derived from that supervisor: the first one holds it, any sibling
fails its start-up.
"""

from __future__ import annotations

import fcntl
import logging
import multiprocessing
import os
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any, NoReturn

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


def claim_single_worker() -> socket.socket | int | None:
    """Hold this supervisor's memory-store claim for the life of the process.

    A process that is not a child (a single-process server, ``dialogkit serve``) claims
    nothing. On Linux the claim is a socket bound in the abstract namespace, which the kernel
    frees with the process and which leaves no file behind; elsewhere, an exclusive lock on a
    file in the temporary folder. Returns what keeps the claim.
    """
    if multiprocessing.parent_process() is None:
        return None
    name = f"dialogkit-memory-store-{os.getppid()}"
    if sys.platform.startswith("linux"):
        claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            claim.bind(f"\0{name}")
        except OSError:
            claim.close()
            _refuse()
        return claim
    descriptor = os.open(Path(tempfile.gettempdir()) / f"{name}.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        _refuse()
    return descriptor


def _refuse() -> NoReturn:
    logger.error(MEMORY_STORE_NOT_SHARED)
    raise ConfigurationError(MEMORY_STORE_NOT_SHARED) from None
