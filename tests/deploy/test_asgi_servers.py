"""The contract's endpoints through uvicorn and hypercorn, with and without a root path.

A root path comes from the ASGI server (``--root-path /dm``) or from our setting
(``DIALOGKIT_ROOT_PATH``); either way the service must answer both the prefixed form (a proxy
that forwards ``/dm``) and the bare form (a proxy that strips it), and every link it writes
must carry the prefix.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from dialogkit.testing.processes import free_port
from tests.deploy.conftest import running
from tests.server.conftest import DEMO


def _command(server: str, port: int, asgi_root: str) -> list[str]:
    if server == "uvicorn":
        command = ["uvicorn", "dialogkit_server.asgi:app", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--log-level", "warning"]
    else:
        command = ["hypercorn", "dialogkit_server.asgi:app", "--bind", f"127.0.0.1:{port}"]
    return [*command, "--root-path", asgi_root] if asgi_root else command


CASES = [
    pytest.param("uvicorn", "", "", id="uvicorn"),
    pytest.param("uvicorn", "/dm", "", id="uvicorn-asgi-root-path"),
    pytest.param("uvicorn", "", "/dm", id="uvicorn-setting-root-path"),
    pytest.param("hypercorn", "", "", id="hypercorn"),
    pytest.param("hypercorn", "/dm", "", id="hypercorn-asgi-root-path"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("server", "asgi_root", "setting_root"), CASES)
def test_contract_endpoints(server: str, asgi_root: str, setting_root: str, tmp_path: Path) -> None:
    port = free_port()
    env = {"DIALOGKIT_ROOT_PATH": setting_root} if setting_root else {}
    root = asgi_root or setting_root
    with running(_command(server, port, asgi_root), port, tmp_path, env) as live:
        # A proxy that forwards the prefix and one that strips it reach the same service.
        prefixes = [root, ""] if root else [""]
        for prefix in prefixes:
            with httpx.Client(base_url=f"{live.base_url}{prefix}", timeout=30) as http:
                _check_contract(http, root)


def _check_contract(http: httpx.Client, root: str) -> None:
    info = http.get("/").json()
    assert info["api"] == root
    assert info["openapi"] == f"{root}/openapi.json"
    assert http.get("/v1/").json()["docs"] == f"{root}/docs"

    created = http.post("/v1/session", json={"scenario_name": "companion"})
    assert created.status_code == 200, created.text
    session_id = created.json()["session_id"]
    assert created.json()["initial_turn_count"] == 1

    reply = http.post(
        "/v1/message", json={"session_id": session_id, "message_input": {"text": "네"}}
    )
    assert reply.status_code == 200, reply.text
    assert reply.json()["turn_count"] == 2
    assert http.get(f"/v1/session/{session_id}").json()["turn_count"] == 2

    opened = http.post("/v1/session/json", json={"scenario_graph": DEMO})
    assert opened.status_code == 200, opened.text
    assert opened.json()["current_node"] == "ask_topic"

    valid = http.post("/v1/session/validate", json={"scenario_graph": DEMO}).json()
    assert valid["status"] == "success"
    broken: dict[str, Any] = {**DEMO, "graph": {**DEMO["graph"], "entry": "nowhere"}}
    invalid = http.post("/v1/session/validate", json={"scenario_graph": broken}).json()
    assert invalid["status"] == "error"

    assert http.get("/v1/message").status_code == 405
    unprocessable = http.post("/v1/message", json={"session_id": "x", "message_input": "hi"})
    assert unprocessable.status_code == 422
    assert unprocessable.json()["detail"][0]["loc"] == ["body", "message_input"]
    # Sanic's body limit (2 MiB) holds under an ASGI server too. Just over it, so that the
    # whole body is read before the answer (a server that closes with unread data resets).
    body = b'{"x": "' + b"a" * (2 * 1024 * 1024) + b'"}'
    with httpx.Client(base_url=str(http.base_url), timeout=30) as fresh:
        assert fresh.post("/v1/session/validate", content=body).status_code == 413
    missing = http.get("/v1/session/no-such-session")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "Session not found"}

    spec = http.get("/openapi.json").json()
    assert spec["servers"] == [{"url": root or "/"}]
    assert "/v1/message" in spec["paths"]
    for page in ("/docs", "/redoc"):
        html = http.get(page)
        assert html.status_code == 200
        assert html.headers["content-type"].startswith("text/html")
        assert re.search(rf"[\"']{re.escape(root)}/openapi\.json[\"']", html.text), html.text
