"""Servers run as processes of their own (``dialogkit serve``, a benchmark peer), for tests
and benchmarks that need a real process boundary: started, awaited until they answer HTTP,
and stopped with SIGINT as a terminal would."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

from dialogkit.errors import DialogkitError

START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 15.0


class ServerDidNotStart(DialogkitError, RuntimeError):
    """The process exited or did not answer HTTP in time; the message holds its log."""


def free_port() -> int:
    """A port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(
    command: list[str],
    url: str,
    log: Path,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout_s: float = START_TIMEOUT_S,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (its output in ``log``) until the block ends; ready once ``url``
    answers any HTTP response."""
    with log.open("w") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=cwd
        )
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    message = f"{command[0]} did not start:\n{log.read_text()}"
                    raise ServerDidNotStart(message) from None
                time.sleep(0.1)
        yield process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
