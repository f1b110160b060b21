"""``HTTPSkillRunner``: the engine's default ``SkillRunner``, speaking the outbound contract.

It sends ``POST {SKILL_RUNTIME_BASE_URL}/v1/skills/execute`` and turns every way that can go
wrong into an error outcome with a stable code, because a skill failure must become a
fallback reply, never an exception in the middle of a turn. The rules that need no network
are in ``dialogkit.skills.result``.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from functools import cache
from typing import Any, Final

import httpx

from dialogkit._lifecycle import AsyncClosingMixin
from dialogkit.errors import SkillError
from dialogkit.settings import Settings
from dialogkit.skills.base import SkillCall, SkillOutcome
from dialogkit.skills.result import (
    SkillErrorCode,
    build_request,
    failure_outcome,
    parse_response,
    success_outcome,
)
from dialogkit.wire import SkillRequest

EXECUTE_PATH: Final = "/v1/skills/execute"
ERROR_BODY_BYTES: Final = 300
"""How much of an error status's body is kept for ``error_detail``."""


@cache
def _tls_context() -> ssl.SSLContext:
    """One TLS context for all clients: building one loads the CA bundle, tens of ms each."""
    return httpx.create_ssl_context()


class HTTPSkillRunner(AsyncClosingMixin):
    """Runs skills on a remote runtime over HTTP; ``run`` never raises.

    Connections are pooled in one ``httpx.AsyncClient`` per event loop, because a client's
    connections belong to the loop that opened them and the sync facade runs turns on a
    private loop of its own. ``aclose`` closes them all.
    """

    def __init__(self, settings: Settings, *, base_url: str | None = None) -> None:
        self._settings = settings
        url = settings.skill_runtime_base_url if base_url is None else base_url
        self._base_url = url.rstrip("/")
        self._clients: dict[asyncio.AbstractEventLoop, httpx.AsyncClient] = {}
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """The runtime address in use; empty means no runtime is configured."""
        return self._base_url

    async def run(self, call: SkillCall) -> SkillOutcome:
        """Call the node's skill once and interpret the answer for the engine."""
        try:
            result = await self._execute(build_request(call))
        except SkillError as exc:
            return failure_outcome(call, exc.code, str(exc))
        return success_outcome(call, result)

    async def _execute(self, request: SkillRequest) -> dict[str, Any]:
        if not self._base_url:
            raise SkillError(
                SkillErrorCode.UNAVAILABLE,
                "no skill runtime is configured; set SKILL_RUNTIME_BASE_URL",
            )
        timeout = self._settings.skill_runtime_timeout_s
        try:
            # One deadline for the whole exchange: httpx's timeouts apply per read, so a
            # runtime trickling bytes would otherwise never time out.
            async with asyncio.timeout(timeout):
                status, body, truncated = await self._post(request)
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise SkillError(
                SkillErrorCode.TIMEOUT, f"no complete answer within {timeout:g} s"
            ) from exc
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise SkillError(
                SkillErrorCode.UNAVAILABLE,
                f"cannot reach {self._base_url}: {type(exc).__name__}: {exc}",
            ) from exc
        if status >= 400:
            text = body.decode("utf-8", errors="replace")
            raise SkillError(SkillErrorCode.HTTP_ERROR, f"HTTP {status}: {text}")
        if truncated:
            raise SkillError(
                SkillErrorCode.RESPONSE_TOO_LARGE,
                f"the answer exceeds {self._settings.skill_runtime_max_response_bytes} bytes",
            )
        return parse_response(body)

    async def _post(self, request: SkillRequest) -> tuple[int, bytes, bool]:
        """Status, body and whether the body was cut at the size limit.

        The body is streamed so that an oversized answer is abandoned at the limit instead of
        being held in memory whole.
        """
        payload = request.model_dump_json(fallback=str).encode()
        async with self._client().stream(
            "POST",
            self._base_url + EXECUTE_PATH,
            content=payload,
            headers={"content-type": "application/json"},
        ) as response:
            limit = self._settings.skill_runtime_max_response_bytes
            if response.status_code >= 400:
                limit = ERROR_BODY_BYTES
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > limit:
                    return response.status_code, bytes(body[:limit]), True
            return response.status_code, bytes(body), False

    def _client(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        with self._lock:
            for stale in [other for other in self._clients if other.is_closed()]:
                del self._clients[stale]
            client = self._clients.get(loop)
            if client is None:
                client = httpx.AsyncClient(
                    timeout=httpx.Timeout(self._settings.skill_runtime_timeout_s),
                    verify=_tls_context(),
                )
                self._clients[loop] = client
            return client

    async def aclose(self) -> None:
        """Close the pooled connections of every loop this runner has been used on.

        A client is closed on its own loop: directly for the current one, by scheduling for
        another running loop. A loop that is no longer running cannot close its client, so
        close the runner before closing a private loop.
        """
        current = asyncio.get_running_loop()
        with self._lock:
            clients, self._clients = self._clients, {}
        for loop, client in clients.items():
            if loop is current:
                await client.aclose()
            elif loop.is_running():
                await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(client.aclose(), loop))
