"""The reference skill runtime: a Sanic app serving the outbound skill contract.

It exists so that scenarios with skill nodes run end to end on one machine, and as a worked
example for writing a runtime of your own (see ``docs/skills.md``). Routes:

- ``POST /v1/skills/execute``: a ``SkillRequest`` in; ``{"success": true, "result": {...},
  "metadata": {...}}`` out, or an ``ErrorBody`` with 400 (bad arguments), 404 (unknown
  skill), 422 (a body that is not a ``SkillRequest``) or 500.
- ``GET /health``: ``{"status": "ok", "skills": [...]}``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from types import MappingProxyType, SimpleNamespace
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError
from sanic import HTTPResponse, Request, Sanic
from sanic.config import Config
from sanic.exceptions import SanicException
from sanic.response import json

from dialogkit.skills.runtime import fire_mission, issue_card, local_time, sun_times
from dialogkit.skills.runtime.arguments import InvalidArguments
from dialogkit.wire import SkillContext, SkillRequest

SkillFunction = Callable[[Mapping[str, Any], SkillContext], dict[str, Any]]
"""A skill: arguments and context in, a result object out; ``InvalidArguments`` for a 400."""

SKILLS: Mapping[str, SkillFunction] = MappingProxyType(
    {
        "sun_times": sun_times.run,
        "local_time": local_time.run,
        "issue_card": issue_card.run,
        "fire_mission": fire_mission.run,
    }
)
RUNTIME_NAME = "dialogkit-reference-runtime"


class FieldProblem(BaseModel):
    field: str = Field(description="Argument name, or the request field's dotted path.")
    message: str


ErrorCode = Literal[
    "INVALID_ARGUMENTS", "INVALID_REQUEST", "UNKNOWN_SKILL", "HTTP_ERROR", "INTERNAL"
]


class ErrorInfo(BaseModel):
    code: ErrorCode
    message: str
    details: list[FieldProblem] = Field(default_factory=list)


class ErrorBody(BaseModel):
    """Every error answer of the reference runtime."""

    success: Literal[False] = False
    error: ErrorInfo


def error_response(
    status: int, code: ErrorCode, message: str, details: list[FieldProblem] | None = None
) -> HTTPResponse:
    body = ErrorBody(error=ErrorInfo(code=code, message=message, details=details or []))
    return json(body.model_dump(mode="json"), status=status)


def create_runtime_app(
    skills: Mapping[str, SkillFunction] | None = None, *, name: str | None = None
) -> Sanic[Config, SimpleNamespace]:
    """A runtime app serving ``skills`` (default: the reference skills in ``SKILLS``).

    Sanic keeps a registry of app names per process, so each call gets a fresh name unless
    one is given.
    """
    registry = dict(SKILLS if skills is None else skills)
    app = Sanic(name or f"dialogkit_skills_{uuid.uuid4().hex[:12]}")
    app.config.AUTO_EXTEND = False
    app.config.REQUEST_MAX_SIZE = 1024 * 1024

    @app.get("/health")
    async def health(request: Request) -> HTTPResponse:
        return json({"status": "ok", "skills": sorted(registry)})

    @app.post("/v1/skills/execute")
    async def execute(request: Request) -> HTTPResponse:
        started = time.perf_counter()
        try:
            call = SkillRequest.model_validate_json(request.body)
        except ValidationError as exc:
            problems = [
                FieldProblem(field=".".join(map(str, e["loc"])) or "body", message=e["msg"])
                for e in exc.errors(include_url=False)
            ]
            return error_response(
                422, "INVALID_REQUEST", "The body is not a skill request.", problems
            )
        skill = registry.get(call.skill_id)
        if skill is None:
            return error_response(
                404,
                "UNKNOWN_SKILL",
                f"No skill {call.skill_id!r}; this runtime serves {', '.join(sorted(registry))}.",
            )
        try:
            result = skill(call.arguments, call.context)
        except InvalidArguments as exc:
            problems = [FieldProblem(field=k, message=v) for k, v in exc.problems.items()]
            return error_response(400, "INVALID_ARGUMENTS", str(exc), problems)
        metadata = {
            "skill_id": call.skill_id,
            "request_id": call.context.request_id,
            "runtime": RUNTIME_NAME,
            "duration_ms": round((time.perf_counter() - started) * 1000, 3),
        }
        return json({"success": True, "result": result, "metadata": metadata})

    @app.exception(Exception)
    async def failure(request: Request, exc: Exception) -> HTTPResponse:
        if isinstance(exc, SanicException) and exc.status_code < 500:
            return error_response(exc.status_code, "HTTP_ERROR", str(exc))
        return error_response(500, "INTERNAL", f"{type(exc).__name__}: {exc}")

    return app


def serve(host: str = "127.0.0.1", port: int = 8100) -> None:
    """Run the reference runtime in this process until interrupted (blocking)."""
    create_runtime_app().run(host=host, port=port, single_process=True)
