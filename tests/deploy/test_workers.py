"""Several workers: they share sessions through Redis, refuse to start on the memory store, and
a worker that dies is replaced (logged, and not ready meanwhile)."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dialogkit.testing.processes import free_port
from dialogkit_server.workers import MEMORY_STORE_NOT_SHARED
from tests.deploy.conftest import ServerProcess, run_to_exit, running
from tests.server.conftest import DEMO

REFUSING = [
    pytest.param(["dialogkit", "serve", "--workers", "2"], id="dialogkit-serve"),
    pytest.param(["uvicorn", "dialogkit_server.asgi:app", "--workers", "2"], id="uvicorn"),
    pytest.param(["hypercorn", "dialogkit_server.asgi:app", "--workers", "2"], id="hypercorn"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", REFUSING)
def test_several_workers_on_the_memory_store_refuse_to_start(command: list[str]) -> None:
    port = str(free_port())
    if command[0] == "hypercorn":
        command = [*command, "--bind", f"127.0.0.1:{port}"]
    else:
        command = [*command, "--host", "127.0.0.1", "--port", port]
    finished = run_to_exit(command)
    assert MEMORY_STORE_NOT_SHARED in finished.stdout + finished.stderr
    if command[0] == "dialogkit":  # uvicorn and hypercorn stop every worker but exit 0
        assert finished.returncode == 2
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/", timeout=1)


ADMIN_TOKEN = "operator-token"
"""Shows the readiness checks' details."""


@pytest.fixture
def two_workers(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """``dialogkit serve --workers 2`` on Redis."""
    port = free_port()
    command = ["dialogkit", "serve", "--workers", "2", "--host", "127.0.0.1", "--port", str(port)]
    env = {"DIALOGKIT_REDIS_URL": redis_url, "DIALOGKIT_ADMIN_TOKEN": ADMIN_TOKEN}
    with running(command, port, tmp_path, env) as live:
        yield live


@pytest.mark.timeout(120)
def test_dialogkit_serve_workers_share_sessions_through_redis(two_workers: ServerProcess) -> None:
    live = two_workers
    turns = 12
    session_id = ""
    for turn in range(turns + 1):
        # A fresh connection per request: the kernel spreads them over both workers.
        with httpx.Client(base_url=live.base_url, timeout=30) as http:
            if not session_id:
                opened = http.post("/v1/session/json", json={"scenario_graph": DEMO})
                session_id = opened.json()["session_id"]
                continue
            body = {"session_id": session_id, "message_input": {"text": f"topic {turn}"}}
            reply = http.post("/v1/message", json=body)
            assert reply.status_code == 200, reply.text
            assert reply.json()["turn_count"] == turn + 1


def started_workers(log: str) -> list[int]:
    return [int(pid) for pid in re.findall(r"Worker ready \[(\d+)\]", log)]


@pytest.mark.timeout(120)
def test_a_killed_worker_is_logged_replaced_and_readiness_says_so_meanwhile(
    two_workers: ServerProcess,
) -> None:
    live = two_workers
    ready_url = f"{live.base_url}/v1/ready"
    deadline = time.monotonic() + 30
    while len(started_workers(live.output())) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    first, _ = started_workers(live.output())
    assert httpx.get(ready_url, timeout=10).json() == {"ready": True, "not_ready": []}

    os.kill(first, signal.SIGKILL)
    killed_at = time.monotonic()
    statuses = []
    while len(started_workers(live.output())) < 3:
        assert time.monotonic() - killed_at < 20, live.output()[-2000:]
        ready = httpx.get(ready_url, timeout=10)
        statuses.append((ready.status_code, *ready.json()["not_ready"]))
        time.sleep(0.1)
    replaced_in = time.monotonic() - killed_at

    assert f"(pid {first}) died with exit code -9: starting a replacement" in live.output()
    assert (503, "workers") in statuses, statuses  # not ready while a worker was missing
    operator = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    ready = httpx.get(ready_url, headers=operator, timeout=10)
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"]["workers"]["detail"] == "2 workers serving"
    assert replaced_in < 15
    for _ in range(6):  # fresh connections land on both workers
        with httpx.Client(base_url=live.base_url, timeout=30) as http:
            opened = http.post("/v1/session/json", json={"scenario_graph": DEMO})
            assert opened.status_code == 200, opened.text
