"""One chat completion with the failure policy both LLM providers share.

A turn must survive any model failure (timeout, HTTP error, rate limit, empty or unusable
answer), so the call never raises: it returns None and the caller falls back. Every call is
counted in the session's ``Usage``, failed ones included, with the tokens the server reported.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from openai.types.chat import ChatCompletionMessageParam

from dialogkit.errors import LLMError
from dialogkit.llm.clients import ClientFactory
from dialogkit.logsafe import escape
from dialogkit.usage import Usage

logger = logging.getLogger(__name__)

T = TypeVar("T")


async def complete(
    client_factory: ClientFactory,
    *,
    model: str,
    messages: list[ChatCompletionMessageParam],
    purpose: Literal["nlu", "nlg"],
    usage: Usage,
    parse: Callable[[str], T],
    response_format: dict[str, Any] | None = None,
) -> T | None:
    """``parse(content)`` of the model's answer, or None when the call or ``parse`` fails.

    ``parse`` raises (``ValueError``, ``LLMError``) for content that cannot be used; that
    counts as a failed call, because the tokens were spent for nothing.
    """
    prompt_tokens = completion_tokens = 0
    failed = True
    try:
        client = await client_factory()
        extra: dict[str, Any] = (
            {} if response_format is None else {"response_format": response_format}
        )
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
