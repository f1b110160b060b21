"""Worker processes: which stores can be shared by several, and the guard for the one that can't.

The memory store lives in one process. Behind several workers, each would keep its own
sessions, and a client whose next request lands on another worker would see "session not
found" at random. So a service on the memory store refuses to start as one of several workers,
with a message that says what to do, instead of failing later and intermittently.

Under ``dialogkit serve --workers N`` the main process also supervises its workers: Sanic's
manager restarts a worker on request but never replaces one that died (a ``kill -9``, the
kernel's out-of-memory killer), so a watchdog thread in the main process notices a dead
server worker within ``WATCH_INTERVAL_S``, logs it and asks the manager to start a new one.
``GET /v1/ready`` of every worker answers 503 (check ``workers``) until all N serve again.

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
import threading
import time
from pathlib import Path
from typing import Any, NoReturn

from sanic import Sanic
from sanic.worker.constants import ProcessState
from sanic.worker.manager import WorkerManager

from dialogkit.engine.engine import Engine
from dialogkit.errors import ConfigurationError
from dialogkit.settings import Settings
from dialogkit.store._memory import MemoryStore
from dialogkit.wire import ReadinessCheck, ReadinessResponse

logger = logging.getLogger("dialogkit.server")

MEMORY_STORE_NOT_SHARED = (
    "The memory store cannot be shared by several worker processes: each would keep its own "
    "sessions. Run one worker, or set DIALOGKIT_REDIS_URL to share sessions through Redis."
)


def check_workers(workers: int, settings: Settings) -> None:
    """Refuse several workers on the memory store (``ConfigurationError``)."""
    if workers > 1 and not settings.redis_url:
        raise ConfigurationError(MEMORY_STORE_NOT_SHARED)


WATCH_INTERVAL_S = 0.5
"""How often the main process looks for dead workers."""

_SETTLED = frozenset({ProcessState.RESTARTING, ProcessState.TERMINATED, ProcessState.COMPLETED})
"""States of a worker the watchdog leaves alone: being restarted, or stopped on purpose."""


def supervise(app: Sanic[Any, Any]) -> None:
    """Replace dead workers of the app's manager (call in the main process, before serving)."""

    async def start_watchdog(app: Sanic[Any, Any]) -> None:
        watchdog = threading.Thread(
            target=_watch, args=(app.manager,), name="dialogkit-worker-watchdog", daemon=True
        )
        watchdog.start()

    app.main_process_ready(start_watchdog)


def _watch(manager: WorkerManager) -> None:
    """Forever: ask the manager to restart each server worker found dead, once per death.

    The restart goes through the manager's own monitor channel, so the manager's thread does
    it between its other work, exactly as for a restart a worker requests itself.
    """
    reported: set[int] = set()
    while True:
        time.sleep(WATCH_INTERVAL_S)
        for process in list(manager.transient_processes):
            if process.state in _SETTLED or process.is_alive() or process.pid in reported:
                continue
            if not process.worker_state.get(process.name, {}).get("server"):
                continue
            reported.add(process.pid)
            logger.error(
                "worker %s (pid %s) died with exit code %s: starting a replacement",
                process.name,
                process.pid,
                process.exitcode,
            )
            manager.monitor_publisher.send(process.name)


def worker_check(app: Sanic[Any, Any]) -> ReadinessCheck | None:
    """Whether every server worker of this service is serving; None without a manager (a
    single process, or an ASGI server)."""
    multiplexer = getattr(app, "multiplexer", None)
    states: dict[str, Any] = multiplexer.workers if multiplexer is not None else {}
    servers = {name: state for name, state in states.items() if state.get("server")}
    if not servers:
        return None
    down = sorted(
        f"{name} {state.get('state', 'unknown')}"
        for name, state in servers.items()
        if state.get("state") != ProcessState.ACKED.name
    )
    if down:
        return ReadinessCheck(ready=False, detail="not serving: " + ", ".join(down))
    return ReadinessCheck(ready=True, detail=f"{len(servers)} workers serving")


def with_worker_check(report: ReadinessResponse, app: Sanic[Any, Any]) -> ReadinessResponse:
    """``report`` with the ``workers`` check added, when the service has several workers."""
    check = worker_check(app)
    if check is None:
        return report
    failing = [*report.not_ready, *([] if check.ready else ["workers"])]
    return ReadinessResponse(
        ready=not failing, not_ready=failing, checks={**report.checks, "workers": check}
    )


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
