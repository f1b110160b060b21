"""``python -m dialogkit_server``: the blocking ``serve`` in a process of its own."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dialogkit.testing.processes import serving

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 30

CLOCK = {
    "metadata": {
        "slug": "clock",
        "name": "Clock",
        "description": "Tells the time through the reference skill runtime.",
        "language": "en",
        "version": "1",
    },
    "prompts": {"bot": "Be brief."},
    "graph": {
        "entry": "time",
        "bot_first": True,
        "nodes": [
            {
                "id": "time",
                "description": "Tell the time.",
                "params": {"skill": "local_time", "arguments": {"timezone": "UTC"}},
                "default_next": "time",
            }
        ],
    },
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service with ``--with-skill-runtime``, run from an empty folder (no ``.env``)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "SKILL_RUNTIME_BASE_URL"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    folder = tmp_path_factory.mktemp("cwd")
    log = folder / "service.log"
    base_url = f"http://127.0.0.1:{port}"
    with (
        log.open("w") as output,
        subprocess.Popen(
            [sys.executable, "-m", "dialogkit_server", "--port", str(port), "--with-skill-runtime"],
            cwd=folder,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        ) as process,
    ):
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                try:
                    httpx.get(base_url, timeout=1)
                    break
                except httpx.TransportError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        pytest.fail(f"the service did not start:\n{log.read_text()}")
                    time.sleep(0.05)
            yield base_url
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    assert process.returncode == 0, log.read_text()


def test_module_serves_the_api(service: str) -> None:
    response = httpx.get(f"{service}/v1/")
    assert response.status_code == 200
    assert response.json()["api"] == ""


def test_with_skill_runtime_runs_skills_in_the_same_process(service: str) -> None:
    response = httpx.post(f"{service}/v1/session/json", json={"scenario_graph": CLOCK}, timeout=10)
    assert response.status_code == 200
    reply = response.json()
    assert reply["error"] is False
    assert reply["response"].startswith("It is ")
    assert "local time" in reply["response"]


def test_help_lists_the_options() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dialogkit_server", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert "--port" in result.stdout and "--with-skill-runtime" in result.stdout


def test_dialogkit_serve_says_where_the_docs_are_and_where_models_go(tmp_path: Path) -> None:
    """What ``make run`` runs prints the docs address once it listens, and the model
    routing; the address it prints answers with the docs page."""
    port = free_port()
    models = "http://127.0.0.1:9/v1"  # never called: nothing is asked of a model at start-up
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DIALOGKIT_", "CORE_"))}
    env.update(PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]))
    env.update(OPENAI_BASE_URL=models, CORE_DEFAULT_LLM="house", DIALOGKIT_LLM_MODELS="")
    dialogkit = Path(sys.executable).with_name("dialogkit")
    command = [str(dialogkit), "serve", "--port", str(port), "--with-skill-runtime"]
    log = tmp_path / "serve.log"
    with serving(command, f"http://127.0.0.1:{port}/v1/", log, env=env, cwd=tmp_path):
        deadline = time.monotonic() + START_TIMEOUT_S
        while "API docs" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        output = log.read_text()
        docs = f"http://127.0.0.1:{port}/docs"
        assert f"serving; the API docs are at {docs}" in output, output
        assert httpx.get(docs, timeout=10).status_code == 200
    assert f"model routing: any name -> {models}" in output
    assert "started the reference skill runtime at http://127.0.0.1:" in output
