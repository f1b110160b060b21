"""A server signalled while it starts stops all the same, instead of serving on deaf."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from dialogkit.testing.processes import free_port
from tests.deploy.conftest import running, server_env
from tests.helpers import ROOT

SIGNALLED_WHILE_STARTING = textwrap.dedent(
    """
    import os, signal, sys, time
    from dialogkit.settings import Settings
    from dialogkit_server.app import create_app, honour_an_early_stop

    app = create_app(settings=Settings())

    async def interrupt(app):
        os.kill(os.getpid(), signal.SIG{name})
        time.sleep(0.3)  # holds the loop, as indexing the registered scenarios does

    app.after_server_start(interrupt)
    honour_an_early_stop(app)
    app.run(host="127.0.0.1", port=int(sys.argv[1]), single_process=True)
    """
)


def test_a_signal_during_the_after_start_listeners_stops_the_server() -> None:
    for name in ("INT", "TERM"):
        done = subprocess.run(
            [sys.executable, "-c", SIGNALLED_WHILE_STARTING.format(name=name), str(free_port())],
            cwd=ROOT,
            env=server_env(),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_dialogkit_serve_stops_on_ctrl_c_as_soon_as_it_answers(tmp_path: Path) -> None:
    port = free_port()
    with running(["dialogkit", "serve", "--port", str(port)], port, tmp_path) as server:
        server.process.send_signal(signal.SIGINT)
        server.process.wait(timeout=10)
