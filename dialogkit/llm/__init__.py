"""Language models behind OpenAI-compatible endpoints.

``ModelRouter`` maps model names to providers; the modules inside (``_endpoints`` reads the
per-model endpoint mapping, ``_clients`` shares one client per endpoint and event loop,
``_chat`` holds the call policy both providers follow) are private. The router is imported on
first use, because the providers in ``dialogkit.nlu`` and ``dialogkit.nlg`` import these
modules and the router imports the providers.
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from dialogkit.llm._router import ModelRouter

__all__ = ["ModelRouter"]


def __getattr__(name: str) -> _Any:
    if name != "ModelRouter":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from dialogkit.llm._router import ModelRouter

    globals()[name] = ModelRouter
    return ModelRouter


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if name.startswith("_")), *__all__})
