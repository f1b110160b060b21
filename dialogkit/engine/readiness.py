"""Readiness: can this process serve turns right now? (``GET /v1/ready``)

Liveness (``GET /``) only proves the process answers HTTP. A process whose skill runtime is
down, whose model endpoint is unreachable or whose store does not answer still answers every
turn with fallbacks and ``200``: without this check such an outage is silent. Each check is
bounded by its own time limit, so readiness answers even when a dependency hangs.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

import httpx

from dialogkit.wire import ReadinessCheck, ReadinessResponse

if TYPE_CHECKING:
    from dialogkit.engine.engine import Engine

PROBE_TIMEOUT_S: Final = 2.0
PROBE_SESSION_ID: Final = "dialogkit-readiness-probe"
"""A session id no session has: reading it proves the store answers."""


@runtime_checkable
class ReportsHealth(Protocol):
    """A skill runner that can say whether its calls can succeed (``HTTPSkillRunner``)."""

    async def health(self) -> tuple[bool, str]: ...


async def readiness(engine: Engine) -> ReadinessResponse:
    """Every check at once; ready only when all of them are."""
    skills, models, store = await asyncio.gather(
        _skill_runtime(engine), _models(engine), _store(engine)
    )
    checks = {"skill_runtime": skills, "models": models, "store": store}
    failing = [name for name, check in checks.items() if not check.ready]
    return ReadinessResponse(ready=not failing, not_ready=failing, checks=checks)


async def _skill_runtime(engine: Engine) -> ReadinessCheck:
    if not isinstance(engine.skills, ReportsHealth):
        return ReadinessCheck(ready=True, detail="in-process skill runner")
    ready, detail = await engine.skills.health()
    return ReadinessCheck(ready=ready, detail=detail)


async def _models(engine: Engine) -> ReadinessCheck:
    """Probe each endpoint the configured models are served from (any HTTP answer is up)."""
    from dialogkit.llm._router import ModelRouter, is_offline

    router = engine.router
    if not isinstance(router, ModelRouter):
        return ReadinessCheck(ready=True, detail="in-process providers")
    settings = engine.settings
    names = {settings.core_default_llm, settings.core_nlu_llm, *router.endpoints}
    endpoints = [router.endpoint(n) for n in names if not is_offline(n)]
    urls = sorted({e.base_url for e in endpoints if e is not None})
    if not urls:
        return ReadinessCheck(ready=True, detail="offline providers only")
    problems = [p for p in await asyncio.gather(*(_probe_models(u) for u in urls)) if p]
    if problems:
        return ReadinessCheck(ready=False, detail="; ".join(problems))
    return ReadinessCheck(ready=True, detail=f"{len(urls)} endpoint(s) reachable")


async def _probe_models(base_url: str) -> str:
    """Empty when ``base_url`` answers."""
    try:
        async with httpx.AsyncClient(timeout=httpx.Timeout(PROBE_TIMEOUT_S)) as client:
            response = await client.get(base_url.rstrip("/") + "/models")
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        return f"{base_url} unreachable: {type(exc).__name__}"
    if response.status_code >= 500:
        return f"{base_url} answers HTTP {response.status_code}"
    return ""


async def _store(engine: Engine) -> ReadinessCheck:
    try:
        async with asyncio.timeout(PROBE_TIMEOUT_S):
            await engine.store.load(PROBE_SESSION_ID)
    except Exception as exc:  # any failure of the store is the answer, not an error
        return ReadinessCheck(ready=False, detail=f"{type(exc).__name__}: {exc}")
    return ReadinessCheck(ready=True, detail=type(engine.store).__name__)


__all__ = ["ReportsHealth", "readiness"]
