"""A Redis store: the memory store's semantics, shared by several worker processes or pods.

Expiry is Redis's own (``SET ... EX``), so a state is gone exactly ``state_ttl_s`` after its
last save and no sweeping is needed. The per-session lock is a Redis lock (``SET NX PX`` with
a random token, released by a token-checked script), created fresh for every acquisition
because redis-py keeps a lock's token on the lock object. Its lifetime must outlast the
slowest turn (model and skill timeouts included), so it defaults to 120 s.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import LockError

from dialogkit.engine.state import DialogueState, SessionConfig
from dialogkit.errors import DialogkitError
from dialogkit.store.base import CONFIG_TTL_S, STATE_TTL_S, StoredState

logger = logging.getLogger("dialogkit.store")


class SessionBusy(DialogkitError):
    """Another worker held the session's lock for longer than the wait allowed."""


class RedisStore:
    """Sessions in Redis under ``{prefix}:config:ID``, ``{prefix}:state:ID`` and ``:lock:ID``."""

    def __init__(
        self,
        url_or_client: str | Redis,
        *,
        prefix: str = "dialogkit",
        state_ttl_s: int = STATE_TTL_S,
        config_ttl_s: int = CONFIG_TTL_S,
        lock_timeout_s: float = 120.0,
        lock_wait_s: float = 120.0,
    ) -> None:
        self._redis: Redis = (
            Redis.from_url(url_or_client) if isinstance(url_or_client, str) else url_or_client
        )
        self._prefix = prefix
        self.state_ttl_s = state_ttl_s
        self.config_ttl_s = config_ttl_s
        self._lock_timeout_s = lock_timeout_s
        self._lock_wait_s = lock_wait_s

    def _key(self, kind: str, session_id: str) -> str:
        return f"{self._prefix}:{kind}:{session_id}"

    async def put_config(self, config: SessionConfig) -> None:
        await self._redis.set(
            self._key("config", config.session_id), config.model_dump_json(), ex=self.config_ttl_s
        )

    async def get_config(self, session_id: str) -> SessionConfig | None:
        raw: Any = await self._redis.get(self._key("config", session_id))
        return None if raw is None else SessionConfig.model_validate_json(raw)

    async def put_state(self, session_id: str, state: DialogueState) -> float:
        await self._redis.set(
            self._key("state", session_id), state.model_dump_json(), ex=self.state_ttl_s
        )
        return time.time() + self.state_ttl_s

    async def get_state(self, session_id: str) -> StoredState | None:
        key = self._key("state", session_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.get(key)
            pipe.pttl(key)
            raw, ttl_ms = await pipe.execute()
        if raw is None or ttl_ms < 0:
            return None
        ttl_s = ttl_ms / 1000
        return StoredState(DialogueState.model_validate_json(raw), time.time() + ttl_s, ttl_s)

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
