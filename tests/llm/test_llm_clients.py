"""One HTTP channel per endpoint and event loop, closed with the loop or by ``aclose``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import aiohttp
import pytest

from dialogkit.llm._clients import Channel, ClientOptions, ClientPool
from dialogkit.llm._endpoints import Endpoint
from dialogkit.testing.openai_server import ScriptedOpenAIServer


@pytest.fixture
def pool() -> ClientPool:
    return ClientPool(ClientOptions(read_timeout_s=5.0))


async def client_of(pool: ClientPool, endpoint: Endpoint) -> Channel:
    return await pool.channel(endpoint)


@pytest.fixture
def other_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A long-lived loop in another thread, like the engine's sync portal."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


async def ask(channel: Channel) -> str | None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    response = await channel.chat(body, limits=aiohttp.ClientTimeout(total=5))
    return response.choices[0].message.content


async def test_a_loop_reuses_its_client_per_endpoint(pool: ClientPool) -> None:
    first, second = (
        Endpoint(base_url="http://127.0.0.1:9/v1"),
        Endpoint(base_url="http://127.0.0.1:9/v1", api_key="k"),
    )
    client = await client_of(pool, first)
    assert await client_of(pool, first) is client
    assert await client_of(pool, second) is not client
    await pool.aclose()
    assert client.session.closed


async def test_each_loop_gets_its_own_client_closed_when_the_loop_ends(
    pool: ClientPool, server: ScriptedOpenAIServer
) -> None:
    endpoint = Endpoint(base_url=server.base_url)
    server.queue("from a script", "from another script")

    async def script() -> tuple[Channel, str | None]:
        client = await client_of(pool, endpoint)
        return client, await ask(client)

    first, first_answer = await asyncio.to_thread(asyncio.run, script())
    second, second_answer = await asyncio.to_thread(asyncio.run, script())
    mine = await client_of(pool, endpoint)

    assert (first_answer, second_answer) == ("from a script", "from another script")
    assert len({id(first), id(second), id(mine)}) == 3
    assert first.session.closed and second.session.closed
    assert not mine.session.closed
    await pool.aclose()


async def test_aclose_closes_clients_of_other_running_loops_on_their_loop(
    pool: ClientPool, server: ScriptedOpenAIServer, other_loop: asyncio.AbstractEventLoop
) -> None:
    endpoint = Endpoint(base_url=server.base_url)
    server.queue("portal answer")
    theirs = await asyncio.wrap_future(
        asyncio.run_coroutine_threadsafe(client_of(pool, endpoint), other_loop)
    )
    answer = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(ask(theirs), other_loop))
    mine = await client_of(pool, endpoint)

    await pool.aclose()

    assert answer == "portal answer"
    assert theirs is not mine
    assert theirs.session.closed and mine.session.closed


async def test_a_closed_pool_serves_again_with_fresh_clients(
    pool: ClientPool, server: ScriptedOpenAIServer
) -> None:
    endpoint = Endpoint(base_url=server.base_url)
    before = await client_of(pool, endpoint)
    await pool.aclose()
    server.queue("still here")
    after = await client_of(pool, endpoint)
    assert after is not before
    assert await ask(after) == "still here"
    await pool.aclose()
