"""The keyword options of starting a session, typed once for the engine and the clients.

``Engine.start``/``astart`` and ``Client.start``/``AsyncClient.start`` take these names as
``**options: Unpack[...]``, so editors complete them and mypy checks them. The options
themselves (types, defaults, constraints) are defined once, by ``dialogkit.wire.SessionOptions``;
these TypedDicts are their static view for keyword arguments (a test checks that the names
match): ``StartOptions`` are the fields of ``POST /v1/session`` a caller sets, and
``EngineStartOptions`` adds what only an in-process engine can honour.
"""

from __future__ import annotations

from typing import Any, TypedDict

from dialogkit.wire import ChatbotSessionUser, CompletionOptions

__all__ = ["EngineStartOptions", "StartOptions"]


class StartOptions(TypedDict, total=False):
    """Session options a remote service takes too (the session-create request's fields)."""

    user: ChatbotSessionUser | dict[str, Any] | None
    bot_first: bool | None
    llm_choice: str
    nlu_llm_choice: str
    user_system_prompt: str
    max_fallback_retries: int | None
    stt_confidence_threshold: float
    completion_options: CompletionOptions | dict[str, Any] | None


class EngineStartOptions(StartOptions, total=False):
    """``StartOptions`` plus ``hybrid_nlu``: a process setting, not part of the HTTP API."""

    hybrid_nlu: bool | None
