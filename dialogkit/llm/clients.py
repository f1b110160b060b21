"""OpenAI clients shared per endpoint *and per event loop*, with a bounded number of calls.

An ``AsyncOpenAI`` client pools connections that belong to the loop that opened them; used
from another loop it fails or hangs. The engine's sync facade runs coroutines on a private
loop in a worker thread while apps and tests run their own, so each loop gets its own
clients. They are closed when the loop shuts down (``asyncio.run`` and ``asyncio.Runner``
finalize async generators, and each loop's clients live in one), or by ``aclose()``.

The transport is aiohttp (openai's ``DefaultAioHttpClient``) by default: measured with
``benchmarks/llm_concurrency.py``, openai's default httpx2 pool spends most of a 1,000-call
burst in its own connection bookkeeping, while aiohttp stays close to a raw-socket floor.
Each endpoint admits ``llm_max_concurrency`` calls at once per loop; later calls wait in
arrival order (``asyncio.Semaphore`` is first-in, first-out), and the connection pool is as
large as that limit, so a waiting call never holds a half-open connection.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

import httpx2
from openai import AsyncOpenAI, DefaultAioHttpClient, DefaultAsyncHttpxClient

from dialogkit.llm.endpoints import NO_API_KEY, Endpoint

Transport = Literal["aiohttp", "httpx"]


@dataclass(frozen=True)
class Channel:
    """A client and the slots that bound its calls in flight, on one loop."""

    client: AsyncOpenAI
    slots: asyncio.Semaphore


ClientFactory = Callable[[], Awaitable[Channel]]
"""What providers call for a client: it returns the channel belonging to the running loop."""


@dataclass(frozen=True)
class ClientOptions:
    """How clients are built: timeouts in seconds, the concurrency bound, the transport."""

    read_timeout_s: float = 30.0
    connect_timeout_s: float = 5.0
    max_concurrency: int = 256
    transport: Transport = "aiohttp"

    @property
    def timeout(self) -> httpx2.Timeout:
        return httpx2.Timeout(
            self.read_timeout_s, connect=self.connect_timeout_s, pool=self.read_timeout_s
        )


@dataclass
class _LoopClients:
    loop: asyncio.AbstractEventLoop
    channels: dict[Endpoint, Channel] = field(default_factory=dict)
    watcher: AsyncGenerator[None, None] = field(init=False)


class ClientPool:
    """Creates and caches one ``AsyncOpenAI`` client per (endpoint, running loop).

    Clients never retry by themselves (``max_retries=0``): ``dialogkit.llm.chat`` retries,
    because only it knows how much of the turn's deadline is left.
    """

    def __init__(self, options: ClientOptions | None = None) -> None:
        self.options = options or ClientOptions()
        self._loops: dict[int, _LoopClients] = {}
        self._lock = threading.Lock()

    def factory(self, endpoint: Endpoint) -> ClientFactory:
        """A zero-argument factory for providers bound to ``endpoint``."""

        async def channel() -> Channel:
            return await self.channel(endpoint)

        return channel

    async def channel(self, endpoint: Endpoint) -> Channel:
        """The channel for ``endpoint`` on the running loop, created on first use."""
        entry = await self._entry(asyncio.get_running_loop())
        channel = entry.channels.get(endpoint)
        if channel is None:
            options = self.options
            limits = httpx2.Limits(
                max_connections=options.max_concurrency,
                max_keepalive_connections=options.max_concurrency,
            )
            http_client_type = (
                DefaultAioHttpClient if options.transport == "aiohttp" else DefaultAsyncHttpxClient
            )
            client = AsyncOpenAI(
                base_url=endpoint.base_url,
                api_key=endpoint.api_key or NO_API_KEY,
                timeout=options.timeout,
                max_retries=0,
                http_client=http_client_type(timeout=options.timeout, limits=limits),
            )
            channel = entry.channels[endpoint] = Channel(
                client, asyncio.Semaphore(options.max_concurrency)
            )
        return channel

    async def _entry(self, loop: asyncio.AbstractEventLoop) -> _LoopClients:
        with self._lock:
            entry = self._loops.get(id(loop))
            if entry is not None and entry.loop is loop:
                return entry
            # A loop that closed without finalizing its async generators cannot close its
            # clients any more; forgetting it keeps ids of dead loops from piling up.
            for key in [k for k, e in self._loops.items() if e.loop.is_closed()]:
                del self._loops[key]
            entry = _LoopClients(loop)
            entry.watcher = self._watch(entry)
            self._loops[id(loop)] = entry
        # Running the generator up to its ``yield`` registers it with this loop, whose
        # shutdown then runs its ``finally``: the clients close on the loop that owns them.
        await anext(entry.watcher)
        return entry

    async def _watch(self, entry: _LoopClients) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            with self._lock:
                if self._loops.get(id(entry.loop)) is entry:
                    del self._loops[id(entry.loop)]
            while entry.channels:
                _, channel = entry.channels.popitem()
                await channel.client.close()

    async def aclose(self) -> None:
        """Close every client: this loop's here, another running loop's on that loop."""
        with self._lock:
            entries = list(self._loops.values())
            self._loops.clear()
        current = asyncio.get_running_loop()
        for entry in entries:
            if entry.loop is current:
                await entry.watcher.aclose()
            elif entry.loop.is_running():
                closing = asyncio.run_coroutine_threadsafe(entry.watcher.aclose(), entry.loop)
                await asyncio.wrap_future(closing)
            # A stopped loop finalizes the dropped generator itself when it runs again.
