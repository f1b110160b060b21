"""The HTTP service: a thin adapter between the wire models and the engine.

Every route parses a wire model, calls the engine and maps the outcome to the contract in
``shared/spec/http-api.md``; nothing about dialogue lives here. Routes are mounted twice when a
root path (``DIALOGKIT_ROOT_PATH``) is configured, so the service works behind a proxy that
strips the prefix and behind one that forwards it unchanged.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import hmac
import itertools
import logging
from collections.abc import Callable, Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from importlib import metadata
from types import SimpleNamespace
from typing import Any, TypedDict

from sanic import Blueprint, HTTPResponse, Request, Sanic
from sanic.config import Config
from sanic.response import BaseHTTPResponse
from sanic.worker.loader import AppLoader

from dialogkit.engine.engine import DEADLINE_GRACE_S, Engine
from dialogkit.errors import (
    DialogkitError,
    IdempotencyKeyReused,
    ScenarioError,
    ScenarioInvalid,
    SessionBusy,
    SessionNotFound,
)
from dialogkit.logsafe import escape
from dialogkit.scenario import validate_document
from dialogkit.scenario.problems import errors
from dialogkit.scenario.registry import registered_names
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.wire import (
    ChatbotMessageResponse,
    ChatbotRequest,
    ChatbotSessionCreateRequest,
    ChatbotSessionCreateResponse,
    ChatbotSessionInfoResponse,
    ChatbotValidateRequest,
    ChatbotValidateResponse,
    ErrorDetail,
    FrameworkError,
    RootInfo,
    ValidationErrorBody,
    WireModel,
    dump_json,
)
from dialogkit_server import openapi
from dialogkit_server import workers as workers_module
from dialogkit_server.errors import (
    SESSION_NOT_FOUND,
    DetailError,
    PublicErrorHandler,
    dumps,
    json_answer,
    key_reused,
    parse_body,
    register_error_handlers,
    too_long,
)
from dialogkit_server.protocol import RequestClockProtocol
from dialogkit_server.ready import SharedProbe, public_form
from dialogkit_server.rootpath import Service, normalize_root_path, public_root

logger = logging.getLogger("dialogkit.server")

TITLE = "dialogkit"

LIMITS: dict[str, Any] = {
    # A scenario graph is the largest body the contract knows; 2 MiB holds hundreds of nodes.
    "REQUEST_MAX_SIZE": 2 * 1024 * 1024,
    "REQUEST_TIMEOUT": 30,
    # Longer than the worst turn: LLM NLU and NLG with retries, plus a skill call.
    "RESPONSE_TIMEOUT": 120,
    # Above the 60 s idle timeout of common proxies and load balancers, so they close first.
    "KEEP_ALIVE_TIMEOUT": 75,
}
"""Sanic limits; each can be overridden with ``SANIC_<NAME>`` in the environment."""

SAFETY: dict[str, Any] = {
    # Errors are JSON whatever the client accepts (and never debug pages: PublicErrorHandler).
    "FALLBACK_ERROR_FORMAT": "json",
}

IDEMPOTENCY_KEY = "Idempotency-Key"
"""Optional header of ``POST /v1/message``: a retry with the same key gets the saved reply."""
MAX_IDEMPOTENCY_KEY_CHARS = 255

_app_numbers = itertools.count(1)


def service_version() -> str:
    """The deployed build: the installed distribution, else the work tree's version."""
    try:
        return metadata.version("dialogkit")
    except metadata.PackageNotFoundError:
        from dialogkit import __version__

        return __version__


def create_app(
    engine: Engine | None = None,
    settings: Settings | None = None,
    *,
    name: str | None = None,
) -> Sanic[Config, SimpleNamespace]:
    """Build the service around ``engine`` (a new ``Engine(settings)`` when omitted).

    ``settings`` default to the engine's; the service reads ``root_path``, the input caps and
    the admin token from them. An
    engine created here is closed when the server stops; a given one belongs to the caller.
    ``name`` must be unique among the process's Sanic apps; by default one is generated.
    """
    owns_engine = engine is None
    if engine is None:
        engine = Engine(settings)
    settings = settings if settings is not None else engine.settings
    root_path = normalize_root_path(settings.root_path)
    version = service_version()

    config = Config(defaults={**LIMITS, **openapi.sanic_ext_config(TITLE, version)})
    app = Service(name or _unique_name(), config=config, error_handler=PublicErrorHandler())
    app.ctx.engine = engine
    app.config.update(SAFETY)
    _check_deadline_fits(engine.settings, float(app.config.RESPONSE_TIMEOUT))
    openapi.extend(app)
    register_error_handlers(app)

    probe = SharedProbe(engine, settings.ready_cache_s)  # one per worker, for every mount
    mounts = [""] if not root_path else ["", root_path]
    for index, prefix in enumerate(mounts):
        api = _api_blueprint(f"api{index}", prefix, engine, settings, version)
        docs = openapi.docs_blueprint(
            f"docs{index}", prefix=prefix, root_path=root_path, title=TITLE
        )
        operations = _operations_blueprint(f"ops{index}", prefix, probe, settings)
        app.blueprint(api)
        app.blueprint(docs)
        app.blueprint(operations)
        openapi.exclude(docs)
        openapi.exclude(operations)
        if prefix:
            openapi.exclude(api)
    openapi.snapshot_on_start(app)
    workers_module.guard_store(app, engine)

    if owns_engine:

        async def close_engine(app: Sanic[Any, Any]) -> None:
            await engine.aclose()

        app.after_server_stop(close_engine)
    return app


def _check_deadline_fits(settings: Settings, response_timeout_s: float) -> None:
    """Warn when a turn may outlive the response timeout: the client would see a 503 and
    the turn's reply would be lost."""
    longest = settings.turn_deadline_s + DEADLINE_GRACE_S
    if longest >= response_timeout_s:
        logger.warning(
            "DIALOGKIT_TURN_DEADLINE_S=%g plus %g s of grace does not fit in the %g s "
            "response timeout (SANIC_RESPONSE_TIMEOUT): slow turns will answer 503",
            settings.turn_deadline_s,
            DEADLINE_GRACE_S,
            response_timeout_s,
        )


def _unique_name() -> str:
    number = next(_app_numbers)
    return TITLE if number == 1 else f"{TITLE}_{number}"


def _api_blueprint(
    name: str, prefix: str, engine: Engine, settings: Settings, version: str
) -> Blueprint:
    """The contract's routes; built per mount so each copy has its own OpenAPI operation."""
    bp = Blueprint(name, url_prefix=prefix or None)
    configured = normalize_root_path(settings.root_path)

    @functools.cache
    def root_info(root_path: str, versioned: bool) -> RootInfo:
        info = RootInfo(
            version=version,
            docs=f"{root_path}{openapi.DOCS_PATH}",
            redoc=f"{root_path}{openapi.REDOC_PATH}",
            openapi=f"{root_path}{openapi.OPENAPI_PATH}",
            api=settings.root_path or root_path,
        )
        if versioned:
            return info.model_copy(update={"message": f"{info.message} (API v1)"})
        return info

    async def root(request: Request) -> HTTPResponse:
        return _answer(root_info(public_root(request, configured), False))

    async def v1_root(request: Request) -> HTTPResponse:
        return _answer(root_info(public_root(request, configured), True))

    async def create_session(request: Request) -> HTTPResponse:
        body = parse_body(request, ChatbotSessionCreateRequest)
        with _scenario_errors():
            session = await engine.astart(body.scenario_name, **body.keywords())
        reply = session.initial_reply
        return _answer(
            ChatbotSessionCreateResponse(
                session_id=session.id,
                llm_choice=body.llm_choice,
                nlu_llm_choice=body.nlu_llm_choice,
                user_system_prompt=body.user_system_prompt,
                completion_options=body.completion_options,
                initial_response=reply.response,
                initial_current_node=reply.current_node,
                initial_turn_count=reply.turn_count,
                initial_processing_time_ms=reply.processing_time_ms,
                initial_session_complete=reply.session_complete,
            )
        )

    async def create_session_json(request: Request) -> HTTPResponse:
        too_large = _graph_too_large(request, settings)
        if too_large:
            raise DetailError(400, too_large)
        body = parse_body(request, ChatbotSessionCreateRequest)
        if not body.scenario_graph:
            raise DetailError(400, "scenario_graph is required: send the graph as an object.")
        too_many = _too_many_nodes(body.scenario_graph, settings)
        if too_many:
            raise DetailError(400, too_many)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("scenario graph: %s", escape(dumps(body.scenario_graph), limit=None))
        with _scenario_errors():
            # Parsing and validating a large graph is CPU work: off the event loop, so the
            # turns of other sessions keep running meanwhile.
            scenario = await asyncio.to_thread(_checked_scenario, body.scenario_graph)
            session = await engine.astart(scenario, **body.keywords())
        return _answer(session.initial_reply)

    async def validate(request: Request) -> HTTPResponse:
        too_large = _graph_too_large(request, settings)
        if too_large:
            logger.warning("scenario validation refused: %s", too_large)
            return _answer(ChatbotValidateResponse(status="error", message=too_large))
        body = parse_body(request, ChatbotValidateRequest)
        too_many = _too_many_nodes(body.scenario_graph, settings)
        if too_many:
            logger.warning("scenario validation refused: %s", too_many)
            return _answer(ChatbotValidateResponse(status="error", message=too_many))
        _, problems = await asyncio.to_thread(validate_document, body.scenario_graph)
        found = errors(problems)
        if found:
            logger.warning(
                "scenario validation failed:\n%s",
                "\n".join(f"  - {escape(p, limit=500)}" for p in problems),
            )
            message = f"Scenario validation failed: {len(found)} error(s)"
            return _answer(ChatbotValidateResponse(status="error", message=message))
        warnings = len(problems)
        message = "Scenario is valid" + (f" ({warnings} warning(s))" if warnings else "")
        return _answer(ChatbotValidateResponse(status="success", message=message))

    async def message(request: Request) -> HTTPResponse:
        body = parse_body(request, ChatbotRequest)
        text, confidence = body.message_input.text, body.message_input.confidence
        if len(text) > settings.max_utterance_chars:
            raise too_long(["message_input", "text"], text, settings.max_utterance_chars)
        key = request.headers.get(IDEMPOTENCY_KEY) or None
        if key is not None and len(key) > MAX_IDEMPOTENCY_KEY_CHARS:
            raise too_long([IDEMPOTENCY_KEY], key, MAX_IDEMPOTENCY_KEY_CHARS, source="header")
        try:
            reply = await engine.amessage(body.session_id, text, confidence, idempotency_key=key)
        except SessionNotFound:
            raise DetailError(404, SESSION_NOT_FOUND) from None
        except SessionBusy:
            raise  # a 429 with Retry-After (errors.py): nothing was applied
        except IdempotencyKeyReused as exc:
            raise key_reused(IDEMPOTENCY_KEY, exc.key) from None
        except Exception:
            # The contract's answer to an internal failure: 200 with error=true, no details.
            logger.exception("turn failed for session %s", escape(repr(body.session_id)))
            return _answer(ChatbotMessageResponse(error=True))
        return _answer(reply)

    async def session_info(request: Request, session_id: str) -> HTTPResponse:
        _check_admin(request, settings)
        try:
            info = await engine.ainfo(session_id)
        except SessionNotFound:
            raise DetailError(404, SESSION_NOT_FOUND) from None
        return _answer(info)

    routes: list[tuple[openapi.Handler, str, str, str]] = [
        (root, "GET", "/", "root"),
        (v1_root, "GET", "/v1/", "v1_root"),
        (create_session, "POST", "/v1/session", "create_session"),
        (create_session_json, "POST", "/v1/session/json", "create_session_json"),
        (validate, "POST", "/v1/session/validate", "validate"),
        (message, "POST", "/v1/message", "message"),
        (session_info, "GET", "/v1/session/<session_id:str>", "session_info"),
    ]
    for handler, method, path, route_name in routes:
        bp.add_route(handler, path, methods=[method], name=route_name)
        if not prefix:
            openapi.document(handler, **_OPERATIONS[route_name])
    return bp


def _operations_blueprint(
    name: str, prefix: str, probe: SharedProbe, settings: Settings
) -> Blueprint:
    """Routes for operators, outside the contract (and its OpenAPI document).

    ``GET /v1/ready`` answers 200 when the skill runtime, the model endpoints and the store
    can serve turns, else 503 naming what cannot; ``GET /`` stays the contract's liveness.
    The detail of each check (addresses, errors) is shown only with the admin token.
    """
    bp = Blueprint(name, url_prefix=prefix or None)

    async def ready(request: Request) -> HTTPResponse:
        report = workers_module.with_worker_check(await probe.report(), request.app)
        body = report.to_json() if _is_admin(request, settings) else public_form(report)
        return json_answer(body, 200 if report.ready else 503)

    bp.add_route(ready, "/v1/ready", methods=["GET"], name="ready")
    return bp


_INFO = (RootInfo, "Build version and documentation paths")
_BAD_SCENARIO = (ErrorDetail, "Unknown scenario, unusable graph, or missing scenario_graph")
_BAD_BODY = (ValidationErrorBody, "The body is not an object of the documented shape")
_NO_SESSION = (ErrorDetail, "Session not found (unknown id, or expired state)")
_BUSY = (
    ErrorDetail,
    "Session busy: its other turns held it longer than DIALOGKIT_LOCK_WAIT_S; nothing was "
    "applied, retry after the Retry-After header's seconds",
)
_TOO_LARGE = (
    FrameworkError,
    "The body is larger than SANIC_REQUEST_MAX_SIZE (2 MiB by default); nothing was read",
)
_NO_TOKEN = (ErrorDetail, "Only when DIALOGKIT_ADMIN_TOKEN is set: missing or wrong bearer token")

_OPERATIONS: dict[str, dict[str, Any]] = {
    "root": {
        "summary": "Service info",
        "description": "Liveness only: proves the process answers HTTP.",
        "responses": {200: _INFO},
    },
    "v1_root": {
        "summary": "API v1 info",
        "description": "The same body as `GET /`, reached under the versioned prefix.",
        "responses": {200: _INFO},
    },
    "create_session": {
        "summary": "Create a session from a registered scenario",
        "description": "Uses `scenario_name` (case-insensitive); `scenario_graph` is ignored.",
        "body": ChatbotSessionCreateRequest,
        "responses": {
            200: (ChatbotSessionCreateResponse, "Session created; initial_* hold the first turn"),
            400: _BAD_SCENARIO,
            413: _TOO_LARGE,
            422: _BAD_BODY,
        },
    },
    "create_session_json": {
        "summary": "Create a session from a scenario graph",
        "description": "Uses `scenario_graph`; `scenario_name` is ignored. "
        "Answers the first reply (bot-first) or the initial snapshot.",
        "body": ChatbotSessionCreateRequest,
        "responses": {
            200: (ChatbotMessageResponse, "The initial reply of the session"),
            400: _BAD_SCENARIO,
            413: _TOO_LARGE,
            422: _BAD_BODY,
        },
    },
    "validate": {
        "summary": "Validate a scenario graph",
        "description": "No session is created; the list of problems goes to the server log.",
        "body": ChatbotValidateRequest,
        "responses": {
            200: (ChatbotValidateResponse, "status: success or error"),
            413: _TOO_LARGE,
            422: _BAD_BODY,
        },
    },
    "message": {
        "summary": "Send one user utterance",
        "description": "Only session_id, message_input.text and message_input.confidence "
        "are used. Turns of one session are serialized. An optional `Idempotency-Key` header "
        "(up to 255 characters; an addition to the contract) makes a retry of the same turn "
        "answer the saved reply instead of applying the message twice; the same key with a "
        "different message is a 422 (`idempotency_key_reused`), never the saved reply.",
        "body": ChatbotRequest,
        "responses": {
            200: (ChatbotMessageResponse, "The bot reply; error=true on an internal failure"),
            404: _NO_SESSION,
            413: _TOO_LARGE,
            422: _BAD_BODY,
            429: _BUSY,
        },
    },
    "session_info": {
        "summary": "Read a session's state",
        "description": "For trusted backends only: includes the runtime context and user data. "
        "When `DIALOGKIT_ADMIN_TOKEN` is set (off by default), it needs "
        "`Authorization: Bearer <token>`.",
        "responses": {
            200: (ChatbotSessionInfoResponse, "The session state"),
            401: _NO_TOKEN,
            404: _NO_SESSION,
            429: _BUSY,
        },
    },
}
"""The public description of each route, keyed by route name."""


def _graph_too_large(request: Request, settings: Settings) -> str:
    """Why a body carrying a graph is refused before it is parsed (empty when it is not)."""
    size = len(request.body or b"")
    if size <= settings.max_graph_bytes:
        return ""
    return (
        f"scenario_graph is too large: the body has {size} bytes and the limit is "
        f"{settings.max_graph_bytes} (DIALOGKIT_MAX_GRAPH_BYTES)."
    )


def _too_many_nodes(graph: dict[str, Any], settings: Settings) -> str:
    """Why a graph is refused before validation (empty when it is not)."""
    body = graph.get("graph")
    nodes = body.get("nodes") if isinstance(body, dict) else None
    count = len(nodes) if isinstance(nodes, list) else 0
    if count <= settings.max_graph_nodes:
        return ""
    return (
        f"scenario_graph has {count} nodes and the limit is {settings.max_graph_nodes} "
        "(DIALOGKIT_MAX_GRAPH_NODES)."
    )


def _checked_scenario(graph: dict[str, Any]) -> Scenario:
    """A posted graph parsed, validated and fingerprinted: all the CPU work of a start."""
    scenario = Scenario.from_dict(graph)
    scenario.ensure_valid()
    _ = scenario.fingerprint
    return scenario


def _is_admin(request: Request, settings: Settings) -> bool:
    """Whether the request carries ``Authorization: Bearer <DIALOGKIT_ADMIN_TOKEN>`` (never
    when no token is set)."""
    token = settings.admin_token
    scheme, _, given = (request.headers.get("authorization") or "").partition(" ")
    return bool(
        token
        and scheme.lower() == "bearer"
        and hmac.compare_digest(given.strip().encode(), token.encode())
    )


def _check_admin(request: Request, settings: Settings) -> None:
    """With ``DIALOGKIT_ADMIN_TOKEN`` set, a request without that bearer token gets a 401."""
    if not settings.admin_token or _is_admin(request, settings):
        return
    raise DetailError(
        401,
        "Not authenticated: send Authorization: Bearer <DIALOGKIT_ADMIN_TOKEN>.",
        headers={"www-authenticate": "Bearer"},
    )


@contextmanager
def _scenario_errors() -> Iterator[None]:
    """A scenario that cannot be found, parsed or used is the client's error: 400."""
    try:
        yield
    except ScenarioInvalid as exc:
        raise DetailError(400, _summary(exc)) from None
    except ScenarioError as exc:
        raise DetailError(400, str(exc)) from None


def _summary(exc: ScenarioInvalid, shown: int = 3) -> str:
    """One line: the headline, the error count and the first few problems."""
    headline = str(exc).splitlines()[0].rstrip(":")
    found = errors(exc.problems) or exc.problems
    listed = "; ".join(str(p) for p in found[:shown])
    more = f" (and {len(found) - shown} more)" if len(found) > shown else ""
    return f"{headline}: {len(found)} error(s): {listed}{more}"


def _answer(model: WireModel) -> HTTPResponse:
    """A 200 with the model's wire form (nulls omitted; a ``Reply``'s trace never leaves).

    Encoded once by pydantic-core (``dump_json``): eight times faster than building a dict and
    encoding it with ``json``; orjson would still need the dict. Never a 500 on odd text.
    """
    return HTTPResponse(dump_json(model, exclude_none=True), content_type="application/json")


def serve(
    host: str,
    port: int,
    settings: Settings | None = None,
    *,
    with_skill_runtime: bool = False,
    workers: int = 1,
) -> None:
    """Run the service until interrupted: in this process, or in ``workers`` processes.

    Several workers need a store they can share (``DIALOGKIT_REDIS_URL``): on the memory
    store this raises ``ConfigurationError`` before anything starts. Each worker freezes
    what is alive after its start-up out of the garbage collector's generations.
    """
    settings = settings if settings is not None else Settings()
    workers_module.check_workers(workers, settings)
    _log_to_console()
    announce = _announcer(host, port)
    with ExitStack() as stack:
        if with_skill_runtime:
            settings = stack.enter_context(_skill_runtime(settings))
        # The request clock starts at a request's first byte (see dialogkit_server.protocol).
        server = _ServerOptions(
            host=host,
            port=port,
            debug=False,
            backlog=settings.backlog,
            protocol=RequestClockProtocol,
        )
        if workers <= 1:
            app = _serving_app(settings)
            app.after_server_start(announce)
            app.run(single_process=True, **server)
            return
        # Each worker builds its own app (and engine) from the same settings.
        loader = AppLoader(factory=functools.partial(_serving_app, settings))
        app = loader.load()
        workers_module.supervise(app)
        app.main_process_ready(announce)
        app.prepare(workers=workers, **server)
        Sanic.serve(primary=app, app_loader=loader)


class _ServerOptions(TypedDict):
    """What ``app.run`` and ``app.prepare`` of ``serve`` share."""

    host: str
    port: int
    debug: bool
    backlog: int
    protocol: type[asyncio.Protocol]


WARM_UP_RESPONSES = 2_000
"""Responses after which the server freezes the collector a second time (see below)."""

WARM_GC_THRESHOLDS = (7_000, 10, 10)
"""The collector's thresholds once warmed up. A request leaves few cycles behind but
allocates many short-lived containers, so the default young generation (700) is collected
every few requests: measured in a loaded server (64 connections, 8 s), 8 young collections
(31 ms in all) and no older one instead of 117 young, 10 middle and 1 full (130 ms)."""


def _serving_app(settings: Settings) -> Sanic[Config, SimpleNamespace]:
    """The app of a long-lived server process: ``create_app``, plus collector freezes after
    start-up and after warm-up."""
    app = create_app(settings=settings)
    app.after_server_start(_freeze_startup_objects)
    _freeze_after_warm_up(app, WARM_UP_RESPONSES)
    honour_an_early_stop(app)
    return app


EARLY_STOP_DELAY_S = 0.1
"""How long after start-up the server looks again for a stop asked during it: Sanic enters
its serving loop right after the last after-start listener, so by then it serves, and any
signal that came before has been handled."""


def honour_an_early_stop(app: Sanic[Any, Any]) -> None:
    """Stop ``app`` once serving if SIGINT or SIGTERM came while its after-start listeners
    ran; call it after registering every other after-start listener.

    The server answers requests from the moment it listens, so a supervisor (or a user's
    quick Ctrl-C) may signal it while those listeners still run, here for about a second
    while the registered scenarios are indexed. Sanic's handler then stops the event loop
    inside the ``run_until_complete`` that runs the listeners, which swallows the stop: the
    server went on serving, deaf to the signal it had got, until killed. The stop is asked
    again from a timer, not a task: Sanic cancels its tasks when a stop is asked.
    """

    def again() -> None:
        if getattr(app.ctx, "stop_asked", False):
            logger.info("stopping: asked to while starting")
            app.stop(terminate=False)

    async def arm(app: Sanic[Any, Any]) -> None:
        app.ctx.early_stop = asyncio.get_running_loop().call_later(EARLY_STOP_DELAY_S, again)

    async def disarm(app: Sanic[Any, Any]) -> None:
        app.ctx.early_stop.cancel()

    app.after_server_start(arm)
    app.before_server_stop(disarm)


def _freeze_after_warm_up(app: Sanic[Any, Any], responses: int) -> None:
    """Freeze once more after the first ``responses``: by then the first requests have built
    what lives as long as the process (per-scenario matchers and memories, compiled patterns,
    pooled connections), which full collections would otherwise scan again and again. The
    young generation is then collected less often (``WARM_GC_THRESHOLDS``)."""
    left = responses

    def count(request: Request, response: BaseHTTPResponse) -> None:
        nonlocal left
        left -= 1
        if left == 0:
            gc.collect()
            gc.freeze()
            gc.set_threshold(*WARM_GC_THRESHOLDS)
            logger.info("warmed up after %d responses: collector frozen", responses)

    app.middleware(count, "response")


async def _freeze_startup_objects(app: Sanic[Any, Any]) -> None:
    """Move everything alive after start-up (modules, routes, models, the OpenAPI spec, the
    registered scenarios and their indexes) out of the collector's generations: full
    collections then scan only what requests create."""
    engine: Engine = app.ctx.engine
    for name in registered_names():
        try:
            engine.scenarios.by_name(name).index  # noqa: B018  (built now, before the freeze)
        except DialogkitError as exc:
            logger.warning("registered scenario %s could not be loaded: %s", escape(name), exc)
    gc.collect()
    gc.freeze()


def _log_to_console() -> None:
    """Show dialogkit's start-up lines (the docs address, where models are served, the skill
    runtime) beside Sanic's: Sanic configures its own loggers only, and without a handler
    Python drops INFO lines."""
    package = logging.getLogger("dialogkit")
    if package.handlers or logging.getLogger().handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    package.addHandler(handler)
    if package.level == logging.NOTSET:
        package.setLevel(logging.INFO)


def _announcer(host: str, port: int) -> Callable[[Sanic[Any, Any]], Coroutine[Any, Any, None]]:
    """A listener that says where the API docs are, once the server listens."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/docs"

    async def announce(_app: Sanic[Any, Any]) -> None:
        logger.info("serving; the API docs are at %s", url)

    return announce


@contextmanager
def _skill_runtime(settings: Settings) -> Iterator[Settings]:
    """Run the reference skill runtime beside the service, unless one is configured."""
    if settings.skill_runtime_base_url:
        logger.info("using the skill runtime at %s", settings.skill_runtime_base_url)
        yield settings
        return
    from dialogkit.skills.runtime import RuntimeServer

    with RuntimeServer() as runtime:
        logger.info("started the reference skill runtime at %s", runtime.base_url)
        yield settings.model_copy(update={"skill_runtime_base_url": runtime.base_url})


__all__ = ["create_app", "serve", "service_version"]
