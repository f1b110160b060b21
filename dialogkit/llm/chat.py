"""One chat completion with the failure policy both LLM providers share.

A turn must survive any model failure (timeout, HTTP error, rate limit, empty or unusable
answer), so the call never raises: it returns None and the caller falls back. Every call is
counted in the session's ``Usage``, failed ones included, with the tokens the server reported.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from dialogkit.errors import LLMError
from dialogkit.llm.clients import ClientFactory
from dialogkit.logsafe import escape
from dialogkit.usage import Usage

logger = logging.getLogger(__name__)

T = TypeVar("T")

MIN_CALL_S = 0.05
"""Below this much time before the deadline a call cannot succeed: it is not made."""
MAX_RETRY_DELAY = 8.0
"""The longest back-off the openai client sleeps between attempts (``MAX_RETRY_DELAY``)."""


async def complete(
    client_factory: ClientFactory,
    *,
    model: str,
    messages: list[ChatCompletionMessageParam],
    purpose: Literal["nlu", "nlg"],
    usage: Usage,
    parse: Callable[[str], T],
    response_format: dict[str, Any] | None = None,
    deadline: float | None = None,
) -> T | None:
    """``parse(content)`` of the model's answer, or None when the call or ``parse`` fails.

    ``parse`` raises (``ValueError``, ``LLMError``) for content that cannot be used; that
    counts as a failed call, because the tokens were spent for nothing. With a ``deadline``
    (a ``time.monotonic()`` instant) the call, retries included, ends by then through the
    client's own timeout; with no time left it is not made at all.
    """
    remaining = None if deadline is None else deadline - time.monotonic()
    if remaining is not None and remaining < MIN_CALL_S:
        logger.warning(
            "%s call to model %s skipped: the turn deadline has passed",
            purpose,
            escape(repr(model)),
        )
        return None
    prompt_tokens = completion_tokens = 0
    failed = True
    try:
        client = await client_factory()
        extra: dict[str, Any] = (
            {} if response_format is None else {"response_format": response_format}
        )
        if remaining is not None:
            client, extra["timeout"] = _within(client, remaining)
        response = await client.chat.completions.create(model=model, messages=messages, **extra)
        if response.usage is not None:
            prompt_tokens = response.usage.prompt_tokens
            completion_tokens = response.usage.completion_tokens
        content = response.choices[0].message.content if response.choices else None
        if not content or not content.strip():
            raise LLMError("the model answered with empty content")
        result = parse(content)
        failed = False
        return result
    except Exception as exc:
        logger.warning(
            "%s call to model %s failed: %s: %s",
            purpose,
            escape(repr(model)),
            type(exc).__name__,
            escape(exc),
        )
        return None
    finally:
        usage.record(
            purpose,
            model,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            failed=failed,
        )


def _within(client: AsyncOpenAI, remaining: float) -> tuple[AsyncOpenAI, float]:
    """The client and per-attempt timeout that keep every attempt inside ``remaining``.

    Retries stay when all attempts and their back-off fit; otherwise one attempt gets the
    time that is left.
    """
    timeout = client.timeout if isinstance(client.timeout, int | float) else remaining
    attempts = client.max_retries + 1
    if attempts * timeout + client.max_retries * MAX_RETRY_DELAY <= remaining:
        return client, timeout
    return client.with_options(max_retries=0), min(timeout, remaining)
