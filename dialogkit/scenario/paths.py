"""Dotted paths into a turn's scope, shared by conditions, templates, input maps and result maps.

A scope is a mapping of roots (``nlu``, ``slots``, ``context``, ``user``, ``input``, ``turn``)
to nested mappings. Paths never raise: a missing step resolves to ``MISSING``, so a scenario
cannot crash a turn by naming something that is not there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

ROOTS: Final = frozenset({"nlu", "slots", "context", "user", "input", "turn"})


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing()


def resolve(data: Any, path: str) -> Any:
    """Walk ``path`` (dots between keys, integers index lists) through ``data``."""
    current = data
    if not path:
        return current
    for step in _steps(path):
        if isinstance(current, dict | Mapping):
            if step not in current:
                return MISSING
            current = current[step]
        elif isinstance(current, Sequence) and not isinstance(current, str) and step.isdigit():
            index = int(step)
            if index >= len(current):
                return MISSING
            current = current[index]
        elif hasattr(current, "model_dump") and hasattr(current, step):
            current = getattr(current, step)
        else:
            return MISSING
    return current


def compile_path(path: str) -> Callable[[Any], Any]:
    """``resolve(data, path)`` as a function of ``data``, for a path resolved on every turn:
    the path is split once, and plain dicts (what a turn's scope is made of) are walked
    without the general checks; anything else is left to ``resolve``."""
    if not path:
        return lambda data: data
    steps = _steps(path)

    def walk(data: Any) -> Any:
        current = data
        for step in steps:
            if type(current) is not dict:
                return resolve(data, path)
            current = current.get(step, MISSING)
            if current is MISSING:
                return MISSING
        return current

    return walk


@lru_cache(maxsize=4096)
def _steps(path: str) -> tuple[str, ...]:
    """A path split at its dots: every turn resolves the same few paths of its scenario."""
    return tuple(path.split("."))


def root_of(path: str) -> str:
    """The first step of a dotted path."""
    return path.split(".", 1)[0]
