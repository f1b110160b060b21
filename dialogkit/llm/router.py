"""Model names to providers: the offline ones, or OpenAI-compatible endpoints.

The engine resolves which name a session uses (request value, then ``CORE_DEFAULT_LLM`` or
``CORE_NLU_LLM``); the router only knows where each name is served and shares the clients.
"""

from __future__ import annotations

from dialogkit.llm.clients import ClientPool
from dialogkit.llm.endpoints import Endpoint, parse_endpoints
from dialogkit.nlg.base import NLGProvider
from dialogkit.nlg.llm import LLMNLG
from dialogkit.nlu.base import NLUProvider
from dialogkit.nlu.hybrid import HybridNLU
from dialogkit.nlu.llm import LLMNLU
from dialogkit.settings import OFFLINE_MODEL, Settings


def is_offline(model: str) -> bool:
    """True for the names that select the rule NLU and the template NLG."""
    return model.strip() in ("", OFFLINE_MODEL)


class ModelRouter:
    """Builds NLU and NLG providers for model names; owns the HTTP clients they share.

    Raises ``LLMError`` at construction when ``DIALOGKIT_LLM_ENDPOINTS`` cannot be read, so a
    misconfigured process fails at start-up rather than on the first turn.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.default_endpoint = Endpoint(
            base_url=settings.openai_base_url, api_key=settings.openai_api_key
        )
        self.endpoints = parse_endpoints(settings.llm_endpoints)
        self._pool = ClientPool(
            timeout=settings.llm_timeout_s, max_retries=settings.llm_max_retries
        )

    def endpoint(self, model: str) -> Endpoint:
        """Where ``model`` is served: its mapped endpoint, else the default one."""
        return self.endpoints.get(model, self.default_endpoint)

    def nlu(self, model: str, *, hybrid: bool | None = None) -> NLUProvider:
        """The NLU for ``model``; ``hybrid`` (default: the setting) puts the rules first."""
        from dialogkit.nlu.rules import RuleNLU

        if is_offline(model):
            return RuleNLU()
        provider = LLMNLU(self._pool.factory(self.endpoint(model)), model)
        if self.settings.hybrid_nlu if hybrid is None else hybrid:
            return HybridNLU(RuleNLU(), provider, self.settings.hybrid_nlu_threshold)
        return provider

    def nlg(self, model: str) -> NLGProvider:
        """The NLG for ``model``."""
        from dialogkit.nlg.templates import TemplateNLG

        if is_offline(model):
            return TemplateNLG()
        return LLMNLG(self._pool.factory(self.endpoint(model)), model)

    async def aclose(self) -> None:
        """Close the HTTP clients of every event loop the router was used on."""
        await self._pool.aclose()
