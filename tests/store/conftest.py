"""Real Redis servers on 127.0.0.1, started for the Redis store tests.

``redis_url`` is one server for the whole run; ``redis_server`` is a private one with the
append-only file on, which a test may restart (same port, same data) or stop.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dialogkit.testing.processes import free_port


class RedisServer:
    """A redis-server process on a free port of 127.0.0.1, data in ``folder``."""

    def __init__(self, binary: str, folder: Path, *, persistent: bool) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        persistence = ["--appendonly", "yes"] if persistent else ["--appendonly", "no"]
        self._command = [
            binary,
            *("--bind", "127.0.0.1", "--port", str(self.port), "--save", ""),
            *persistence,
            *("--dir", str(folder)),
        ]
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self._process = subprocess.Popen(
            self._command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        pytest.fail("redis-server did not start")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=10)

    def restart(self) -> None:
        """Stop and start again: every connection a client pooled is now stale."""
        self.stop()
        self.start()


def _binary() -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is not installed (`make test` installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return binary


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = RedisServer(_binary(), tmp_path_factory.mktemp("redis"), persistent=False)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(_binary(), tmp_path, persistent=True)
    server.start()
    yield server
    server.stop()
