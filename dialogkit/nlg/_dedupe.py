"""Whitespace-normalized comparison of bot sentences, for the fallback no-repeat rule."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """Collapse runs of white space and trim; the only normalization the rule allows.

    Remembered: a turn's fallback compares every candidate with the same earlier replies,
    and the template sentences of a scenario come back in every session."""
    return _SPACE.sub(" ", text).strip()


def sentences(text: str) -> list[str]:
    """Split a reply into sentences (Latin and CJK end marks)."""
    return [s for s in (normalize(p) for p in _SENTENCE_END.split(text)) if s]


@lru_cache(maxsize=4096)
def _forms(reply: str) -> frozenset[str]:
    """A reply as a whole and each of its sentences, normalized. Every candidate reply of
    every turn is checked against the same few earlier replies, so they are split once."""
    return frozenset((normalize(reply), *sentences(reply)))


def said_before(candidate: str, earlier: Iterable[str]) -> bool:
    """True when ``candidate`` equals an earlier assistant reply or one of its sentences."""
    target = normalize(candidate)
    if not target:
        return False
    return any(target in _forms(reply) for reply in earlier)
