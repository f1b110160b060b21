"""What NLU produces for one utterance."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True, kw_only=True)
class NLUResult:
    """Intent, typed entities (named after slots), confidence and dialogue act of an utterance.

    ``intent`` is None when nothing was recognised; that alone is not a fallback. Plain data
    (built with keyword arguments): a provider fills it, the engine reads it, nothing
    validates it on the way.
    """

    intent: str | None = None
    entities: dict[str, Any] = field(default_factory=dict)
    confidence: float = 0.0
    dialogue_act: str | None = None
    source: str = "rules"
    """Which tier decided: rules, embeddings, llm, or gate (the input gate)."""
    score: float | None = None
    """The embedding tier's cosine for the intent it weighed first, when it was asked."""
    runner_up: str | None = None
    """The embedding tier's second-best intent (its margin is the doubt)."""

    def scope(self) -> dict[str, Any]:
        """The ``nlu`` root of a turn's scope."""
        return {
            "intent": self.intent,
            "entities": dict(self.entities),
            "confidence": self.confidence,
            "dialogue_act": self.dialogue_act,
        }
