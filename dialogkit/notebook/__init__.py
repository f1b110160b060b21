"""Notebook tools: a chat widget, transcripts, and graph pictures of a scenario.

``ChatWidget`` needs ipywidgets (the ``notebook`` extra); it is imported on first use, so
transcripts and graph views work without it (the terminal chat uses them too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialogkit.notebook.graph import GraphView
from dialogkit.notebook.status import AsyncChatSession, ChatSession, Status
from dialogkit.notebook.transcript import Transcript, TranscriptRow

if TYPE_CHECKING:
    from dialogkit.notebook.widget import ChatWidget

__all__ = [
    "AsyncChatSession",
    "ChatSession",
    "ChatWidget",
    "GraphView",
    "Status",
    "Transcript",
    "TranscriptRow",
]


def __getattr__(name: str) -> Any:
    if name == "ChatWidget":
        from dialogkit.notebook.widget import ChatWidget

        return ChatWidget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
