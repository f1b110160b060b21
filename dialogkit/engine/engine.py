"""``Engine``: creates sessions and runs their turns over a store, providers and skills."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Unpack

from dialogkit._lifecycle import AsyncClosingMixin, ClosingMixin
from dialogkit.engine import idempotency
from dialogkit.engine.options import EngineStartOptions
from dialogkit.engine.providers import Router
from dialogkit.engine.session import Reply, Session
from dialogkit.engine.state import (
    DialogueState,
    RecordKind,
    Records,
    SessionConfig,
    TurnRecord,
    history_of,
)
from dialogkit.engine.sync import Portal
from dialogkit.engine.turn import Turn, TurnOutcome, initial_context, now_in
from dialogkit.errors import CassetteMiss, DialogkitError, SessionNotFound, checked_options
from dialogkit.logsafe import escape
from dialogkit.nlu._rules import RuleIndex
from dialogkit.scenario.cache import ScenarioCache
from dialogkit.scenario.patterns import search_budget
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import OFFLINE_MODEL, CassetteMode, Settings
from dialogkit.skills._base import SkillRunner
from dialogkit.store._base import RecordLimits, SessionStore, StoredSession
from dialogkit.store._memory import MemoryStore
from dialogkit.wire import (
    ChatbotFinalData,
    ChatbotSessionInfoResponse,
    SessionOptions,
    SessionSettings,
    dump_json,
)

if TYPE_CHECKING:
    from dialogkit.skills.runtime import RuntimeServer

logger = logging.getLogger("dialogkit.engine")

DEADLINE_GRACE_S = 2.0
"""How far past its deadline a turn may run before it is abandoned (see ``_run``)."""


class Engine(ClosingMixin, AsyncClosingMixin):
    """Runs conversations in-process.

    ``Engine()`` with no arguments is fully offline (rule NLU, template NLG, memory store).
    Given settings it routes model names to OpenAI-compatible endpoints and calls the
    configured skill runtime; a store, router or skill runner can be injected.

    ``llm_cassette`` records model calls to a file or replays them from it (see
    ``dialogkit.llm._cassette``); in replay mode a call the file does not hold raises
    ``CassetteMiss`` out of ``message``.

    ``skill_runtime="embedded"`` starts the reference skill runtime in this process (on a
    free loopback port, as ``make run`` and ``dialogkit chat`` do), so a script or notebook
    can run a scenario that calls skills without a second process; ``close()`` stops it.
    It takes precedence over ``SKILL_RUNTIME_BASE_URL`` and needs the ``server`` extra.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: SessionStore | None = None,
        router: Router | None = None,
        skills: SkillRunner | None = None,
        skill_runtime: Literal["embedded"] | None = None,
        llm_cassette: str | Path | None = None,
        llm_cassette_mode: CassetteMode = "replay",
    ) -> None:
        self.settings = settings or Settings()
        if llm_cassette is not None:
            self.settings = self.settings.model_copy(
                update={"llm_cassette": str(llm_cassette), "llm_cassette_mode": llm_cassette_mode}
            )
        self._runtime: RuntimeServer | None = None
        if skill_runtime is not None:
            if skill_runtime != "embedded":
                raise ValueError(
                    f'skill_runtime={skill_runtime!r}: use "embedded", or None for the '
                    "configured SKILL_RUNTIME_BASE_URL."
                )
            if skills is not None:
                raise ValueError("Give either skills or skill_runtime, not both.")
            self._runtime = _embedded_runtime()
            self.settings = self.settings.model_copy(
                update={"skill_runtime_base_url": self._runtime.base_url}
            )
        self.store: SessionStore = store or _default_store(self.settings)
        self.router: Router = router or _default_router(self.settings, self.store)
        self.skills: SkillRunner = skills or _default_skills(self.settings)
        self.portal = Portal()
        # Posted graphs are indexed for the rule NLU off the event loop, before their first turn.
        self.scenarios = ScenarioCache(derive=(RuleIndex,))

    # ----------------------------------------------------------------- sessions

    async def astart(
        self, scenario: Scenario | dict[str, Any] | str, **options: Unpack[EngineStartOptions]
    ) -> Session:
        """Create a session; with bot-first its opening reply is ``session.initial_reply``.

        ``options`` are those of ``dialogkit.wire.SessionOptions`` (the session-create
        request's) plus ``hybrid_nlu``. Raises ``ScenarioNotFound`` for an unknown name,
        ``ScenarioInvalid`` for a graph with error-severity problems and ``TypeError`` for an
        unknown option.
        """
        keywords = dict(options)
        hybrid_nlu = keywords.pop("hybrid_nlu", None)
        with checked_options():
            chosen = SessionOptions.of(keywords)
        loaded = await self.scenarios.aresolve(scenario)
        loaded.ensure_valid()
        await self.router.prepare(loaded)
        sent = chosen.user.sent_values()
        if "date_time" not in sent:
            sent["date_time"] = now_in(chosen.user.timezone)
        document = loaded.document
        config = SessionConfig(
            # Only the options that differ from their defaults: the defaults stay shared
            # objects and a session's config stays small (the memory store keeps one per
            # live session).
            **{
                name: value
                for name, field in SessionSettings.model_fields.items()
                if (value := getattr(chosen, name)) != field.default
            },
            session_id=str(uuid.uuid4()),
            scenario_key=loaded.fingerprint,
            user=sent,
            bot_first=_first_of(
                chosen.bot_first, document.graph.bot_first, document.metadata.bot_first
            ),
            **({} if hybrid_nlu is None else {"hybrid_nlu": hybrid_nlu}),
        )
        state = DialogueState(
            current_node=loaded.entry,
            context=initial_context(loaded.language, sent),
            pending_entry=not config.bot_first,
        )
        started = time.perf_counter()
        async with self.store.lock(config.session_id):
            if config.bot_first:
                reply = await self._run(config, loaded, state, started, opening=True)
            else:
                await self.store.save(config, state, Records(), loaded, new=True)
                reply = await self._reply(config, state, "", started)
        return Session(self, config.session_id, loaded, reply)

    def start(
        self, scenario: Scenario | dict[str, Any] | str, **options: Unpack[EngineStartOptions]
    ) -> Session:
        """Sync ``astart``: works in scripts and inside a running loop (Jupyter)."""
        return self.portal.run(self.astart(scenario, **options))

    async def asession(self, session_id: str) -> Session:
        """A handle on an existing session; raises ``SessionNotFound``."""
        async with self.store.lock(session_id):
            stored = await self._load(session_id)
            scenario = await self._scenario_of(stored.config)
            reply = await self._reply(stored.config, stored.state, "", None)
        return Session(self, session_id, scenario, reply)

    def session(self, session_id: str) -> Session:
        return self.portal.run(self.asession(session_id))

    # ----------------------------------------------------------------- turns

    async def amessage(
        self,
        session_id: str,
        text: str,
        confidence: float = 0.0,
        *,
        idempotency_key: str | None = None,
    ) -> Reply:
        """Process one user message; raises ``SessionNotFound`` for unknown or expired ids.

        Internal failures do not raise: they answer ``error=True`` with empty fields and
        leave the stored state exactly as it was. With an ``idempotency_key``, the reply is
        saved with the turn, and a message sent again with the same key gets that reply back
        instead of a second turn (a client retrying a turn whose answer it never received);
        the same key with a different message raises ``IdempotencyKeyReused``.
        """
        started = time.perf_counter()
        async with self.store.lock(session_id):
            stored = await self._load(session_id)
            if idempotency_key:
                saved = await self.store.saved_reply(session_id, idempotency_key)
                if saved is not None:
                    digest = idempotency.message_digest(text, confidence)
                    return idempotency.replayed(saved, digest, idempotency_key)
            scenario = await self._scenario_of(stored.config)
            return await self._run(
                stored.config,
                scenario,
                stored.state,
                started,
                text=text,
                confidence=confidence,
                idempotency_key=idempotency_key,
            )

    def message(
        self,
        session_id: str,
        text: str,
        confidence: float = 0.0,
        *,
        idempotency_key: str | None = None,
    ) -> Reply:
        """Sync ``amessage``."""
        return self.portal.run(
            self.amessage(session_id, text, confidence, idempotency_key=idempotency_key)
        )

    async def _run(
        self,
        config: SessionConfig,
        scenario: Scenario,
        state: DialogueState,
        started: float,
        *,
        opening: bool = False,
        text: str = "",
        confidence: float = 0.0,
        idempotency_key: str | None = None,
    ) -> Reply:
        node_before = state.current_node
        # The deadline counts from the request's arrival, so time spent waiting for the
        # session's lock is part of it and the whole request fits the server's timeout.
        deadline = (
            time.monotonic() + self.settings.turn_deadline_s - (time.perf_counter() - started)
        )
        nlu_model = self._served(
            config.nlu_llm_choice, self.settings.core_nlu_llm, "nlu", config, state
        )
        nlg_model = self._served(
            config.llm_choice, self.settings.core_default_llm, "nlg", config, state
        )
        turn = Turn(
            scenario=scenario,
            config=config,
            state=state,
            nlu_provider=self.router.nlu(nlu_model, hybrid=config.hybrid_nlu),
            nlg_provider=self.router.nlg(nlg_model),
            skills=self.skills,
            nlu_model=nlu_model,
            nlg_model=nlg_model,
            deadline=deadline,
            max_text_chars=self.settings.max_text_chars,
        )
        try:
            # Providers and skills end their calls by the deadline with their own timeouts;
            # this cancellation is the last resort against one that does not (a custom
            # provider), so that no turn holds its session and its client forever.
            # A turn that starts late (a long wait for the lock) still gets the grace: its
            # calls are skipped, so it answers from templates at once.
            abandon_at = max(deadline, time.monotonic()) + DEADLINE_GRACE_S
            # Lookaround patterns (not RE2) share one small time budget per turn.
            with search_budget():
                async with asyncio.timeout_at(_loop_time(abandon_at)):
                    if opening:
                        outcome = TurnOutcome(reply=await turn.open())
                    else:
                        outcome = await turn.message(text, confidence)
        except CassetteMiss:
            raise  # a replayed run that asks something new must fail, not fall back
        except TimeoutError:
            logger.error(
                "turn abandoned in session %s at node %s: it overran its %g s deadline; "
                "nothing was saved",
                escape(config.session_id),
                escape(node_before),
                self.settings.turn_deadline_s,
            )
            return Reply(error=True)
        except Exception:
            logger.exception(
                "turn failed in session %s at node %s",
                escape(config.session_id),
                escape(node_before),
            )
            return Reply(error=True)
        elapsed_ms = (time.perf_counter() - started) * 1000
        trace = turn.record(outcome, node_before, elapsed_ms)
        # The reply is built before the save, so that it can be saved with the turn.
        reply = await self._reply(config, state, outcome.reply, started, pending=turn.records)
        saved = None
        if idempotency_key:
            digest = idempotency.message_digest(text, confidence)
            saved = (idempotency_key, idempotency.saved_reply(digest, dump_json(reply)))
        await self.store.save(config, state, turn.records, scenario, new=opening, reply=saved)
        reply.trace = trace
        return reply

    def _served(
        self,
        requested: str,
        default: str,
        purpose: str,
        config: SessionConfig,
        state: DialogueState,
    ) -> str:
        """The model a session uses for ``purpose``: its own choice when some configured
        endpoint serves it, else the process default (which the router serves or runs
        offline). The fallback is logged and noted in the session's usage, once."""
        if not requested or self.router.serves(requested):
            return requested or default
        fallback = default if default and self.router.serves(default) else OFFLINE_MODEL
        warning = (
            f"{purpose} model {requested!r} is not served by any configured endpoint "
            f"(OPENAI_BASE_URL, DIALOGKIT_LLM_MODELS, DIALOGKIT_LLM_ENDPOINTS); using "
            f"{fallback!r}"
        )
        if state.usage.warn(warning):
            logger.warning("session %s: %s", escape(config.session_id), escape(warning))
        return fallback

    async def _reply(
        self,
        config: SessionConfig,
        state: DialogueState,
        text: str,
        started: float | None,
        *,
        pending: Records | None = None,
    ) -> Reply:
        """The reply of a turn; ``pending`` are the records the turn is about to save."""
        final = None
        if state.session_complete:
            options = config.completion_options
            history = None
            if options.include_history:
                records = await self.store.records(config.session_id, "history")
                entries = records.history
                if pending is not None:
                    limit = self.store.limits.history
                    entries = [*entries, *history_of(pending.transcript)][-limit:]
                history = list(entries)
            final = ChatbotFinalData(
                end_reason=end_reason(state),
                slots=dict(state.slots) if options.include_slots else None,
                conversation_history=history,
            )
        elapsed = (time.perf_counter() - started) * 1000 if started is not None else 0.0
        return Reply(
            session_id=config.session_id,
            response=text,
            current_node=state.current_node,
            turn_count=state.turn_count,
            processing_time_ms=round(elapsed, 3),
            session_complete=state.session_complete,
            final_data=final,
        )

    # ----------------------------------------------------------------- inspection

    async def ainfo(self, session_id: str) -> ChatbotSessionInfoResponse:
        """The session's state, read under its lock; raises ``SessionNotFound``."""
        async with self.store.lock(session_id):
            stored = await self._load(session_id)
        config, state = stored.config, stored.state
        remaining = max(0, round(stored.ttl_s))
        expires = datetime.fromtimestamp(stored.expires_at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        return ChatbotSessionInfoResponse(
            session_id=config.session_id,
            current_node=state.current_node,
            turn_count=state.turn_count,
            session_complete=state.session_complete,
            slots=dict(state.slots),
            context={**state.context, "llm_usage": state.usage.model_dump()},
            expires_at=expires,
            ttl_seconds=remaining,
        )

    def info(self, session_id: str) -> ChatbotSessionInfoResponse:
        return self.portal.run(self.ainfo(session_id))

    async def atranscript(self, session_id: str) -> list[TurnRecord]:
        """Every turn so far, one row each (the most recent ``transcript_limit``)."""
        return (await self.arecords(session_id, "transcript")).transcript

    async def arecords(self, session_id: str, *kinds: RecordKind) -> Records:
        """The session's append-only records of ``kinds`` (all by default): history,
        transcript and path."""
        async with self.store.lock(session_id):
            await self._load(session_id)
            return await self.store.records(session_id, *kinds)

    async def astate(self, session_id: str) -> DialogueState:
        """A copy of the per-turn dialogue state (recent windows, slots, usage)."""
        async with self.store.lock(session_id):
            return (await self._load(session_id)).state

    # ----------------------------------------------------------------- plumbing

    async def _load(self, session_id: str) -> StoredSession:
        stored = await self.store.load(session_id) if session_id else None
        if stored is None:
            raise SessionNotFound(session_id)
        return stored

    async def _scenario_of(self, config: SessionConfig) -> Scenario:
        """The parsed scenario of a session: from this process's cache, else once from the
        store (a scenario created by another worker, or dropped from the cache)."""
        cached = self.scenarios.get(config.scenario_key)
        if cached is None:
            stored = await self.store.scenario(config.scenario_key)
            if stored is None:
                raise SessionNotFound(config.session_id)
            cached = await self.scenarios.aresolve(stored)
        return cached

    async def aclose(self) -> None:
        """Close HTTP clients and the store, then stop an embedded skill runtime."""
        for closer in (self.router.aclose, getattr(self.skills, "aclose", None), self.store.aclose):
            if closer is not None:
                await closer()
        if self._runtime is not None:
            # Joins the runtime's own thread (about its one-second drain at most).
            self._runtime.stop()
            self._runtime = None

    def close(self) -> None:
        self.portal.run(self.aclose())
        self.portal.close()


def end_reason(state: DialogueState) -> str:
    """The stored reason (``context.end_reason``), else the completing transition's, else
    ``completed``."""
    stored = state.context.get("end_reason")
    return str(stored) if stored else state.completion_reason or "completed"


def _loop_time(monotonic: float) -> float:
    """A ``time.monotonic()`` instant on the running loop's clock."""
    return asyncio.get_running_loop().time() + monotonic - time.monotonic()


def lock_lifetime_s(settings: Settings) -> float:
    """How long a session lock may live: the turn deadline plus its grace.

    A lock held longer than this belongs to a turn that is gone (a killed worker). The Redis
    store takes it as its lock timeout; renewal during a turn hooks in here as well.
    """
    return settings.turn_deadline_s + DEADLINE_GRACE_S


def lock_wait_s(settings: Settings) -> float:
    """How long a turn waits for its session's lock before it answers busy: the setting,
    never more than the turn deadline (the wait counts towards the deadline)."""
    return min(settings.lock_wait_s, settings.turn_deadline_s)


def _first_of(*values: bool | None) -> bool:
    return next((value for value in values if value is not None), False)


def _default_store(settings: Settings) -> SessionStore:
    state_ttl_s, config_ttl_s = settings.state_ttl_s, settings.config_ttl_s
    limits = RecordLimits(
        history=settings.history_limit,
        transcript=settings.transcript_limit,
        replies=settings.idempotency_replies,
    )
    if settings.redis_url:
        from dialogkit.store.redis import RedisStore

        return RedisStore(
            settings.redis_url,
            state_ttl_s=state_ttl_s,
            config_ttl_s=config_ttl_s,
            limits=limits,
            lock_timeout_s=lock_lifetime_s(settings),
            lock_wait_s=lock_wait_s(settings),
            lock_ttl_s=settings.redis_lock_ttl_s,
            max_connections=settings.redis_max_connections,
            pool_timeout_s=settings.redis_pool_timeout_s,
        )
    return MemoryStore(
        state_ttl_s=state_ttl_s,
        config_ttl_s=config_ttl_s,
        limits=limits,
        lock_wait_s=lock_wait_s(settings),
    )


def _default_router(settings: Settings, store: SessionStore) -> Router:
    from dialogkit.llm._router import ModelRouter
    from dialogkit.nlu._embeddings import VectorStore

    return ModelRouter(settings, vector_store=store if isinstance(store, VectorStore) else None)


def _embedded_runtime() -> RuntimeServer:
    try:
        from dialogkit.skills.runtime import RuntimeServer
    except ImportError as exc:
        raise DialogkitError(
            "The embedded skill runtime needs the server extra: pip install 'dialogkit[server]'."
        ) from exc
    runtime = RuntimeServer().start()
    logger.info("started the reference skill runtime at %s", runtime.base_url)
    return runtime


def _default_skills(settings: Settings) -> SkillRunner:
    from dialogkit.skills._client import HTTPSkillRunner

    return HTTPSkillRunner(settings)
