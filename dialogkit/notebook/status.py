"""What a chat view needs from a session, and what it shows beside each reply.

The notebook widget and the terminal chat show the same side information, so it is built
once here. Sessions are duck-typed: a local ``Session`` and a ``RemoteSession`` both fit
``ChatSession``; an ``AsyncRemoteSession`` fits ``AsyncChatSession``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from dialogkit.engine.session import Reply
from dialogkit.wire import ChatbotSessionInfoResponse

__all__ = ["AsyncChatSession", "ChatSession", "Status"]


@runtime_checkable
class ChatSession(Protocol):
    """A session with blocking methods (``Session``, ``RemoteSession``)."""

    id: str
    initial_reply: Reply

    def send(self, text: str, confidence: float = 0.0) -> Reply: ...

    def info(self) -> ChatbotSessionInfoResponse: ...


class AsyncChatSession(Protocol):
    """A session with coroutine methods only (``AsyncRemoteSession``)."""

    id: str
    initial_reply: Reply

    async def asend(self, text: str, confidence: float = 0.0) -> Reply: ...

    async def ainfo(self) -> ChatbotSessionInfoResponse: ...


@dataclass(frozen=True)
class Status:
    """The state after a reply: the session's (from ``info``) plus the turn's trace, if any.

    Intent and fallback kind are known only for local sessions, whose replies carry a trace.
    """

    node: str
    turn_count: int
    slots: dict[str, Any] = field(default_factory=dict)
    complete: bool = False
    end_reason: str | None = None
    intent: str | None = None
    fallback: str | None = None
    error: bool = False

    @classmethod
    def of(cls, reply: Reply, info: ChatbotSessionInfoResponse | None = None) -> Status:
        """``info`` read after ``reply``; without it, slots are unknown (shown empty)."""
        trace = reply.trace
        final = reply.final_data
        return cls(
            node=info.current_node if info is not None else reply.current_node,
            turn_count=info.turn_count if info is not None else reply.turn_count,
            slots=dict(info.slots) if info is not None else {},
            complete=info.session_complete if info is not None else reply.session_complete,
            end_reason=final.end_reason if final is not None else None,
            intent=trace.intent if trace is not None else None,
            fallback=trace.fallback if trace is not None else None,
            error=reply.error,
        )

    def fields(self) -> list[tuple[str, str]]:
        """(label, value) pairs in display order; unknown NLU details are left out."""
        slots = ", ".join(f"{name}={_text(value)}" for name, value in self.slots.items())
        shown = [("node", self.node), ("turn", str(self.turn_count)), ("slots", slots or "none")]
        if self.intent is not None:
            shown.append(("intent", self.intent))
        if self.fallback is not None:
            shown.append(("fallback", self.fallback))
        if self.complete:
            shown.append(("complete", self.end_reason or "yes"))
        if self.error:
            shown.append(("error", "the turn failed; the session is unchanged"))
        return shown

    def brief(self) -> str:
        """What a reply bubble notes under its text: ``confirm · intent affirm · complete``."""
        shown = [self.node]
        shown += [f"{label} {value}" for label, value in self.fields() if label in _BRIEF]
        return " · ".join(part for part in shown if part)

    def summary(self) -> str:
        """One line, such as ``node confirm · turn 4 · slots size=large · intent affirm``."""
        return " · ".join(f"{label} {value}" for label, value in self.fields())


_BRIEF = ("intent", "fallback", "complete")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
