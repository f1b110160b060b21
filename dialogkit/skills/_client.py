"""``HTTPSkillRunner``: the engine's default ``SkillRunner``, speaking the outbound contract.

It sends ``POST {SKILL_RUNTIME_BASE_URL}/v1/skills/execute`` and turns every way that can go
wrong into an error outcome with a stable code, because a skill failure must become a
fallback reply, never an exception in the middle of a turn. The rules that need no network
are in ``dialogkit.skills._result``.

One time limit covers a whole call, ``SKILL_RUNTIME_TIMEOUT_S`` (or less, to fit the turn's
deadline): waiting for one of the ``SKILL_RUNTIME_MAX_IN_FLIGHT`` slots, connecting, sending
and reading the answer together. A call that queued for a slot has only what is left of it.

Time limits on the exchange are httpx's own, never a cancellation from outside: cancelling
httpcore while it connects leaks pool slots (httpcore issue 1093), and after a few bursts of
timeouts every later call would wait for a slot that never frees. For the same reason a call
runs in a task of its own that the caller's cancellation (a client hanging up) does not reach.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from typing import Any, Final

import httpx

from dialogkit._lifecycle import AsyncClosingMixin
from dialogkit.errors import DialogkitError, SkillError
from dialogkit.logsafe import escape
from dialogkit.settings import Settings
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.skills._result import (
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
FAILING_AFTER: Final = 5
"""Calls in a row that failed on the way (timeout, no connection, HTTP error) before the
runtime is reported as failing, in the log and by readiness."""
PROBE_TIMEOUT_S: Final = 2.0
MIN_EXCHANGE_S: Final = 0.05
"""A call left less time than this after waiting for its slot is not sent: it times out."""
OUTAGE_CODES: Final = frozenset(
    {SkillErrorCode.TIMEOUT, SkillErrorCode.UNAVAILABLE, SkillErrorCode.HTTP_ERROR}
)
"""Failures of the runtime itself; a skill that answers ``success: false`` is not one."""

logger = logging.getLogger("dialogkit.skills")


@cache
def _tls_context() -> ssl.SSLContext:
    """One TLS context for all clients: building one loads the CA bundle, tens of ms each."""
    return httpx.create_ssl_context()


class SlotTimeout(DialogkitError):
    """No call slot came free within the call's time limit."""


class HTTPSkillRunner(AsyncClosingMixin):
    """Runs skills on a remote runtime over HTTP; ``run`` never raises.

    Connections are pooled in one ``httpx.AsyncClient`` per event loop, because a client's
    connections belong to the loop that opened them and the sync facade runs turns on a
    private loop of its own. The pool holds at most ``SKILL_RUNTIME_MAX_IN_FLIGHT``
    connections: further calls wait for a free one within their own time limit. ``aclose``
    closes them all.
    """

    def __init__(self, settings: Settings, *, base_url: str | None = None) -> None:
        self._settings = settings
        url = settings.skill_runtime_base_url if base_url is None else base_url
        self._base_url = url.rstrip("/")
        self._clients: dict[asyncio.AbstractEventLoop, httpx.AsyncClient] = {}
        self._in_flight: dict[asyncio.AbstractEventLoop, int] = {}
        self._slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self._lock = threading.Lock()
        self._tasks: set[asyncio.Future[Any]] = set()
        self._failures = 0
        self._last_failure = ""

    @property
    def base_url(self) -> str:
        """The runtime address in use; empty means no runtime is configured."""
        return self._base_url

    async def run(self, call: SkillCall) -> SkillOutcome:
        """Call the node's skill once and interpret the answer for the engine.

        The exchange runs in its own task: a cancelled caller stops waiting, but the request
        still ends through httpx's timeouts, so its connection goes back to the pool.
        """
        task = asyncio.ensure_future(self._run(call))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return await asyncio.shield(task)

    async def _run(self, call: SkillCall) -> SkillOutcome:
        try:
            result = await self._execute(build_request(call), call.deadline)
        except SkillError as exc:
            self._observe(exc.code, str(exc))
            return failure_outcome(call, exc.code, str(exc))
        self._observe(None, "")
        return success_outcome(call, result)

    async def _execute(self, request: SkillRequest, deadline: float | None) -> dict[str, Any]:
        if not self._base_url:
            raise SkillError(
                SkillErrorCode.UNAVAILABLE,
                "no skill runtime is configured; set SKILL_RUNTIME_BASE_URL",
            )
        timeout = self._settings.skill_runtime_timeout_s
        if deadline is not None:
            timeout = min(timeout, deadline - time.monotonic())
            if timeout <= 0:
                raise SkillError(SkillErrorCode.TIMEOUT, "the turn deadline has passed")
        try:
            status, body, truncated = await self._post(request, timeout)
        except SlotTimeout:
            raise SkillError(
                SkillErrorCode.TIMEOUT,
                f"all {self._settings.skill_runtime_max_in_flight} calls in flight stayed busy "
                f"for {timeout:g} s (SKILL_RUNTIME_MAX_IN_FLIGHT)",
            ) from None
        except httpx.PoolTimeout as exc:
            self._recover_pool()
            raise SkillError(
                SkillErrorCode.TIMEOUT,
                f"all {self._settings.skill_runtime_max_in_flight} connections stayed busy "
                f"for {timeout:g} s (SKILL_RUNTIME_MAX_IN_FLIGHT)",
            ) from exc
        except httpx.TimeoutException as exc:
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

    async def _post(self, request: SkillRequest, limit_s: float) -> tuple[int, bytes, bool]:
        """Status, body and whether the body was cut at the size limit.

        The body is streamed so that an oversized answer is abandoned at the limit instead of
        being held in memory whole. httpx's timeouts apply to each step (waiting for a pooled
        connection, connecting, each read), so the whole exchange is also checked against
        ``timeout`` between chunks: a runtime trickling bytes is dropped there, by closing
        the response, not by cancelling a read.
        """
        ends = time.monotonic() + limit_s
        payload = request.model_dump_json(fallback=str).encode()
        async with self._slot(ends):
            return await self._exchange(payload, ends)

    @asynccontextmanager
    async def _slot(self, ends: float) -> AsyncIterator[None]:
        """One of this loop's ``SKILL_RUNTIME_MAX_IN_FLIGHT`` call slots, waited for until
        ``ends`` (``SlotTimeout`` after). The wait is on our own semaphore, which a timeout
        may cancel safely; the pool behind it then always has a connection free."""
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(
                self._settings.skill_runtime_max_in_flight
            )
        try:
            async with asyncio.timeout(max(0.0, ends - time.monotonic())):
                await slots.acquire()
        except TimeoutError:
            raise SlotTimeout from None
        try:
            yield
        finally:
            slots.release()

    async def _exchange(self, payload: bytes, ends: float) -> tuple[int, bytes, bool]:
        """The request and its answer, in the time left until ``ends``."""
        left = ends - time.monotonic()
        if left < MIN_EXCHANGE_S:
            # httpcore, given a few milliseconds, times out inside its pool after assigning a
            # connection, and that connection is lost to the pool (httpcore issue 1093).
            raise SlotTimeout
        loop = asyncio.get_running_loop()
        client = self._client()
        self._in_flight[loop] = self._in_flight.get(loop, 0) + 1
        try:
            async with client.stream(
                "POST",
                self._base_url + EXECUTE_PATH,
                content=payload,
                headers={"content-type": "application/json"},
                timeout=httpx.Timeout(left),
            ) as response:
                limit = self._settings.skill_runtime_max_response_bytes
                if response.status_code >= 400:
                    limit = ERROR_BODY_BYTES
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > limit:
                        return response.status_code, bytes(body[:limit]), True
                    if time.monotonic() > ends:
                        raise httpx.ReadTimeout("the answer is still arriving")
                return response.status_code, bytes(body), False
        finally:
            self._in_flight[loop] -= 1

    @property
    def calls_in_flight(self) -> int:
        """Calls started on any loop that have not ended (their callers may have left)."""
        return sum(1 for task in self._tasks if not task.done())

    async def settled(self) -> None:
        """Wait until every call of this loop started so far has ended, through its own
        time limit: afterwards every call slot of the loop is free again."""
        current = asyncio.get_running_loop()
        pending = [t for t in self._tasks if not t.done() and t.get_loop() is current]
        if pending:
            await asyncio.wait(pending)

    def _recover_pool(self) -> None:
        """Replace this loop's client when its pool lost slots that no call holds.

        A pool timeout while fewer calls are in flight than the pool has connections means
        slots leaked (a cancellation reached httpcore despite everything): a new client
        gives the runtime its full capacity back instead of failing every later call.
        """
        loop = asyncio.get_running_loop()
        with self._lock:
            in_flight = self._in_flight.get(loop, 0)
            if in_flight >= self._settings.skill_runtime_max_in_flight:
                return
            leaked = self._clients.pop(loop, None)
        if leaked is not None:
            logger.error(
                "the skill runtime pool lost connections (%d calls in flight): replaced it",
                in_flight,
            )
            closing = asyncio.ensure_future(leaked.aclose())
            self._tasks.add(closing)
            closing.add_done_callback(self._tasks.discard)

    def _observe(self, code: str | None, detail: str) -> None:
        """Count failures of the runtime in a row; say so when it starts and stops failing."""
        if code not in OUTAGE_CODES:
            if self._failures >= FAILING_AFTER:
                logger.warning(
                    "skill runtime %s recovered after %d failed calls",
                    escape(self._base_url),
                    self._failures,
                )
            self._failures = 0
            return
        self._failures += 1
        self._last_failure = detail
        if self._failures == FAILING_AFTER or self._failures % 1000 == 0:
            logger.error(
                "skill runtime %s is failing: %d calls in a row, last: %s",
                escape(self._base_url),
                self._failures,
                escape(detail),
            )

    async def health(self) -> tuple[bool, str]:
        """Whether skill calls can succeed now, and why not: for readiness checks.

        The runtime is probed on a connection of its own (any HTTP answer proves it is up),
        and recent calls count too: a runtime that answers a probe but fails every skill
        call is not ready either.
        """
        if not self._base_url:
            return True, "not configured: skill nodes answer their fallback"
        try:
            async with httpx.AsyncClient(
                timeout=httpx.Timeout(PROBE_TIMEOUT_S), verify=_tls_context()
            ) as probe:
                await probe.get(self._base_url + "/")
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            return False, f"{self._base_url} unreachable: {type(exc).__name__}"
        if self._failures >= FAILING_AFTER:
            return False, f"{self._failures} calls in a row failed; last: {self._last_failure}"
        return True, f"{self._base_url} reachable"

    def _client(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        with self._lock:
            for stale in [other for other in self._clients if other.is_closed()]:
                del self._clients[stale]
            client = self._clients.get(loop)
            if client is None:
                size = self._settings.skill_runtime_max_in_flight
                client = httpx.AsyncClient(
                    timeout=httpx.Timeout(self._settings.skill_runtime_timeout_s),
                    limits=httpx.Limits(
                        max_connections=size, max_keepalive_connections=min(size, 20)
                    ),
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
        # Calls still running here would only fail on the closed pool: end them now (a leak
        # no longer matters), so that none outlives its loop as a pending task.
        pending = [t for t in self._tasks if not t.done() and t.get_loop() is current]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)
        with self._lock:
            clients, self._clients = self._clients, {}
        for loop, client in clients.items():
            if loop is current:
                await client.aclose()
            elif loop.is_running():
                await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(client.aclose(), loop))
