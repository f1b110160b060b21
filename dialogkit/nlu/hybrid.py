"""Rules first, a language model only when the rules are unsure.

Most turns of a scripted conversation are answers the scenario's examples and slot types
recognise ("yes", a date, one of the listed options); sending those to a model costs time
and money for nothing. The threshold compares with the rule NLU's confidence.
"""

from __future__ import annotations

from dialogkit.nlu.base import NLUProvider, NLURequest
from dialogkit.nlu.result import NLUResult


class HybridNLU:
    """Uses the rule answer when its confidence reaches ``threshold``, else asks the model."""

    def __init__(self, rules: NLUProvider, model: NLUProvider, threshold: float) -> None:
        self.rules = rules
        self.model = model
        self.threshold = threshold

    async def understand(self, request: NLURequest) -> NLUResult:
        result = await self.rules.understand(request)
        if result.confidence >= self.threshold:
            return result
        return await self.model.understand(request)
