"""The container recipe runs as written: the Dockerfile's command with the compose environment.

No container engine runs here, so the test runs what the containers would run, on loopback:
``redis-server`` with the compose file's arguments, and the Dockerfile's ``CMD`` with the
compose service's environment (two workers, Redis, the ``/dm`` root path). Only addresses
change: the host, the ports and the Redis URL.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from dialogkit.testing.processes import free_port
from tests.deploy.conftest import ROOT, running
from tests.server.conftest import DEMO

DOCKERFILE = ROOT / "deploy" / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"
CONCURRENT = 40


def dockerfile_command() -> list[str]:
    match = re.search(r"^CMD (\[.*\])$", DOCKERFILE.read_text(), re.MULTILINE)
    assert match, "the Dockerfile has an exec-form CMD"
    command: list[str] = json.loads(match.group(1))
    return command


def compose_services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return services


def on_loopback(command: list[str], port: int) -> list[str]:
    """The same command bound to 127.0.0.1:port instead of the container's 0.0.0.0:8000."""
    replaced = list(command)
    for flag, value in (("--host", "127.0.0.1"), ("--port", str(port))):
        replaced[replaced.index(flag) + 1] = value
    return replaced


@pytest.fixture
def compose_redis(tmp_path: Path) -> Iterator[str]:
    """redis-server started with the compose file's own arguments (append-only file on)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (`make test` installs it)")
    command = compose_services()["redis"]["command"]
    assert command[0] == "redis-server"
    port = free_port()
    args = [binary, *command[1:], "--bind", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [*args, "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while (
            subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True
            ).stdout.strip()
            != "PONG"
        ):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def worker_cpu_ticks(supervisor: int) -> dict[int, int]:
    """User + system clock ticks of each worker process of ``supervisor`` (Linux /proc)."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    ticks = {}
    for child in map(int, children):
        if b"resource_tracker" in Path(f"/proc/{child}/cmdline").read_bytes():
            continue  # multiprocessing's helper, not a worker
        fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        ticks[child] = int(fields[11]) + int(fields[12])
    return ticks


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.timeout(180)
def test_two_uvicorn_workers_on_redis_serve_one_session_exactly(
    compose_redis: str, tmp_path: Path
) -> None:
    service = compose_services()["dialogkit"]
    env = {str(k): str(v) for k, v in service["environment"].items()}
    env["DIALOGKIT_REDIS_URL"] = compose_redis
    assert env["WEB_CONCURRENCY"] == "2"
    root = env["DIALOGKIT_ROOT_PATH"]
    port = free_port()
    command = on_loopback(dockerfile_command(), port)
    with running(command, port, tmp_path, env) as live:
        before = worker_cpu_ticks(live.process.pid)
        assert len(before) == 2, f"expected two workers, saw {before}"
        # The kernel decides which worker accepts a connection, and a turn takes well under
        # one clock tick of CPU: a round may land on one worker only, so drive a few rounds
        # (each a new session, each counted exactly) until both have served turns.
        for _ in range(5):
            counts, final = asyncio.run(_drive(f"{live.base_url}{root}"))
            assert sorted(counts) == list(range(3, 3 + CONCURRENT))
            assert final == 2 + CONCURRENT
            after = worker_cpu_ticks(live.process.pid)
            busy = [pid for pid in before if after.get(pid, 0) > before[pid]]
            if len(busy) == 2:
                break
    assert len(busy) == 2, f"both workers should have served turns: {before} -> {after}"


async def _drive(base_url: str) -> tuple[list[int], int]:
    """One session, then many concurrent turns, each on a fresh connection."""
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as http:
        opened = await http.post("/v1/session/json", json={"scenario_graph": DEMO})
        session_id = opened.json()["session_id"]

        async def send(text: str) -> int:
            body = {"session_id": session_id, "message_input": {"text": text}}
            reply = await http.post("/v1/message", json=body)
            assert reply.status_code == 200, reply.text
            assert not reply.json().get("error"), reply.text
            count: int = reply.json()["turn_count"]
            return count

        await send("music")  # ask_topic -> chat: turn 2
        counts = await asyncio.gather(*(send(f"message {n}") for n in range(CONCURRENT)))
        info = (await http.get(f"/v1/session/{session_id}")).json()
        return list(counts), int(info["turn_count"])
