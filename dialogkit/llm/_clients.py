"""HTTP sessions to model endpoints, shared per endpoint *and per event loop*, with a bound.

Connections belong to the loop that opened them; used from another loop they fail or hang.
The engine's sync facade runs coroutines on a private loop in a worker thread while apps and
tests run their own, so each loop gets its own sessions. They are closed when the loop shuts
down (``asyncio.run`` and ``asyncio.Runner`` finalize async generators, and each loop's
sessions live in one), or by ``aclose()``.

The transport was chosen by measurement (``benchmarks/llm_concurrency.py``, figures in
``benchmarks/README.md``): 1,000 sessions each making two sequential calls to a model that
answers in 200 ms took 1.2 s over raw asyncio sockets, 2.0 s with one ``aiohttp`` session,
8.4 s with ``AsyncOpenAI`` on openai's ``DefaultAioHttpClient`` (16 s through
``chat.completions.create``, whose request transformation is costly) and 41 s on its default
httpx2 pool. The cost is the openai client's per-request machinery, not only its transport,
so a chat completion is one plain ``aiohttp`` POST here, and ``openai``'s pydantic types
still read the answer.

Each endpoint admits ``max_concurrency`` calls at once per loop; later calls wait in arrival
order (``asyncio.Semaphore`` is first-in, first-out), and the connection pool is as large as
that bound, so a waiting call never holds a connection.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import aiohttp
from openai.types.chat import ChatCompletion

from dialogkit.errors import LLMError
from dialogkit.llm._endpoints import NO_API_KEY, Endpoint

MAX_RESPONSE_BYTES: Final = 8 * 1024 * 1024
"""An answer larger than this is refused unread: no spoken reply comes near it, nor do the
vectors of one scenario's examples (a few hundred texts)."""


class ModelHTTPError(LLMError):
    """The endpoint answered a chat completion with an error status."""

    def __init__(self, status: int, body: bytes | bytearray) -> None:
        self.status = status
        super().__init__(f"HTTP {status}: {bytes(body[:300]).decode('utf-8', 'replace')}")


@dataclass(frozen=True)
class Channel:
    """One endpoint on one loop: its HTTP session and the slots bounding calls in flight."""

    endpoint: Endpoint
    session: aiohttp.ClientSession
    slots: asyncio.Semaphore

    async def chat(self, body: dict[str, Any], *, limits: aiohttp.ClientTimeout) -> ChatCompletion:
        """POST one chat completion within aiohttp's time ``limits``; raises
        ``ModelHTTPError``, ``LLMError`` or aiohttp's ``ClientError``/``TimeoutError`` for the
        caller's retry policy."""
        # The stdlib parser, not pydantic's: it accepts the lone-surrogate escapes a model
        # can emit (``dialogkit.sanitize`` removes them from the text afterwards).
        data = await self.post("/chat/completions", body, limits=limits)
        return ChatCompletion.model_validate(json.loads(data))

    async def post(
        self, path: str, body: dict[str, Any], *, limits: aiohttp.ClientTimeout
    ) -> bytearray:
        """POST ``body`` to ``path`` under the endpoint's base URL; the raw answer body, read
        up to ``MAX_RESPONSE_BYTES``. Raises as ``chat`` does."""
        url = self.endpoint.base_url.rstrip("/") + path
        async with self.session.post(url, json=body, timeout=limits) as response:
            if (response.content_length or 0) > MAX_RESPONSE_BYTES:
                raise LLMError(f"the answer is {response.content_length} bytes, over the cap")
            data = bytearray()
            async for chunk in response.content.iter_any():
                data += chunk
                if len(data) > MAX_RESPONSE_BYTES:
                    raise LLMError(f"the answer is over {MAX_RESPONSE_BYTES} bytes")
            if response.status >= 400:
                raise ModelHTTPError(response.status, data)
            return data


ClientFactory = Callable[[], Awaitable[Channel]]
"""What callers use for a channel: it returns the one belonging to the running loop."""


@dataclass(frozen=True)
class ClientOptions:
    """How channels are built: timeouts in seconds and the concurrency bound."""

    read_timeout_s: float = 30.0
    connect_timeout_s: float = 5.0
    max_concurrency: int = 256


@dataclass
class _LoopClients:
    loop: asyncio.AbstractEventLoop
    channels: dict[Endpoint, Channel] = field(default_factory=dict)
    watcher: AsyncGenerator[None, None] = field(init=False)


class ClientPool:
    """Creates and caches one ``Channel`` per (endpoint, running loop).

    Nothing here retries: ``dialogkit.llm._chat`` does, because only it knows how much of the
    turn's deadline is left.
    """

    def __init__(self, options: ClientOptions | None = None) -> None:
        self.options = options or ClientOptions()
        self._loops: dict[int, _LoopClients] = {}
        self._lock = threading.Lock()

    def factory(self, endpoint: Endpoint) -> ClientFactory:
        """A zero-argument factory for callers bound to ``endpoint``."""

        async def channel() -> Channel:
            return await self.channel(endpoint)

        return channel

    async def channel(self, endpoint: Endpoint) -> Channel:
        """The channel for ``endpoint`` on the running loop, created on first use."""
        entry = await self._entry(asyncio.get_running_loop())
        channel = entry.channels.get(endpoint)
        if channel is None:
            bound = self.options.max_concurrency
            session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=bound, limit_per_host=bound),
                headers={"Authorization": f"Bearer {endpoint.api_key or NO_API_KEY}"},
            )
            channel = entry.channels[endpoint] = Channel(
                endpoint, session, asyncio.Semaphore(bound)
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
                await channel.session.close()

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
