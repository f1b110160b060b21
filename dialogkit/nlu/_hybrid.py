"""Understanding in tiers, cheapest first: rules, then embeddings, then a language model.

Most turns of a scripted conversation are answers the scenario's examples and slot types
recognise ("yes", a date, one of the listed options); sending those further costs time and
money for nothing. The threshold compares with the rule NLU's confidence: at or above it the
rules decide alone. Below it, the embedding tier (when configured) compares the utterance's
meaning with the scenario's sentences and may pick the intent, keeping the rules' values;
when it abstains, the language model (when configured) gets the turn, else the rules' answer
stands. The result's ``source`` says which tier decided, and ``score``/``runner_up`` what the
embedding tier saw, decided or not.
"""

from __future__ import annotations

from dataclasses import replace

from dialogkit.nlu._base import NLUProvider, NLURequest
from dialogkit.nlu._embeddings import EmbeddingTier
from dialogkit.nlu._result import NLUResult


class HybridNLU:
    """Rules; below ``threshold`` the embedding tier; when that abstains, ``model``."""

    def __init__(
        self,
        rules: NLUProvider,
        model: NLUProvider | None,
        threshold: float,
        *,
        embeddings: EmbeddingTier | None = None,
    ) -> None:
        self.rules = rules
        self.model = model
        self.threshold = threshold
        self.embeddings = embeddings

    async def understand(self, request: NLURequest) -> NLUResult:
        result = await self.rules.understand(request)
        if result.confidence >= self.threshold or not request.text.strip():
            return result
        if self.embeddings is not None:
            judgement = await self.embeddings.judge(request, result)
            if judgement is not None:
                if judgement.decided:
                    return replace(
                        result,
                        intent=judgement.intent,
                        confidence=max(result.confidence, min(judgement.score, 1.0)),
                        source="embeddings",
                        score=judgement.score,
                        runner_up=judgement.runner_up,
                    )
                result = replace(result, score=judgement.score, runner_up=judgement.runner_up)
        if self.model is not None:
            return await self.model.understand(request)
        return result
