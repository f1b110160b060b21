"""A Redis store: the memory store's semantics, shared by several worker processes or pods.

Keys of a session (``{prefix}:{kind}:{session_id}``):

- ``config`` (string) written once at creation;
- ``state`` (string) replaced on every turn;
- ``transcript`` and ``visits`` (lists) appended with ``RPUSH`` and trimmed with ``LTRIM``
  to the record limits (the history is derived from the transcript rows);

all under the same TTL, renewed by every save: ``state_ttl_s``, capped by what is left of the
config's ``config_ttl_s``. A turn is one round trip to read (config, state, TTL) and one to
write. Scenarios live once under ``{prefix}:scenario:{fingerprint}`` with the config TTL,
refreshed whenever a new session uses them; workers keep them parsed in their scenario cache.

The per-session lock is a Redis lock (``SET NX PX`` with a random token, released by a
token-checked script), created fresh for every acquisition because redis-py keeps a lock's
token on the lock object. Its lifetime must outlast the slowest turn (model and skill timeouts
included), so it defaults to 120 s.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import LockError

from dialogkit.engine.state import (
    DialogueState,
    RecordKind,
    Records,
    SessionConfig,
)
from dialogkit.errors import DialogkitError
from dialogkit.scenario.scenario import Scenario
from dialogkit.store.base import (
    CONFIG_TTL_S,
    STATE_TTL_S,
    STORED_KINDS,
    RecordLimits,
    StoredSession,
    decode_records,
    encode_records,
    stored_kinds,
)
from dialogkit.wire import dump_json

logger = logging.getLogger("dialogkit.store")


class SessionBusy(DialogkitError):
    """Another worker held the session's lock for longer than the wait allowed."""


class RedisStore:
    """Sessions in Redis, one key per part (see the module docstring)."""

    def __init__(
        self,
        url_or_client: str | Redis,
        *,
        prefix: str = "dialogkit",
        state_ttl_s: int = STATE_TTL_S,
        config_ttl_s: int = CONFIG_TTL_S,
        limits: RecordLimits | None = None,
        lock_timeout_s: float = 120.0,
        lock_wait_s: float = 120.0,
    ) -> None:
        self._redis: Redis = (
            Redis.from_url(url_or_client) if isinstance(url_or_client, str) else url_or_client
        )
        self._prefix = prefix
        self.state_ttl_s = state_ttl_s
        self.config_ttl_s = config_ttl_s
        self.limits = limits or RecordLimits()
        self._lock_timeout_s = lock_timeout_s
        self._lock_wait_s = lock_wait_s

    def _key(self, kind: str, name: str) -> str:
        return f"{self._prefix}:{kind}:{name}"

    # ----------------------------------------------------------------- sessions

    async def save(
        self,
        config: SessionConfig,
        state: DialogueState,
        records: Records,
        scenario: Scenario,
        *,
        new: bool = False,
    ) -> float:
        session_id = config.session_id
        now = time.time()
        ttl_ms = self._ttl_ms(config, now)
        config_key = self._key("config", session_id)
        if new:
            await self._keep_scenario(scenario)  # before the session can be seen
        async with self._redis.pipeline(transaction=True) as pipe:
            if new:
                pipe.set(config_key, dump_json(config), px=ttl_ms)
            else:
                pipe.pexpire(config_key, ttl_ms)
            pipe.set(self._key("state", session_id), dump_json(state), px=ttl_ms)
            for kind, items in encode_records(records):
                key = self._key(kind, session_id)
                pipe.rpush(key, *items)
                pipe.ltrim(key, -self.limits.rows, -1)
            for kind in STORED_KINDS:
                pipe.pexpire(self._key(kind, session_id), ttl_ms)
            replies = await pipe.execute()
        if not replies[0]:
            # Its config expired while the turn ran: write it (and its scenario) again.
            await self._keep_scenario(scenario)
            await self._redis.set(config_key, dump_json(config), px=ttl_ms)
        return now + ttl_ms / 1000

    def _ttl_ms(self, config: SessionConfig, now: float) -> int:
        config_left = config.created_at + self.config_ttl_s - now
        return max(1, int(min(self.state_ttl_s, config_left) * 1000))

    async def load(self, session_id: str) -> StoredSession | None:
        state_key = self._key("state", session_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.get(self._key("config", session_id))
            pipe.get(state_key)
            pipe.pttl(state_key)
            raw_config, raw_state, ttl_ms = await pipe.execute()
        if raw_config is None or raw_state is None or ttl_ms < 0:
            return None
        ttl_s = ttl_ms / 1000
        return StoredSession(
            SessionConfig.model_validate_json(raw_config),
            DialogueState.model_validate_json(raw_state),
            time.time() + ttl_s,
            ttl_s,
        )

    async def records(self, session_id: str, *kinds: RecordKind) -> Records:
        stored = stored_kinds(kinds)
        async with self._redis.pipeline(transaction=True) as pipe:
            for kind in stored:
                pipe.lrange(self._key(kind, session_id), -self.limits.rows, -1)
            lists: list[list[Any]] = await pipe.execute()
        return decode_records(dict(zip(stored, lists, strict=True)), kinds, self.limits)

    # ----------------------------------------------------------------- scenarios

    async def _keep_scenario(self, scenario: Scenario) -> None:
        """Store the scenario once; a later session only renews its TTL."""
        key = self._key("scenario", scenario.fingerprint)
        if not await self._redis.expire(key, self.config_ttl_s):
            document = json.dumps(scenario.to_dict(), ensure_ascii=False)
            await self._redis.set(key, document, ex=self.config_ttl_s)

    async def scenario(self, key: str) -> Scenario | None:
        raw: Any = await self._redis.get(self._key("scenario", key))
        return None if raw is None else Scenario.from_dict(json.loads(raw))

    # ----------------------------------------------------------------- locking

    @asynccontextmanager
    async def lock(self, session_id: str) -> AsyncIterator[None]:
        lock = self._redis.lock(
            self._key("lock", session_id),
            timeout=self._lock_timeout_s,
            blocking_timeout=self._lock_wait_s,
            thread_local=False,
        )
        if not await lock.acquire():
            raise SessionBusy(f"Session {session_id!r} is busy in another worker; try again.")
        try:
            yield
        finally:
            try:
                await lock.release()
            except LockError:
                logger.warning(
                    "the lock of session %s expired before the turn ended; raise lock_timeout_s",
                    session_id,
                )

    async def aclose(self) -> None:
        await self._redis.aclose()
