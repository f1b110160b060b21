"""The NLG provider interface shared by the template and the LLM implementations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from dialogkit.scenario.model import Node
from dialogkit.scenario.scenario import Scenario
from dialogkit.usage import Usage
from dialogkit.wire import HistoryEntry

NLGKind = Literal["reply", "greeting", "fallback"]
FallbackKind = Literal["no_input", "not_understood"]


@dataclass(frozen=True)
class NLGRequest:
    """One reply to write.

    ``reference`` is the rendered template text for this reply (the offline answer, and a
    reference for a model, not a script); ``facts`` says what the turn did (slots filled,
    skill output and citations, the question to ask next). For fallbacks, ``avoid`` holds the
    sentence to avoid and the recent assistant replies from the second attempt on.
    """

    kind: NLGKind
    scenario: Scenario
    node: Node
    reference: str = ""
    user_system_prompt: str = ""
    history: list[HistoryEntry] = field(default_factory=list)
    user: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    user_text: str = ""
    fallback_kind: FallbackKind | None = None
    question: str = ""
    avoid: list[str] = field(default_factory=list)
    attempt: int = 1
    model: str = ""
    usage: Usage = field(default_factory=Usage)
    deadline: float | None = None
    """The turn's deadline (a ``time.monotonic()`` instant): a model call ends by then."""

    @property
    def language(self) -> str:
        return self.scenario.language


class NLGProvider(Protocol):
    async def generate(self, request: NLGRequest) -> str | None:
        """The reply text, or None/empty when generation failed; must not raise."""
        ...
