"""The rules of a skill call that need no network: the request, the checks, the outcome.

They live apart from the HTTP client so that each rule of the outbound contract can be read
in one place, and so that a runner with another transport would apply exactly the same rules.
Failures are raised as ``SkillError`` with a ``SkillErrorCode`` and turned into an outcome by
``failure_outcome``; nothing here is shown to a client except the fallback reply.
"""

from __future__ import annotations

import dataclasses
import json
import math
import uuid
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import BaseModel, ValidationError

from dialogkit.errors import SkillError
from dialogkit.nlg._phrases import skill_error
from dialogkit.sanitize import clean_text, clean_value
from dialogkit.scenario.model import NodeParams
from dialogkit.scenario.paths import MISSING, resolve
from dialogkit.scenario.templates import render, variants
from dialogkit.scenario.validate import ENGINE_CONTEXT_KEYS
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.wire import SkillContext, SkillRequest, SkillResponse


class SkillErrorCode(StrEnum):
    """Why a skill call failed; recorded in ``SkillOutcome.error_code`` for the logs."""

    TIMEOUT = "SKILL_RUNTIME_TIMEOUT"
    UNAVAILABLE = "SKILL_RUNTIME_UNAVAILABLE"
    HTTP_ERROR = "SKILL_RUNTIME_HTTP_ERROR"
    RESPONSE_TOO_LARGE = "SKILL_RUNTIME_RESPONSE_TOO_LARGE"
    INVALID_RESPONSE = "SKILL_RUNTIME_INVALID_RESPONSE"
    FAILED = "SKILL_RUNTIME_FAILED"


DIRECT_REPLY_KEYS: Final = ("response", "answer", "summary", "text")
"""Result keys tried, in order, for the reply of a direct-mode node."""

FAILURE_TEMPLATES: Final = ("skill_error", "error", "default")
SUCCESS_TEMPLATES: Final = ("success", "default")
DETAIL_CHARS: Final = 300


def build_request(call: SkillCall) -> SkillRequest:
    """The body of ``POST /v1/skills/execute`` for one call (a fresh request id each time)."""
    params = call.node.params
    return SkillRequest(
        skill_id=params.skill,
        arguments=skill_arguments(params, call.scope),
        context=SkillContext(
            request_id=str(uuid.uuid4()),
            session_id=call.session_id,
            skill_version=params.skill_version or call.scenario.document.metadata.version,
            locale=call.locale,
            timezone=call.timezone,
        ),
    )


def skill_arguments(params: NodeParams, scope: Mapping[str, Any]) -> dict[str, Any]:
    """Fixed arguments, then the user's coordinates, then ``input_map`` values (which win).

    An ``input_map`` path that leads nowhere (or to null) is left out, so a fixed argument of
    the same name stays as the default.
    """
    arguments = dict(params.arguments)
    if params.location_based:
        arguments.update(location_arguments(scope))
    for name, path in params.input_map.items():
        value = resolve(scope, path)
        if value is not MISSING and value is not None:
            arguments[name] = value
    return arguments


def location_arguments(scope: Mapping[str, Any]) -> dict[str, float]:
    """``latitude``/``longitude`` from ``user.location``, only for valid WGS84 coordinates.

    A city name given as text is not a position, so it yields nothing rather than a guess.
    """
    location = resolve(scope, "user.location")
    if isinstance(location, BaseModel):
        location = location.model_dump()
    if not isinstance(location, Mapping):
        return {}
    latitude = _coordinate(location.get("latitude"), 90)
    longitude = _coordinate(location.get("longitude"), 180)
    if latitude is None or longitude is None:
        return {}
    return {"latitude": latitude, "longitude": longitude}


def _coordinate(value: Any, bound: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and -bound <= value <= bound else None


def parse_response(body: bytes) -> dict[str, Any]:
    """The ``result`` object of a runtime's answer; raises ``SkillError`` when unusable."""
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise SkillError(
            SkillErrorCode.INVALID_RESPONSE, f"the body is not JSON: {_excerpt(body)}"
        ) from exc
    if not isinstance(data, dict):
        raise SkillError(
            SkillErrorCode.INVALID_RESPONSE, f"the body is not a JSON object: {_excerpt(data)}"
        )
    if data.get("success") is False:
        raise SkillError(
            SkillErrorCode.FAILED, f"the runtime reported failure: {_excerpt(data.get('error'))}"
        )
    try:
        result = SkillResponse.model_validate(data, strict=True).result
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        raise SkillError(SkillErrorCode.INVALID_RESPONSE, problems) from exc
    for key, expected in (("citations", list), ("slot_updates", dict), ("context_updates", dict)):
        if key in result and not isinstance(result[key], expected):
            raise SkillError(
                SkillErrorCode.INVALID_RESPONSE,
                f"result.{key} must be {'a list' if expected is list else 'an object'}, "
                f"got {_excerpt(result[key])}",
            )
    return result


def success_outcome(call: SkillCall, result: dict[str, Any]) -> SkillOutcome:
    """What a good result means for the turn: filtered updates and the reply (or NLG input)."""
    params = call.node.params
    slot_updates, context_updates = updates_from(params, result)
    mode: Literal["direct", "nlg"] = "nlg" if params.response_mode == "nlg" else "direct"
    reply = None
    if mode == "direct":
        reply = direct_reply(call, result, _with_updates(call.scope, slot_updates, context_updates))
    return SkillOutcome(
        status="success",
        mode=mode,
        reply=reply,
        output=result,
        citations=list(result.get("citations", [])),
        slot_updates=slot_updates,
        context_updates=context_updates,
    )


def failure_outcome(call: SkillCall, code: str, detail: str) -> SkillOutcome:
    """A failed call: the scenario's fallback (or the built-in sentence), no updates.

    The mode is always ``direct`` so that the engine says the fallback instead of handing an
    empty output to NLG.
    """
    reply = _first_text(
        [call.node.params.fallback, *_templates(call, FAILURE_TEMPLATES)], call.scope
    )
    return SkillOutcome(
        status="error",
        reply=reply or skill_error(call.scenario.language),
        error_code=code,
        error_detail=detail,
    )


def clean_outcome(call: SkillCall, outcome: SkillOutcome, max_chars: int) -> SkillOutcome:
    """The outcome with every text a runtime sent cleaned (``dialogkit.sanitize``).

    Applied by the engine to whatever runner answered, so a runtime's lone surrogate or
    control character never reaches the stored state, the reply or an NLG prompt. A direct
    reply that is empty once cleaned is a failed call: the node's fallback is said instead.
    """
    reply = outcome.reply
    if reply is not None:
        reply = clean_text(reply, max_chars)
    cleaned = dataclasses.replace(
        outcome,
        reply=reply,
        output=clean_value(outcome.output, max_chars),
        citations=clean_value(outcome.citations, max_chars),
        slot_updates=clean_value(outcome.slot_updates, max_chars),
        context_updates=clean_value(outcome.context_updates, max_chars),
        error_detail=None
        if outcome.error_detail is None
        else clean_text(outcome.error_detail, max_chars),
    )
    if outcome.status == "success" and outcome.mode == "direct" and not reply:
        return failure_outcome(
            call,
            SkillErrorCode.INVALID_RESPONSE,
            "the reply is empty once control characters are removed",
        )
    return cleaned


def updates_from(
    params: NodeParams, result: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Slot and context updates: allowed runtime updates first, then ``result_map`` copies.

    ``allowed_updates`` entries are bare keys (allowed in slots and context) or qualified as
    ``slots.NAME`` / ``context.KEY``. Keys starting with ``_`` and the engine's own context
    keys are dropped even when listed or mapped.
    """
    updates: dict[str, dict[str, Any]] = {"slots": {}, "context": {}}
    for root, field in (("slots", "slot_updates"), ("context", "context_updates")):
        for key, value in result.get(field, {}).items():
            if (key in params.allowed_updates or f"{root}.{key}" in params.allowed_updates) and (
                _writable(root, key)
            ):
                updates[root][key] = value
    for destination, path in params.result_map.items():
        root, _, key = destination.partition(".")
        value = resolve(result, path)
        if root in updates and key and _writable(root, key) and value is not MISSING:
            updates[root][key] = value
    return updates["slots"], updates["context"]


def _writable(root: str, key: str) -> bool:
    return not key.startswith("_") and not (root == "context" and key in ENGINE_CONTEXT_KEYS)


def direct_reply(call: SkillCall, result: Mapping[str, Any], scope: Mapping[str, Any]) -> str:
    """The reply of a direct-mode node, by the spec's order of preference.

    Templates are rendered over ``scope`` (the turn's scope with this call's updates applied),
    so a success template reaches the result through the slots and context that
    ``result_map`` filled.
    """
    path = call.node.params.response_path
    candidates = [resolve(result, path)] if path else []
    candidates += [result.get(key) for key in DIRECT_REPLY_KEYS]
    for value in candidates:
        if isinstance(value, str) and value.strip():
            return value.strip()
    template = _first_text(_templates(call, SUCCESS_TEMPLATES), scope)
    if template:
        return template
    return json.dumps(result, ensure_ascii=False) if result else ""


def _templates(call: SkillCall, keys: tuple[str, ...]) -> list[str]:
    """The node's templates for ``keys`` in order, then the scenario-wide ones, as the engine
    looks them up everywhere else."""
    sources = (call.node.responses, call.scenario.document.responses)
    return [variant for source in sources for key in keys for variant in variants(source.get(key))]


def _first_text(templates: Iterable[str], scope: Mapping[str, Any]) -> str:
    for template in templates:
        text = render(template, scope) if template else ""
        if text:
            return text
    return ""


def _with_updates(
    scope: Mapping[str, Any], slot_updates: dict[str, Any], context_updates: dict[str, Any]
) -> dict[str, Any]:
    merged = dict(scope)
    for root, updates in (("slots", slot_updates), ("context", context_updates)):
        current = scope.get(root)
        merged[root] = {**(current if isinstance(current, Mapping) else {}), **updates}
    return merged


def _excerpt(value: Any) -> str:
    """A short printable form of a runtime's value, for ``error_detail``."""
    if isinstance(value, bytes):
        text = value.decode("utf-8", errors="replace")
    else:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= DETAIL_CHARS else text[:DETAIL_CHARS] + "..."
