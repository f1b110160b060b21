"""Safe rendering of response templates.

``{slots.card_type}`` inserts a value from the turn's scope, ``{card_type}`` is short for
``{slots.card_type}``, ``{user.name|고객}`` falls back to the text after ``|`` when the value
is missing or empty, and ``{{`` / ``}}`` are literal braces. Rendering never raises: a missing
value becomes the default or an empty string, and the result is tidied so that a missing
value leaves no doubled spaces behind.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from dialogkit.scenario.paths import MISSING, ROOTS, resolve

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}|]+)(?:\|([^{}]*))?\}")


def variants(template: str | list[str] | None) -> list[str]:
    """The variants of a response template (a plain string is one variant)."""
    if not template:
        return []
    return [template] if isinstance(template, str) else [t for t in template if t]


def placeholder_path(name: str) -> str:
    """The full dotted path a placeholder refers to (bare names mean slots)."""
    name = name.strip()
    return name if name.split(".", 1)[0] in ROOTS else f"slots.{name}"


def placeholders(template: str) -> Iterator[str]:
    """The dotted paths a template refers to, for validation."""
    for match in PLACEHOLDER.finditer(template):
        if match.group(1) is not None:
            yield placeholder_path(match.group(1))


def format_value(value: Any) -> str:
    """How a scope value reads inside a sentence."""
    if value is MISSING or value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | tuple):
        return ", ".join(format_value(item) for item in value)
    if isinstance(value, Mapping):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def render(template: str, scope: Mapping[str, Any]) -> str:
    """Fill ``template`` from ``scope``; never raises."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        text = format_value(resolve(scope, placeholder_path(match.group(1))))
        if not text and match.group(2) is not None:
            return match.group(2)
        return text

    rendered = PLACEHOLDER.sub(replace, template)
    return re.sub(r"[ \t]{2,}", " ", rendered).strip()
