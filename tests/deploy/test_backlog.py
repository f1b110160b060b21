"""``dialogkit serve`` listens with the configured backlog (Sanic's 100 resets bursts)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dialogkit.testing.processes import free_port
from tests.deploy.conftest import running


def listen_backlog(port: int) -> int:
    """The backlog of the socket listening on ``port``: ``ss`` shows it as Send-Q."""
    lines = subprocess.run(
        ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(lines[2])


@pytest.mark.parametrize(
    ("arguments", "env", "expected"),
    [
        ([], {}, 1024),
        (["--backlog", "1500"], {}, 1500),
        ([], {"DIALOGKIT_BACKLOG": "700"}, 700),
        (["--backlog", "300"], {"DIALOGKIT_BACKLOG": "700"}, 300),
    ],
)
def test_serve_listens_with_the_configured_backlog(
    tmp_path: Path, arguments: list[str], env: dict[str, str], expected: int
) -> None:
    port = free_port()
    command = ["dialogkit", "serve", "--port", str(port), *arguments]
    with running(command, port, tmp_path, env):
        assert listen_backlog(port) == expected
