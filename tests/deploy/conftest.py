"""Real ASGI and Sanic server processes on 127.0.0.1 for the deployment tests.

Each server is started the way a deployer starts it (``uvicorn ...``, ``hypercorn ...``,
``dialogkit serve ...``) in its own process group, polled until ``GET /`` answers, and always
stopped: terminated, then killed after a bounded wait.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.store.conftest import redis_server, redis_url  # noqa: F401  (real redis-server fixtures)

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 40.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    base_url: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a deployer would give: ours, minus settings that would leak in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DIALOGKIT_", "SANIC_"))}
    env.update({"PYTHONUNBUFFERED": "1", **(extra or {})})
    for name in ("OPENAI_BASE_URL", "CORE_DEFAULT_LLM", "CORE_NLU_LLM", "WEB_CONCURRENCY"):
        if name not in (extra or {}):
            env.pop(name, None)
    return env


def module_command(command: Sequence[str]) -> list[str]:
    """``uvicorn ...`` as ``python -m uvicorn ...`` of this interpreter (same environment)."""
    head, *rest = command
    if head == "dialogkit":
        return [sys.executable, "-m", "dialogkit.cli", *rest]
    return [sys.executable, "-m", head, *rest]


@contextmanager
def running(
    command: Sequence[str], port: int, tmp_path: Path, env: dict[str, str] | None = None
) -> Iterator[ServerProcess]:
    log = tmp_path / f"server-{port}.log"
    with log.open("w") as sink:
        process = subprocess.Popen(
            module_command(command),
            cwd=ROOT,
            env=server_env(env),
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
    server = ServerProcess(process, f"http://127.0.0.1:{port}", log)
    try:
        wait_until_up(server)
        yield server
    finally:
        stop(process)


def wait_until_up(server: ServerProcess) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"server exited with {server.process.returncode}:\n{server.output()}")
        try:
            if httpx.get(f"{server.base_url}/", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    pytest.fail(f"server did not answer within {START_TIMEOUT_S} s:\n{server.output()}")


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def run_to_exit(
    command: Sequence[str], env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run a server command that is expected to refuse to start."""
    return subprocess.run(
        module_command(command),
        cwd=ROOT,
        env=server_env(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        start_new_session=True,
    )
