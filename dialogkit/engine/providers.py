"""Which NLU and NLG provider a model name selects."""

from __future__ import annotations

from typing import Protocol

from dialogkit.nlg._base import NLGProvider
from dialogkit.nlg._templates import TemplateNLG
from dialogkit.nlu._base import NLUProvider
from dialogkit.nlu._rules import RuleNLU
from dialogkit.scenario.scenario import Scenario


class Router(Protocol):
    """Maps a resolved model name to providers; "" and "offline" mean the offline ones."""

    def nlu(self, model: str, *, hybrid: bool | None = None) -> NLUProvider: ...

    def nlg(self, model: str) -> NLGProvider: ...

    def serves(self, model: str) -> bool:
        """True when some provider the operator configured answers for ``model``."""
        ...

    async def prepare(self, scenario: Scenario) -> None:
        """Compute what the scenario's turns will need from the models (the embedding tier's
        vectors) before its first session starts; never raises for a model failure."""
        ...

    async def aclose(self) -> None: ...


class OfflineRouter:
    """Rules and templates for every model name: deterministic, no network."""

    def __init__(self) -> None:
        self._nlu = RuleNLU()
        self._nlg = TemplateNLG()

    def nlu(self, model: str, *, hybrid: bool | None = None) -> NLUProvider:
        return self._nlu

    def nlg(self, model: str) -> NLGProvider:
        return self._nlg

    def serves(self, model: str) -> bool:
        return True

    async def prepare(self, scenario: Scenario) -> None:
        return None

    async def aclose(self) -> None:
        return None
