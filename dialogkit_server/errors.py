"""How the service turns failures into the error bodies of the contract.

The contract has no unified error model: 400 and 404 answer ``{"detail": "..."}``, 422 answers
the FastAPI-style list of items, a busy session (``SessionBusy``) answers 429 with
``Retry-After`` and a ``detail`` in the same shape, and everything else is Sanic's standard
JSON error (generic, never a traceback). Handlers raise the exceptions below instead of
building responses, so a helper deep in request parsing can end the request with the right
shape.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sanic import HTTPResponse, Request, Sanic
from sanic.exceptions import SanicException
from sanic.handlers import ErrorHandler
from sanic.response import json as json_response

from dialogkit.errors import SessionBusy
from dialogkit.wire import ErrorDetail, ValidationErrorBody, ValidationErrorItem

ModelT = TypeVar("ModelT", bound=BaseModel)

SESSION_NOT_FOUND = "Session not found"
ECHO_CHARS = 200
"""How much of a rejected input a 422 echoes back."""

dumps = partial(json.dumps, ensure_ascii=False, separators=(",", ":"))
"""UTF-8 text as is (scenarios are often Korean or Japanese), compact separators.

Passed per response: ``Sanic(dumps=...)`` would change the encoder of every app in the process.
"""


def json_answer(body: Any, status: int = 200) -> HTTPResponse:
    """A JSON response encoded with ``dumps``."""
    return json_response(body, status=status, dumps=dumps)


class DetailError(SanicException):
    """An error answered as ``{"detail": message}`` (the 400, 401 and 404 rows)."""

    quiet = True

    def __init__(
        self, status_code: int, detail: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(detail, status_code=status_code, headers=headers)
        self.detail = detail


class RequestBodyInvalid(SanicException):
    """A request body that does not match its wire model: answered as a 422 item list.

    Kept apart from ``pydantic.ValidationError`` on purpose: a model error raised *inside*
    the engine is a bug, and must become a generic 500, not a 422 that leaks internals.
    """

    status_code = 422
    quiet = True

    def __init__(self, items: list[ValidationErrorItem]) -> None:
        super().__init__("Request body is invalid", status_code=422)
        self.items = items


def parse_body(request: Request, model: type[ModelT]) -> ModelT:
    """The request body as ``model``; every problem becomes a 422 whose ``loc`` starts at body.

    An empty body is reported like FastAPI reports a missing required body (type ``missing``),
    because the contract requires a JSON object even though every field has a default.
    """
    if not request.body:
        raise RequestBodyInvalid(
            [ValidationErrorItem(type="missing", loc=["body"], msg="Field required", input=None)]
        )
    try:
        return model.model_validate_json(request.body)
    except ValidationError as exc:
        raise RequestBodyInvalid(_items(exc)) from None


def _items(exc: ValidationError) -> list[ValidationErrorItem]:
    return [
        ValidationErrorItem(
            type=error["type"],
            loc=["body", *error["loc"]],
            msg=error["msg"],
            input=_jsonable(error.get("input")),
        )
        for error in exc.errors(include_url=False, include_context=False)
    ]


def _jsonable(value: Any) -> Any:
    """The rejected input as JSON can carry it, cut to ``ECHO_CHARS``.

    Undecodable bytes become text. A long input is echoed as a prefix (a long string as its
    first characters, a large object or array as the start of its JSON text), so a rejected
    2 MiB body costs a short answer, not a second copy of the body.
    """
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    if isinstance(value, str):
        return _prefix(value)
    try:
        text = dumps(value)
    except (TypeError, ValueError):
        return _prefix(repr(value))
    return value if len(text) <= ECHO_CHARS else _prefix(text)


def _prefix(text: str) -> str:
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "..."


def too_long(
    loc: list[str | int], value: str, limit: int, *, source: str = "body"
) -> RequestBodyInvalid:
    """The 422 pydantic would give for a string over ``max_length``, for a limit set at run
    time (a setting), which the wire model cannot declare; ``source`` is ``body`` or
    ``header``."""
    return RequestBodyInvalid(
        [
            ValidationErrorItem(
                type="string_too_long",
                loc=[source, *loc],
                msg=f"String should have at most {limit} characters",
                input=_jsonable(value),
            )
        ]
    )


def key_reused(header: str, key: str) -> RequestBodyInvalid:
    """The 422 for an idempotency key sent again with a different message (the IETF
    Idempotency-Key draft's status), in the contract's 422 shape, at the header."""
    return RequestBodyInvalid(
        [
            ValidationErrorItem(
                type="idempotency_key_reused",
                loc=["header", header],
                msg="This key was already used in this session for a different message: "
                "send a new key with a new message (the same message with the same key is a "
                "retry and gets the saved reply)",
                input=_jsonable(key),
            )
        ]
    )


async def _detail_error(request: Request, exc: Exception) -> HTTPResponse:
    assert isinstance(exc, DetailError)
    response = json_answer(ErrorDetail(detail=exc.detail).to_json(), exc.status_code)
    response.headers.update(exc.headers or {})
    return response


async def _body_invalid(request: Request, exc: Exception) -> HTTPResponse:
    assert isinstance(exc, RequestBodyInvalid)
    # model_dump, not to_json: each item keeps its ``input`` even when that input is null.
    body = ValidationErrorBody(detail=exc.items).model_dump(mode="json")
    return json_answer(body, 422)


async def _session_busy(request: Request, exc: Exception) -> HTTPResponse:
    """A turn that could not get its session within the lock wait: 429, nothing applied."""
    assert isinstance(exc, SessionBusy)
    response = json_answer(ErrorDetail(detail=str(exc)).to_json(), 429)
    response.headers["retry-after"] = str(exc.retry_after_s)
    return response


class PublicErrorHandler(ErrorHandler):
    """Sanic's error pages, never in their debug form (which carries the traceback).

    Even an app started with ``--debug`` must not send internal detail to clients; the
    traceback still goes to the server log.
    """

    @property
    def debug(self) -> bool:
        return False

    @debug.setter
    def debug(self, value: bool) -> None:
        """Sanic sets this from the app's mode at start-up; it is deliberately ignored."""


def register_error_handlers(app: Sanic[Any, Any]) -> None:
    """Install the contract's error bodies; the rest stays Sanic's generic JSON error."""
    app.exception(DetailError)(_detail_error)
    app.exception(RequestBodyInvalid)(_body_invalid)
    app.exception(SessionBusy)(_session_busy)
