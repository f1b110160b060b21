"""OpenAI clients shared per endpoint *and per event loop*.

An ``AsyncOpenAI`` client pools connections that belong to the loop that opened them; used
from another loop it fails or hangs. The engine's sync facade runs coroutines on a private
loop in a worker thread while apps and tests run their own, so each loop gets its own
clients. They are closed when the loop shuts down (``asyncio.run`` and ``asyncio.Runner``
finalize async generators, and each loop's clients live in one), or by ``aclose()``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field

from openai import AsyncOpenAI

from dialogkit.llm.endpoints import NO_API_KEY, Endpoint

ClientFactory = Callable[[], Awaitable[AsyncOpenAI]]
"""What providers call for a client: it returns the one belonging to the running loop."""


@dataclass
class _LoopClients:
    loop: asyncio.AbstractEventLoop
    clients: dict[Endpoint, AsyncOpenAI] = field(default_factory=dict)
    watcher: AsyncGenerator[None, None] = field(init=False)


class ClientPool:
    """Creates and caches one ``AsyncOpenAI`` client per (endpoint, running loop)."""

    def __init__(self, *, timeout: float, max_retries: int) -> None:
        self._timeout = timeout
        self._max_retries = max_retries
        self._loops: dict[int, _LoopClients] = {}
        self._lock = threading.Lock()

    def factory(self, endpoint: Endpoint) -> ClientFactory:
        """A zero-argument factory for providers bound to ``endpoint``."""

        async def client() -> AsyncOpenAI:
            return await self.client(endpoint)

        return client

    async def client(self, endpoint: Endpoint) -> AsyncOpenAI:
        """The client for ``endpoint`` on the running loop, created on first use."""
        entry = await self._entry(asyncio.get_running_loop())
        client = entry.clients.get(endpoint)
        if client is None:
            client = entry.clients[endpoint] = AsyncOpenAI(
                base_url=endpoint.base_url or None,
                api_key=endpoint.api_key or NO_API_KEY,
                timeout=self._timeout,
                max_retries=self._max_retries,
            )
        return client

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
            while entry.clients:
                _, client = entry.clients.popitem()
                await client.close()

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
