"""Real ASGI and Sanic server processes on 127.0.0.1 for the deployment tests.

Each server is started the way a deployer starts it (``uvicorn ...``, ``hypercorn ...``,
``dialogkit serve ...``) through ``dialogkit.testing.processes.serving``: polled until ``GET /``
answers, and always stopped (interrupted, then killed after a bounded wait).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from dialogkit.testing.processes import ServerDidNotStart, serving
from tests.store.conftest import redis_server, redis_url  # noqa: F401  (real redis-server fixtures)

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ServerProcess:
    process: subprocess.Popen[bytes]
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
    """``command`` serving on ``port`` until the block ends (see ``serving``)."""
    log = tmp_path / f"server-{port}.log"
    base_url = f"http://127.0.0.1:{port}"
    try:
        with serving(
            module_command(command), f"{base_url}/", log, env=server_env(env), cwd=ROOT
        ) as process:
            yield ServerProcess(process, base_url, log)
    except ServerDidNotStart as exc:
        pytest.fail(str(exc))


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
