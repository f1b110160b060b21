"""One chat completion with the failure policy both LLM providers share.

A turn must survive any model failure (timeout, HTTP error, rate limit, empty or unusable
answer), so the call never raises: it returns None and the caller falls back. Every call is
counted in the session's ``Usage``, failed ones included, with the tokens the server reported.
The one exception is ``dialogkit.errors.CassetteMiss``: a replayed run that asks something
its cassette does not hold must fail loudly, not fall back.

Time is bounded by the HTTP library's own timeouts, never by cancelling a request from
outside (which can leak connection-pool slots): each attempt gets min(configured timeout,
time left before the turn's deadline), no attempt starts when no time is left, and a retry
happens only while time remains.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar, cast

import aiohttp
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from dialogkit.errors import LLMError
from dialogkit.llm._cassette import Cassette, Recording, call_key
from dialogkit.llm._clients import Channel, ClientFactory, ClientOptions, ModelHTTPError
from dialogkit.logsafe import escape
from dialogkit.sanitize import DEFAULT_MAX_TEXT_CHARS
from dialogkit.usage import Usage

logger = logging.getLogger("dialogkit.llm.chat")

T = TypeVar("T")

RETRY_BACKOFF_S: Final = 0.25
"""First pause before a retry; doubled each time, and never longer than the time left."""
MIN_ATTEMPT_S: Final = 0.05
"""An attempt with less time than this left cannot succeed: fail at once instead."""

_RETRYABLE_STATUS: Final = frozenset({408, 409, 429})


@dataclass(frozen=True)
class CallPolicy:
    """Retries, timeouts, the text cap and the cassette every call of a router follows."""

    max_retries: int = 1
    client: ClientOptions = field(default_factory=ClientOptions)
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS
    cassette: Cassette | None = None


class ModelCaller:
    """Sends chat completions to one endpoint (or answers them from a cassette)."""

    def __init__(self, client_factory: ClientFactory | None, policy: CallPolicy) -> None:
        self.client_factory = client_factory
        self.policy = policy

    async def complete(
        self,
        *,
        model: str,
        messages: list[ChatCompletionMessageParam],
        purpose: Literal["nlu", "nlg", "simulated_user"],
        usage: Usage,
        parse: Callable[[str], T],
        response_format: dict[str, Any] | None = None,
        deadline: float | None = None,
    ) -> T | None:
        """``parse(content)`` of the model's answer, or None when the call or ``parse`` fails.

        ``parse`` raises (``ValueError``, ``LLMError``) for content that cannot be used; that
        counts as a failed call, because the tokens were spent for nothing. ``deadline`` is a
        ``time.monotonic()`` instant after which no answer is useful.
        """
        started = time.perf_counter()
        recording = await self._recorded_or_sent(model, messages, response_format, deadline)
        latency_ms = (time.perf_counter() - started) * 1000
        failed = True
        try:
            if recording.content is None:
                return None
            if not recording.content.strip():
                raise LLMError("the model answered with empty content")
            result = parse(recording.content)
            failed = False
            return result
        except Exception as exc:
            logger.warning(
                "%s answer of model %s is unusable: %s", purpose, escape(repr(model)), escape(exc)
            )
            return None
        finally:
            usage.record(
                purpose,
                model,
                prompt_tokens=recording.prompt_tokens,
                completion_tokens=recording.completion_tokens,
                failed=failed,
                latency_ms=latency_ms,
            )

    async def _recorded_or_sent(
        self,
        model: str,
        messages: list[ChatCompletionMessageParam],
        response_format: dict[str, Any] | None,
        deadline: float | None,
    ) -> Recording:
        """The answer as a ``Recording`` (``content`` None for a failed call)."""
        plain = cast(list[dict[str, Any]], messages)
        cassette = self.policy.cassette
        key = "" if cassette is None else call_key(model, plain, response_format, {})
        if cassette is not None:
            recorded = cassette.answer(key, model=model, messages=plain)
            if recorded is not None:
                return recorded
        recording = Recording(
            key=key, model=model, messages=plain, response_format=response_format, content=None
        )
        try:
            response = await self._send(model, messages, response_format, deadline)
            if response.usage is not None:
                recording.prompt_tokens = response.usage.prompt_tokens
                recording.completion_tokens = response.usage.completion_tokens
            message = response.choices[0].message if response.choices else None
            recording.content = (message.content if message is not None else None) or ""
        except Exception as exc:
            # Anything the server sends that is not a chat completion (an error status,
            # garbage, a body that is not JSON) is a failed call.
            logger.warning(
                "call to model %s failed: %s: %s",
                escape(repr(model)),
                type(exc).__name__,
                escape(exc),
            )
        if cassette is not None:
            cassette.record(recording)
        return recording

    async def _send(
        self,
        model: str,
        messages: list[ChatCompletionMessageParam],
        response_format: dict[str, Any] | None,
        deadline: float | None,
    ) -> ChatCompletion:
        body: dict[str, Any] = {"model": model, "messages": messages}
        if response_format is not None:
            body["response_format"] = response_format
        return await self.send(
            model, deadline, lambda channel, limits: channel.chat(body, limits=limits)
        )

    async def send(
        self,
        model: str,
        deadline: float | None,
        request: Callable[[Channel, aiohttp.ClientTimeout], Awaitable[T]],
    ) -> T:
        """``request(channel, limits)`` in a free slot of the endpoint, retried by the policy
        while the deadline allows; raises what the last attempt raised."""
        if self.client_factory is None:
            raise LLMError(f"no endpoint serves model {model!r}")
        channel = await self.client_factory()
        options = self.policy.client
        attempt = 0
        while True:
            left = _time_left(deadline)
            if left < MIN_ATTEMPT_S:
                raise LLMError("no time left before the turn's deadline")
            # aiohttp's own timeouts: the library closes what it opened. The total bound keeps
            # a server that trickles bytes (each read in time) from holding the turn.
            timeout = aiohttp.ClientTimeout(
                total=min(options.connect_timeout_s + options.read_timeout_s, left),
                sock_connect=min(options.connect_timeout_s, left),
                sock_read=min(options.read_timeout_s, left),
            )
            # Waiting for a slot is not a request yet, so bounding it from outside is safe.
            async with asyncio.timeout(min(options.read_timeout_s, left)):
                await channel.slots.acquire()
            try:
                return await request(channel, timeout)
            except (aiohttp.ClientError, TimeoutError, ModelHTTPError) as exc:
                attempt += 1
                pause = RETRY_BACKOFF_S * 2 ** (attempt - 1)
                if attempt > self.policy.max_retries or not _retryable(exc):
                    raise
                if _time_left(deadline) < pause + MIN_ATTEMPT_S:
                    raise
                logger.info("retrying model %s after %s", escape(repr(model)), type(exc).__name__)
            finally:
                channel.slots.release()
            await asyncio.sleep(pause)


def _time_left(deadline: float | None) -> float:
    return math.inf if deadline is None else deadline - time.monotonic()


def _retryable(exc: Exception) -> bool:
    """Connection failures, timeouts, rate limits and server errors may pass on a retry."""
    if isinstance(exc, ModelHTTPError):
        return exc.status in _RETRYABLE_STATUS or exc.status >= 500
    return isinstance(exc, aiohttp.ClientConnectionError | TimeoutError)
