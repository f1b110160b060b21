"""What NLU produces for one utterance."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class NLUResult(BaseModel):
    """Intent, typed entities (named after slots), confidence and dialogue act of an utterance.

    ``intent`` is None when nothing was recognised; that alone is not a fallback.
    """

    intent: str | None = None
    entities: dict[str, Any] = Field(default_factory=dict)
    confidence: float = 0.0
    dialogue_act: str | None = None
    source: str = Field(
        "rules",
        description="Which tier decided: rules, embeddings, llm, or gate (the input gate).",
    )
    score: float | None = Field(
        None, description="The embedding tier's cosine for the intent it weighed first."
    )
    runner_up: str | None = Field(
        None, description="The embedding tier's second-best intent (its margin is the doubt)."
    )

    def scope(self) -> dict[str, Any]:
        """The ``nlu`` root of a turn's scope."""
        return {
            "intent": self.intent,
            "entities": dict(self.entities),
            "confidence": self.confidence,
            "dialogue_act": self.dialogue_act,
        }
