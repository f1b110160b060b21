"""Whitespace-normalized comparison of bot sentences, for the fallback no-repeat rule."""

from __future__ import annotations

import re
from collections.abc import Iterable

_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


def normalize(text: str) -> str:
    """Collapse runs of white space and trim; the only normalization the rule allows."""
    return _SPACE.sub(" ", text).strip()


def sentences(text: str) -> list[str]:
    """Split a reply into sentences (Latin and CJK end marks)."""
    return [s for s in (normalize(p) for p in _SENTENCE_END.split(text)) if s]


def said_before(candidate: str, earlier: Iterable[str]) -> bool:
    """True when ``candidate`` equals an earlier assistant reply or one of its sentences."""
    target = normalize(candidate)
    if not target:
        return False
    return any(normalize(reply) == target or target in sentences(reply) for reply in earlier)
