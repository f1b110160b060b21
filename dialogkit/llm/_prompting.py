"""Small helpers both LLM providers use to write prompts."""

from __future__ import annotations

import json
from typing import Any

from dialogkit.wire import HistoryEntry


def prompt_json(value: Any) -> str:
    """Values in prompts are JSON: quoted text reads as data, and non-Latin scripts stay legible."""
    return json.dumps(value, ensure_ascii=False, default=str)


def earlier_turns(history: list[HistoryEntry], text: str, limit: int) -> list[HistoryEntry]:
    """The last ``limit`` entries before the current utterance ``text``.

    The engine may or may not have appended the utterance to the history yet; either way it
    must appear once, where the provider puts it.
    """
    entries = list(history)
    if text and entries and entries[-1].role == "user" and entries[-1].message == text:
        entries.pop()
    return entries[-limit:]
