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
from functools import lru_cache
from typing import Any, NamedTuple

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


class _Placeholder(NamedTuple):
    path: str
    default: str | None


_Piece = str | _Placeholder
_EXTRA_SPACE = re.compile(r"[ \t]{2,}")


@lru_cache(maxsize=4096)
def _pieces(template: str) -> tuple[_Piece, ...]:
    """A template cut into literal text and placeholders, once per template: the same few
    templates of a scenario are rendered on every turn of every session."""
    pieces: list[_Piece] = []
    start = 0
    for match in PLACEHOLDER.finditer(template):
        pieces.append(template[start : match.start()])
        token = match.group(0)
        if token in ("{{", "}}"):
            pieces.append(token[0])
        else:
            pieces.append(_Placeholder(placeholder_path(match.group(1)), match.group(2)))
        start = match.end()
    pieces.append(template[start:])
    return tuple(piece for piece in pieces if piece)


@lru_cache(maxsize=4096)
def _tidy(text: str) -> str:
    """A rendered text without the doubled spaces a missing value leaves behind."""
    return _EXTRA_SPACE.sub(" ", text).strip()


def render(template: str, scope: Mapping[str, Any]) -> str:
    """Fill ``template`` from ``scope``; never raises."""
    parts: list[str] = []
    for piece in _pieces(template):
        if isinstance(piece, str):
            parts.append(piece)
            continue
        text = format_value(resolve(scope, piece.path))
        parts.append(piece.default if not text and piece.default is not None else text)
    return _tidy("".join(parts))
