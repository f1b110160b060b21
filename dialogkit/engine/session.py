"""``Session`` and ``Reply``: the conversation handle users hold, local or remote alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from dialogkit.engine.state import TurnRecord
from dialogkit.wire import ChatbotMessageResponse, ChatbotSessionInfoResponse

if TYPE_CHECKING:
    from dialogkit.engine.engine import Engine
    from dialogkit.scenario.scenario import Scenario


class Reply(ChatbotMessageResponse):
    """A bot reply: the fields of the API's ChatbotMessageResponse, plus the turn's trace.

    ``trace`` (intent, entities, fallback kind, nodes before and after, latency) is for
    notebooks and evaluation; it is never part of the HTTP response.
    """

    trace: TurnRecord | None = Field(default=None, exclude=True)


class Session:
    """One conversation over a scenario, run in-process by an ``Engine``.

    Sync methods (``send``, ``info``) work in scripts and inside a running event loop such as
    a Jupyter cell; async code uses ``asend`` and ``ainfo``.
    """

    def __init__(self, engine: Engine, session_id: str, scenario: Scenario, initial: Reply) -> None:
        self._engine = engine
        self.id = session_id
        self.scenario = scenario
        self.initial_reply = initial

    async def asend(self, text: str, confidence: float = 0.0) -> Reply:
        return await self._engine.amessage(self.id, text, confidence)

    def send(self, text: str, confidence: float = 0.0) -> Reply:
        return self._engine.portal.run(self.asend(text, confidence))

    async def ainfo(self) -> ChatbotSessionInfoResponse:
        return await self._engine.ainfo(self.id)

    def info(self) -> ChatbotSessionInfoResponse:
        return self._engine.portal.run(self.ainfo())

    async def apath(self) -> list[str]:
        return (await self._engine.arecords(self.id, "visits")).path

    def path(self) -> list[str]:
        """Every node the session entered, in order (nodes passed through included; the most
        recent ``history_limit``)."""
        return self._engine.portal.run(self.apath())

    async def atranscript(self) -> list[TurnRecord]:
        return await self._engine.atranscript(self.id)

    def transcript(self) -> list[TurnRecord]:
        """Every turn so far, one row each (see ``dialogkit.notebook`` for tables/exports)."""
        return self._engine.portal.run(self.atranscript())

    def __repr__(self) -> str:
        return f"Session(id={self.id!r}, scenario={self.scenario.slug!r})"
