"""The offline NLG: the scenario's own (already rendered) sentences, as they are."""

from __future__ import annotations

from dialogkit.nlg._base import NLGRequest


class TemplateNLG:
    """Returns the reference text; None when there is none, so the engine's defaults apply."""

    async def generate(self, request: NLGRequest) -> str | None:
        return request.reference or None
