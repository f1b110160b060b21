"""``dialogkit.client.AsyncClient`` against a live server."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from dialogkit.client import AsyncClient, AsyncRemoteSession
from dialogkit.engine.session import Reply
from dialogkit.errors import BadRequest, SessionNotFound, ValidationFailed
from tests.server.conftest import GREETING_NODE, Live


async def test_every_endpoint(server: Live, graph: dict[str, Any]) -> None:
    async with AsyncClient(server.base_url, timeout=10) as client:
        assert (await client.root()).version
        assert (await client.v1_root()).docs == "/docs"
        created = await client.create_session(scenario_name="demo", nlu_llm_choice="x")
        assert created.nlu_llm_choice == "x" and created.initial_turn_count == 1
        opened = await client.create_session_from_graph(graph)
        assert isinstance(opened, Reply) and opened.turn_count == 1
        assert (await client.validate(graph)).status == "success"
        reply = await client.message(opened.session_id, "music")
        assert reply.turn_count == 2
        info = await client.session_info(opened.session_id)
        assert info.current_node == "chat"


async def test_start_gives_an_async_remote_session(server: Live, graph: dict[str, Any]) -> None:
    async with AsyncClient(server.base_url) as client:
        session = await client.start(graph)
        assert isinstance(session, AsyncRemoteSession)
        assert session.initial_reply.current_node == GREETING_NODE
        replies = await asyncio.gather(session.asend("music"), session.ainfo())
        assert replies[0].turn_count == 2
        by_name = await client.start("demo", bot_first=False)
        assert by_name.initial_reply.turn_count == 0
        assert (await by_name.ainfo()).turn_count == 0


async def test_errors_map_like_the_sync_client(server: Live) -> None:
    async with AsyncClient(server.base_url) as client:
        with pytest.raises(BadRequest):
            await client.create_session(scenario_name="")
        with pytest.raises(SessionNotFound):
            await client.message("no-such-session", "hi")
        with pytest.raises(SessionNotFound):
            await client.session_info("no-such-session")


async def test_reference_500_on_message_is_session_not_found() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, text="Internal Server Error")

    transport = httpx.MockTransport(answer)
    async with AsyncClient("http://service.test", transport=transport) as client:
        with pytest.raises(SessionNotFound):
            await client.message("gone", "hi")


async def test_422_is_validation_failed() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        item = {"type": "model_type", "loc": ["body"], "msg": "bad", "input": []}
        return httpx.Response(422, json={"detail": [item]})

    transport = httpx.MockTransport(answer)
    async with AsyncClient("http://service.test", transport=transport) as client:
        with pytest.raises(ValidationFailed) as raised:
            await client.validate({})
    assert raised.value.body["detail"][0]["loc"] == ["body"]


async def test_a_given_http_client_is_left_open(server: Live) -> None:
    async with httpx.AsyncClient() as http:
        async with AsyncClient(server.base_url, http_client=http) as client:
            await client.root()
        assert not http.is_closed


async def test_a_blocking_call_on_an_async_session_says_what_to_use(
    server: Live, graph: dict[str, Any]
) -> None:
    async with AsyncClient(server.base_url) as client:
        session = await client.start(graph)
        with pytest.raises(AttributeError, match=r"use `await session\.asend\(\.\.\.\)`"):
            session.send("music")  # type: ignore[attr-defined]
        with pytest.raises(AttributeError, match=r"a sync dialogkit\.Client"):
            session.info()  # type: ignore[attr-defined]
        with pytest.raises(AttributeError, match="has no attribute 'sned'"):
            session.sned  # type: ignore[attr-defined]  # noqa: B018
        assert (await session.asend("music")).turn_count == 2
