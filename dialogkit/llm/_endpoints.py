"""Where a model name is served: the default endpoint, or one named in ``llm_endpoints``.

``DIALOGKIT_LLM_ENDPOINTS`` accepts two spellings so that a one-line shell export and a
JSON config file both work:

* JSON: ``{"llama3.1": {"base_url": "http://127.0.0.1:11434/v1", "api_key": "ollama"}}``
* compact: ``llama3.1=http://127.0.0.1:11434/v1|ollama;qwen=http://gpu:8000/v1``

A mapped endpoint without a key gets no key at all, never the default ``OPENAI_API_KEY``:
a self-hosted server should not receive the OpenAI credential by accident.
"""

from __future__ import annotations

import json
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from dialogkit.errors import LLMError

NO_API_KEY: Final = "no-key"
"""Sent when no key is configured: the openai client insists on one, local servers ignore it."""


class Endpoint(BaseModel):
    """An OpenAI-compatible server and its key.

    The address is required: an openai client without one would call the public OpenAI
    address, and nothing may go where the operator did not say.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(min_length=1, pattern=r"^https?://\S+$")
    api_key: str = ""


_MAPPING: Final = TypeAdapter(dict[str, Endpoint])


def parse_endpoints(text: str) -> dict[str, Endpoint]:
    """Read the per-model endpoint mapping; raises ``LLMError`` saying what is wrong."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            return _MAPPING.validate_python(json.loads(text))
        except (ValueError, ValidationError) as exc:
            raise LLMError(
                "DIALOGKIT_LLM_ENDPOINTS is not a valid JSON mapping of model names to "
                f'{{"base_url": ..., "api_key": ...}}: {exc}'
            ) from exc
    endpoints: dict[str, Endpoint] = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        model, separator, target = item.partition("=")
        base_url, _, api_key = target.partition("|")
        if not separator or not model.strip() or not base_url.strip():
            raise LLMError(
                f"DIALOGKIT_LLM_ENDPOINTS entry {item!r} must look like `model=base_url` or "
                "`model=base_url|api_key` (entries separated by `;`)."
            )
        try:
            endpoints[model.strip()] = Endpoint(base_url=base_url.strip(), api_key=api_key.strip())
        except ValidationError as exc:
            raise LLMError(
                f"DIALOGKIT_LLM_ENDPOINTS entry {item!r}: the base URL must start with "
                "http:// or https://."
            ) from exc
    return endpoints
