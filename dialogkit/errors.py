"""The exception hierarchy of dialogkit.

Every error dialogkit raises on purpose derives from one root, so callers can catch
``DialogkitError`` and know they have seen everything::

    DialogkitError
    ├── ScenarioError            a scenario could not be found, parsed or used
    │   ├── ScenarioNotFound     a name that is not registered, or a missing file
    │   └── ScenarioInvalid      a graph with error-severity problems
    ├── SessionNotFound          a session id that is unknown or whose state expired
    ├── SessionBusy              other turns held a session's lock longer than a turn waits
    ├── LockLost                 a turn's session lock expired before it saved (nothing saved)
    ├── IdempotencyKeyReused     a turn's key sent again with a different message
    ├── SkillError               the skill runtime failed (never raised out of a turn)
    ├── LLMError                 a language-model call failed (never raised out of a turn)
    │   └── CassetteMiss         a replayed run made a call its cassette does not hold
    ├── ConfigurationError       settings that cannot work together (refused at start-up)
    ├── InvalidOption            an option or argument of a call has an unusable value
    ├── TransportError           the remote service could not be reached or did not answer
    │   ├── ConnectionFailed     refused, unresolved, or closed before an answer (reset)
    │   └── RequestTimeout       no answer within the client's timeout
    └── APIError                 the remote service (or a proxy before it) answered an error
        ├── BadRequest           400
        ├── ValidationFailed     422
        └── ServerError          5xx, including a proxy's 502/503/504 page

The remote client raises ``SessionBusy`` for a 429 (``retry_after_s`` from ``Retry-After``),
and ``SessionNotFound`` for a contract 404 (a JSON ``detail``) on a session route and for a
reference service's 500 on ``/v1/message`` (unless the 500 is an HTML page, which only a proxy
or a broken deployment sends), so code written against a local ``Session`` catches the same
class against a deployed service. Every remote error's message names the URL and says what to
check.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

if TYPE_CHECKING:
    from dialogkit.scenario.problems import Problem


class DialogkitError(Exception):
    """Root of every error dialogkit raises on purpose."""


class ScenarioError(DialogkitError):
    """A scenario could not be found, parsed or used."""


class ScenarioNotFound(ScenarioError):
    """A scenario name is not registered, or a scenario file does not exist."""


class ScenarioInvalid(ScenarioError):
    """A scenario graph has error-severity problems; ``problems`` lists all of them."""

    def __init__(self, message: str, problems: list[Problem]) -> None:
        self.problems = problems
        lines = [message, *(f"  - {p}" for p in problems)]
        super().__init__("\n".join(lines))


class SessionNotFound(DialogkitError):
    """A session id is unknown, or its dialogue state expired."""

    def __init__(
        self,
        session_id: str = "",
        *,
        status_code: int | None = None,
        body: Any = None,
    ) -> None:
        self.session_id = session_id
        self.status_code = status_code
        self.body = body
        super().__init__(f"Session not found: {session_id!r}")


class SessionBusy(DialogkitError):
    """Other turns of the session held its lock for longer than a turn may wait for it.

    Nothing of the turn was applied: the client may send it again after ``retry_after_s``.
    The service answers it as a 429 with ``Retry-After``, and the remote client raises it
    again from that answer: then ``waited_s`` is ``None`` (the wait was the service's) and
    ``status_code``, ``body`` and the message are the answer's.
    """

    def __init__(
        self,
        waited_s: float | None,
        retry_after_s: int = 1,
        *,
        message: str | None = None,
        status_code: int | None = None,
        body: Any = None,
    ) -> None:
        self.waited_s = waited_s
        self.retry_after_s = retry_after_s
        self.status_code = status_code
        self.body = body
        held = "" if waited_s is None else f" for {waited_s:g} s"
        super().__init__(
            message
            or f"Session is busy: other turns of this session held it{held} "
            f"(DIALOGKIT_LOCK_WAIT_S); nothing was applied, retry after {retry_after_s} s."
        )


class LockLost(DialogkitError):
    """A turn's session lock expired or was taken over before it saved; nothing was saved."""


class IdempotencyKeyReused(DialogkitError):
    """An idempotency key of a session was sent again with a different message.

    A retry must repeat its turn exactly; answering the saved reply of another message would
    tell the client that a message was applied when it was not.
    """

    def __init__(self, key: str) -> None:
        self.key = key
        shown = key if len(key) <= 80 else key[:80] + "..."
        super().__init__(
            f"Idempotency key {shown!r} was already used in this session for a different "
            "message: send a new key with each new message, and the same message with a retry."
        )


class SkillError(DialogkitError):
    """The skill runtime failed; ``code`` is a stable machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"{code}: {message}")


class LLMError(DialogkitError):
    """A language-model call failed or answered something unusable."""


class CassetteMiss(LLMError):
    """A replayed run made a model call its cassette does not hold.

    Unlike other model failures it is raised out of the turn: a replay that quietly fell
    back would pass while testing something else than what was recorded.
    """

    def __init__(self, path: object, key: str, model: str, user_text: str) -> None:
        self.path = path
        self.key = key
        self.model = model
        shown = user_text if len(user_text) <= 80 else user_text[:80] + "..."
        super().__init__(
            f"LLM cassette {str(path)!r} has no answer for a call to model {model!r} "
            f"(key {key[:12]}, user message {shown!r}): the prompt changed since it was "
            "recorded. Re-record with llm_cassette_mode='record', or add the missing calls "
            "with 'record_missing'."
        )


class ConfigurationError(DialogkitError):
    """Settings that cannot work together, such as several workers on the memory store."""


class InvalidOption(DialogkitError, ValueError):
    """An option of a session, a message or a client has a value that cannot be used;
    ``fields`` names them. Raised before anything is started or sent."""

    def __init__(self, fields: list[str], message: str) -> None:
        self.fields = fields
        super().__init__(message)

    @classmethod
    def of(cls, exc: ValidationError, prefix: str = "") -> InvalidOption:
        """The options a pydantic error names, each with what was wrong and what was given."""
        fields: list[str] = []
        reasons: list[str] = []
        for error in exc.errors():
            name = ".".join(str(part) for part in (prefix, *error["loc"]) if part != "")
            fields.append(name)
            reasons.append(f"{name}: {error['msg']} (got {error.get('input')!r})")
        return cls(fields, f"Invalid option {'; '.join(reasons)}.")


@contextmanager
def checked_options(prefix: str = "") -> Iterator[None]:
    """Turn a validation error of the options built inside into ``InvalidOption``."""
    try:
        yield
    except ValidationError as exc:
        raise InvalidOption.of(exc, prefix) from None


class TransportError(DialogkitError):
    """The remote service could not be reached or did not answer; ``url`` is where."""

    def __init__(self, url: str, message: str) -> None:
        self.url = url
        super().__init__(message)


class ConnectionFailed(TransportError):
    """No connection (refused, unknown host) or one closed before the answer (reset)."""


class RequestTimeout(TransportError):
    """The service did not answer within the client's timeout."""


class APIError(DialogkitError):
    """The remote service answered with an error status; carries status and body."""

    def __init__(self, status_code: int, body: Any, message: str | None = None) -> None:
        self.status_code = status_code
        self.body = body
        super().__init__(message or f"HTTP {status_code}: {body!r}")


class BadRequest(APIError):
    """HTTP 400: the service rejected the request's content (e.g. an unknown scenario)."""


class ValidationFailed(APIError):
    """HTTP 422: the request body did not match the wire model."""


class ServerError(APIError):
    """HTTP 5xx: the service failed while handling the request."""
