"""Turns and reads of one session are serialized: nothing is lost, nothing interleaves."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.server.conftest import Live

CONCURRENT = 10


async def post_message(http: httpx.AsyncClient, session_id: str, text: str) -> dict[str, Any]:
    body = {"session_id": session_id, "message_input": {"text": text}}
    response = await http.post("/v1/message", json=body)
    assert response.status_code == 200, response.text
    reply: dict[str, Any] = response.json()
    return reply


async def test_concurrent_messages_to_one_session_each_count_once_in_order(
    server: Live, graph: dict[str, Any]
) -> None:
    options = {"include_history": True, "include_slots": False}
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
        opened = await http.post(
            "/v1/session/json", json={"scenario_graph": graph, "completion_options": options}
        )
        session_id = opened.json()["session_id"]
        await post_message(http, session_id, "music")  # now chatting, turn 2
        texts = [f"message {index}" for index in range(CONCURRENT)]
        replies = await asyncio.gather(*(post_message(http, session_id, t) for t in texts))
        counts = [reply["turn_count"] for reply in replies]
        assert sorted(counts) == list(range(3, 3 + CONCURRENT))
        info = (await http.get(f"/v1/session/{session_id}")).json()
        assert info["turn_count"] == 2 + CONCURRENT
        done = await post_message(http, session_id, "finish")

    processed = [text for _, text in sorted(zip(counts, texts, strict=True))]
    history = done["final_data"]["conversation_history"]
    users = [entry["message"] for entry in history if entry["role"] == "user"]
    assert users == ["music", *processed, "finish"]
    roles = [entry["role"] for entry in history]
    assert roles == ["assistant", "user"] * (CONCURRENT + 2) + ["assistant"]


async def test_session_info_waits_for_the_running_turn(server: Live, graph: dict[str, Any]) -> None:
    gate = server.skills
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
        opened = await http.post("/v1/session/json", json={"scenario_graph": graph})
        session_id = opened.json()["session_id"]
        await post_message(http, session_id, "music")
        gate.entered.clear()
        gate.release.clear()
        try:
            turn = asyncio.create_task(post_message(http, session_id, "lookup"))
            assert await asyncio.to_thread(gate.entered.wait, 5)
            read = asyncio.create_task(http.get(f"/v1/session/{session_id}"))
            done, _ = await asyncio.wait({read}, timeout=0.2)
            assert not done, "the read did not wait for the turn holding the session lock"
        finally:
            gate.release.set()
        reply = await turn
        info = (await read).json()
    assert reply["response"].startswith("Looked it up.")
    assert info["turn_count"] == reply["turn_count"] == 3


async def test_different_sessions_run_in_parallel(server: Live, graph: dict[str, Any]) -> None:
    gate = server.skills
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
        first, second = [
            (await http.post("/v1/session/json", json={"scenario_graph": graph})).json()[
                "session_id"
            ]
            for _ in range(2)
        ]
        await post_message(http, first, "music")
        await post_message(http, second, "music")
        gate.entered.clear()
        gate.release.clear()
        try:
            held = asyncio.create_task(post_message(http, first, "lookup"))
            assert await asyncio.to_thread(gate.entered.wait, 5)
            other = await asyncio.wait_for(post_message(http, second, "hello"), timeout=5)
            assert not held.done()
        finally:
            gate.release.set()
        await held
    assert other["turn_count"] == 3
