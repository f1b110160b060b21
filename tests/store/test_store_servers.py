"""Two ``dialogkit serve`` processes on one real Redis share sessions and scenarios."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from dialogkit.testing.processes import ServerDidNotStart, free_port, serving
from tests.helpers import make_graph

DIALOGKIT = Path(sys.executable).with_name("dialogkit")

GRAPH = make_graph(
    [
        {
            "id": "ask",
            "description": "Ask for a name.",
            "responses": {"default": "Your name, please?"},
            "next_nodes": [{"action": "stay"}],
        }
    ],
    bot_first=True,
)


@pytest.fixture(scope="module")
def servers(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    folder = tmp_path_factory.mktemp("servers")
    env = {**os.environ, "DIALOGKIT_REDIS_URL": redis_url, "DIALOGKIT_BACKLOG": "256"}
    env.pop("SKILL_RUNTIME_BASE_URL", None)
    urls = []
    with ExitStack() as stack:
        for index in range(2):
            port = free_port()
            urls.append(f"http://127.0.0.1:{port}")
            command = [str(DIALOGKIT), "serve", "--port", str(port), "--backlog", "128"]
            log = folder / f"server{index}.log"
            try:
                stack.enter_context(serving(command, urls[-1], log, env=env, cwd=folder))
            except ServerDidNotStart as exc:
                pytest.fail(str(exc))
        yield urls


def _send(url: str, session_id: str, text: str) -> dict[str, object]:
    body = {"session_id": session_id, "message_input": {"text": text}}
    response = httpx.post(f"{url}/v1/message", json=body, timeout=30)
    assert response.status_code == 200, response.text
    reply: dict[str, object] = response.json()
    assert reply["error"] is False, reply
    return reply


def test_a_session_by_name_is_continued_on_the_other_server(servers: list[str]) -> None:
    first, second = servers
    created = httpx.post(
        f"{first}/v1/session",
        json={"scenario_name": "companion", "completion_options": {"include_history": True}},
        timeout=30,
    )
    assert created.status_code == 200, created.text
    session_id = created.json()["session_id"]
    turns = [_send(url, session_id, "hello there") for url in (second, first, second)]
    assert [reply["turn_count"] for reply in turns] == sorted(r["turn_count"] for r in turns)
    infos = [httpx.get(f"{url}/v1/session/{session_id}", timeout=30).json() for url in servers]
    assert infos[0]["turn_count"] == infos[1]["turn_count"] == turns[-1]["turn_count"]


def test_a_graph_sent_to_one_server_runs_on_the_other(servers: list[str]) -> None:
    first, second = servers
    created = httpx.post(f"{first}/v1/session/json", json={"scenario_graph": GRAPH}, timeout=30)
    assert created.status_code == 200, created.text
    session_id = created.json()["session_id"]
    for index in range(4):
        reply = _send(servers[index % 2], session_id, f"name {index}")
        assert reply["turn_count"] == 2 + index
        assert reply["current_node"] == "ask"
    missing = httpx.post(
        f"{second}/v1/message",
        json={"session_id": "no-such-session", "message_input": {"text": "hi"}},
        timeout=30,
    )
    assert missing.status_code == 404
