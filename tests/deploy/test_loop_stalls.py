"""No session can stall the others: a real ``dialogkit serve`` on loopback under two attacks.

- Six different 1 MiB graphs posted at once, each then sent a turn: their rule-NLU indexes
  (seconds of work each) are built off the event loop, so another session keeps answering.
- Twenty turns whose intent pattern backtracks (a lookaround, so not RE2): together they may
  take only the process's share of search time, so another session keeps answering.

The innocent session's latency is judged by its median, so a test machine busy with other
work does not fail it; a stalled loop holds every one of its turns for seconds.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dialogkit.testing.processes import free_port
from tests.deploy.conftest import ServerProcess, running
from tests.helpers import make_graph

QUIET = make_graph(
    [
        {
            "id": "talk",
            "description": "Say anything, forever.",
            "responses": {"default": "Go on."},
            "next_nodes": [{"action": "stay"}],
        }
    ]
)


def said(intent: str) -> dict[str, str]:
    return {"field": "nlu.intent", "operator": "equals", "value": intent}


def big_graph(seed: int, size: int = 1000 * 1000) -> dict[str, Any]:
    """A valid graph of about ``size`` bytes: hundreds of intents with many examples."""
    rnd = random.Random(seed)
    words = [f"w{seed}x{i}" for i in range(3000)]
    intents: dict[str, Any] = {}
    used = 0
    while used < size - 30_000:
        examples = [" ".join(rnd.choice(words) for _ in range(8)) for _ in range(40)]
        intents[f"intent_{len(intents)}"] = {"examples": examples}
        used += sum(len(example) + 4 for example in examples) + 40
    count = min(len(intents), 200)
    nodes = [
        {
            "id": f"n{i}",
            "description": "Node.",
            "responses": {"default": "Hi."},
            "next_nodes": [
                {
                    "condition": said(f"intent_{i}"),
                    "target": f"n{(i + 1) % count}",
                }
            ],
            "default_next": f"n{i}",
        }
        for i in range(count)
    ]
    return {
        "metadata": {"slug": f"big{seed}", "name": "Big", "language": "en", "version": "1"},
        "intents": intents,
        "graph": {"entry": "n0", "nodes": nodes},
    }


SLOW_PATTERN = "^(?=(a|a)+b)"
"""Exponential backtracking inside a lookahead: RE2 refuses it, ``regex`` runs it bounded."""
SLOW_GRAPH = make_graph(
    [
        {
            "id": "start",
            "description": "Start.",
            "responses": {"default": "Say something."},
            "next_nodes": [{"condition": said("attack"), "target": "start"}],
        }
    ],
    intents={"attack": {"patterns": [SLOW_PATTERN]}},
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    port = free_port()
    command = ["dialogkit", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with running(command, port, tmp_path) as process:
        yield process


async def open_session(http: httpx.AsyncClient, graph: dict[str, Any]) -> str:
    opened = await http.post("/v1/session/json", json={"scenario_graph": graph})
    assert opened.status_code == 200, opened.text[:300]
    session_id: str = opened.json()["session_id"]
    return session_id


async def turn(http: httpx.AsyncClient, session_id: str, text: str) -> dict[str, Any]:
    body = {"session_id": session_id, "message_input": {"text": text}}
    response = await http.post("/v1/message", json=body)
    assert response.status_code == 200, response.text[:300]
    reply: dict[str, Any] = response.json()
    assert reply["error"] is False, reply
    return reply


async def innocent_latencies(
    base_url: str,
    attack: Callable[[httpx.AsyncClient], Awaitable[None]],
    *,
    registered: str = "",
) -> tuple[list[float], float]:
    """Times of a quiet session's turns while ``attack`` runs (with ``registered``, each turn
    followed by the creation of a session on that registered scenario, timed too), and how
    long the attack took."""
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as http:
        quiet = await open_session(http, QUIET)
        await turn(http, quiet, "warm up")
        started = time.monotonic()
        attacking = asyncio.ensure_future(attack(http))
        times: list[float] = []
        while not attacking.done() or len(times) < 10:
            sent = time.perf_counter()
            await turn(http, quiet, "hello")
            times.append(time.perf_counter() - sent)
            if registered:
                sent = time.perf_counter()
                created = await http.post("/v1/session", json={"scenario_name": registered})
                assert created.status_code == 200, created.text
                times.append(time.perf_counter() - sent)
            await asyncio.sleep(0.02)
        await attacking
        return times, time.monotonic() - started


@pytest.mark.timeout(300)
def test_posting_six_large_graphs_does_not_stall_other_sessions(server: ServerProcess) -> None:
    graphs = [big_graph(seed) for seed in range(6)]

    async def attack(http: httpx.AsyncClient) -> None:
        async def one(graph: dict[str, Any]) -> None:
            session_id = await open_session(http, graph)
            await turn(http, session_id, "w0x1 w0x2 w0x3")

        await asyncio.gather(*(one(graph) for graph in graphs))

    times, took = asyncio.run(
        innocent_latencies(server.base_url, attack, registered="card_issuance")
    )
    assert took > 1.0, "the attack should take a while (indexing six large graphs)"
    assert statistics.median(times) < 0.100, (took, sorted(times))


@pytest.mark.timeout(300)
def test_twenty_slow_lookaround_turns_do_not_stall_other_sessions(
    server: ServerProcess,
) -> None:
    async def attack(http: httpx.AsyncClient) -> None:
        sessions = [await open_session(http, SLOW_GRAPH) for _ in range(20)]
        text = "a" * 3000 + "!"
        for _ in range(3):
            await asyncio.gather(*(turn(http, session_id, text) for session_id in sessions))

    times, took = asyncio.run(innocent_latencies(server.base_url, attack))
    assert statistics.median(times) < 0.100, (took, sorted(times))
    assert "lookaround searches are using their" in server.output()
