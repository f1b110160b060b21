"""What the validator reports: one problem per finding, with the JSON path it concerns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

Severity = Literal["error", "warning"]

NEAR_MISS_KEY = "near_miss_key"
"""The code of an unknown key one edit away from a known one (``colect_slots``): legal, so a
warning that leaves the graph usable, but almost surely a typo whose field silently does
nothing; ``dialogkit validate`` fails on it."""


class Problem(BaseModel):
    """One finding: where (`path`), what and how to fix it (`message`), and how bad.

    ``code`` marks findings that tools treat specially (``NEAR_MISS_KEY``); mostly empty.
    """

    path: str
    message: str
    severity: Severity = "error"
    code: str = ""

    def __str__(self) -> str:
        return f"{self.severity}: {self.path or '$'}: {self.message}"


def json_path(loc: Sequence[str | int]) -> str:
    """``("graph", "nodes", 3, "id")`` -> ``graph.nodes[3].id``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def errors(problems: Sequence[Problem]) -> list[Problem]:
    """Only the error-severity problems."""
    return [p for p in problems if p.severity == "error"]
