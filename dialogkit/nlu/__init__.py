"""Natural-language understanding: the provider interface and the built-in providers.

Provider authors import from here, not from the modules inside::

    from dialogkit.nlu import NLUProvider, NLURequest, NLUResult, coerce

``coerce(slot, value)`` turns a model's raw value into the slot's typed value (or
``INVALID``), exactly as the rule NLU does, so a custom provider fills slots with the same
values the engine would accept.

The names are imported on first use: the scenario package reads the built-in intents from
``dialogkit.nlu._builtin`` while it loads, before the providers could be imported.
"""

from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from dialogkit.nlu._base import NLUProvider, NLURequest
    from dialogkit.nlu._entities import INVALID, coerce, extract, validate
    from dialogkit.nlu._frame import Frame
    from dialogkit.nlu._hybrid import HybridNLU
    from dialogkit.nlu._result import NLUResult
    from dialogkit.nlu._rules import RuleNLU

__all__ = [
    "INVALID",
    "Frame",
    "HybridNLU",
    "NLUProvider",
    "NLURequest",
    "NLUResult",
    "RuleNLU",
    "coerce",
    "extract",
    "validate",
]

_HOMES = {
    "INVALID": "_entities",
    "Frame": "_frame",
    "HybridNLU": "_hybrid",
    "NLUProvider": "_base",
    "NLURequest": "_base",
    "NLUResult": "_result",
    "RuleNLU": "_rules",
    "coerce": "_entities",
    "extract": "_entities",
    "validate": "_entities",
}


def __getattr__(name: str) -> _Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if name.startswith("_")), *__all__})
