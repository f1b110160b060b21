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
The embedding tier's vectors of a scenario live under ``{prefix}:vectors:{key}`` (per
fingerprint and model), with the config TTL renewed on each read.

The per-session lock is a Redis lock (``SET NX PX`` with a random token, released by a
token-checked script), created fresh for every acquisition because redis-py keeps a lock's
token on the lock object. Waiting turns queue inside their worker first (one ``asyncio.Lock``
per busy session), so only the head of each worker's queue polls Redis, with a backoff from
``LOCK_POLL_S`` to ``LOCK_POLL_MAX_S``: a thousand turns waiting on one session cost a few
dozen Redis calls a second, not one per waiter every 10 ms. A turn that gets neither within
``lock_wait_s`` (queue and Redis together) raises ``SessionBusy``, having applied nothing.
The lock lives ``lock_ttl_s`` (10 s) and is renewed while its turn runs, for at most
``lock_timeout_s`` (the turn deadline and its grace): a worker that dies leaves its lock for at
most ``lock_ttl_s``, and a turn that hangs cannot keep it past its deadline. Saves
are *fenced*: a turn saves only while its lock token is still the one in Redis (``WATCH`` on
the lock key), so a turn that lost its lock can never overwrite the turn of a worker that took
the lock after it. A new session's first save is not fenced: nothing was saved before it that
it could overwrite.

A turn sent with an idempotency key saves its reply in the same transaction as its state, so a
retry of a turn whose answer was lost gets the saved answer instead of a second turn. Replies
live in a hash (``replies``, by a digest of the key) and their keys in arrival order in a list
(``reply-order``); a script run inside the transaction drops the oldest past
``limits.replies``, so a session keeps as many as the memory store does (both under the
session's TTL).

Connections come from a blocking pool (``max_connections``, waiting up to ``pool_timeout_s``
for a free one rather than failing), with health checks and retries on connection errors, so
a Redis restart costs a reconnect, not an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.lock import Lock
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import LockError, WatchError
from redis.exceptions import TimeoutError as RedisTimeoutError

from dialogkit.engine.state import (
    DialogueState,
    RecordKind,
    Records,
    SessionConfig,
)
from dialogkit.errors import LockLost, SessionBusy
from dialogkit.logsafe import escape
from dialogkit.scenario.scenario import Scenario
from dialogkit.store._base import (
    CONFIG_TTL_S,
    STATE,
    STATE_TTL_S,
    STORED_KINDS,
    RecordLimits,
    StoredSession,
    decode_records,
    encode_records,
    stored_kinds,
)
from dialogkit.store._queues import SessionQueues
from dialogkit.wire import dump_json

logger = logging.getLogger("dialogkit.store")

FENCE_ATTEMPTS = 3
"""Fenced saves tried before giving up: a renewal of the turn's own lock may break one."""
LOCK_POLL_S = 0.01
"""First pause before a waiting turn retries a busy session's lock; it doubles each time..."""
LOCK_POLL_MAX_S = 0.1
"""...up to this (with jitter): a lock freed is seen within about 0.1 s."""

_KEEP_REPLY = """
if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  redis.call('LREM', KEYS[2], 0, ARGV[1])
end
redis.call('RPUSH', KEYS[2], ARGV[1])
local extra = redis.call('LLEN', KEYS[2]) - tonumber(ARGV[3])
if extra > 0 then
  redis.call('HDEL', KEYS[1], unpack(redis.call('LRANGE', KEYS[2], 0, extra - 1)))
  redis.call('LTRIM', KEYS[2], extra, -1)
end
return extra
"""
"""Save one reply (KEYS: replies hash, order list; ARGV: field, reply, how many to keep)."""

_HELD: ContextVar[Mapping[str, bytes] | None] = ContextVar("dialogkit_redis_locks", default=None)
"""The lock tokens the current task holds, by session id: what ``save`` fences on."""


def _parse_scenario(raw: bytes | str) -> Scenario:
    return Scenario.from_dict(json.loads(raw))


def connect(url: str, *, max_connections: int, pool_timeout_s: float) -> Redis:
    """A client whose pool waits for a free connection and survives a Redis restart."""
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=pool_timeout_s,
        health_check_interval=30,
        socket_connect_timeout=5,
        socket_keepalive=True,
        retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=1.0), retries=5),
        retry_on_error=[RedisConnectionError, RedisTimeoutError, ConnectionResetError],
    )
    return Redis.from_pool(pool)  # closing the client closes its pool


def _reply_field(key: str) -> str:
    """A client's idempotency key (up to 255 characters of any text) as a short hash field."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


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
        lock_ttl_s: float = 10.0,
        max_connections: int = 256,
        pool_timeout_s: float = 10.0,
    ) -> None:
        self._redis: Redis = (
            connect(url_or_client, max_connections=max_connections, pool_timeout_s=pool_timeout_s)
            if isinstance(url_or_client, str)
            else url_or_client
        )
        self._prefix = prefix
        self.state_ttl_s = state_ttl_s
        self.config_ttl_s = config_ttl_s
        self.limits = limits or RecordLimits()
        self._lock_timeout_s = lock_timeout_s
        self._lock_wait_s = lock_wait_s
        self._lock_ttl_s = min(lock_ttl_s, lock_timeout_s)
        self._queues = SessionQueues(lock_wait_s)
        """This worker's turns of each busy session: only the first of each polls Redis."""

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
        reply: tuple[str, bytes] | None = None,
    ) -> float:
        session_id = config.session_id
        now = time.time()
        ttl_ms = self._ttl_ms(config, now)
        config_key = self._key("config", session_id)
        if new:
            await self._keep_scenario(scenario)  # before the session can be seen
        # A new session is not fenced: no turn can have saved it before, so there is nothing
        # a lost lock could let it overwrite, and a slow opening (a skill call, a loaded
        # worker) must not fail for a lock that only kept its id's callbacks waiting.
        token = None if new else (_HELD.get() or {}).get(session_id)
        lock_key = self._key("lock", session_id)
        for _ in range(FENCE_ATTEMPTS):
            async with self._redis.pipeline(transaction=True) as pipe:
                if token is not None:
                    # Fenced: the transaction runs only if the lock is still this turn's.
                    await pipe.watch(lock_key)
                    if await pipe.get(lock_key) != token:
                        raise LockLost(f"the lock of session {session_id!r} was lost before saving")
                    pipe.multi()  # type: ignore[no-untyped-call]
                if new:
                    pipe.set(config_key, dump_json(config), px=ttl_ms)
                else:
                    pipe.pexpire(config_key, ttl_ms)
                pipe.set(self._key("state", session_id), STATE.encode(state), px=ttl_ms)
                for kind, items in encode_records(records):
                    key = self._key(kind, session_id)
                    pipe.rpush(key, *items)
                    pipe.ltrim(key, -self.limits.rows, -1)
                for kind in STORED_KINDS:
                    pipe.pexpire(self._key(kind, session_id), ttl_ms)
                self._keep_reply(pipe, session_id, reply, ttl_ms)
                try:
                    replies = await pipe.execute()
                    break
                except WatchError:
                    # The turn's own lock renewal (a PEXPIRE on the lock key) also breaks the
                    # WATCH; nothing was written, and the next attempt's GET tells that apart
                    # from a takeover.
                    continue
        else:
            raise LockLost(f"the lock of session {session_id!r} kept changing while saving")
        if not replies[0]:
            # Its config expired while the turn ran: write it (and its scenario) again.
            await self._keep_scenario(scenario)
            await self._redis.set(config_key, dump_json(config), px=ttl_ms)
        return now + ttl_ms / 1000

    def _keep_reply(
        self, pipe: Pipeline, session_id: str, reply: tuple[str, bytes] | None, ttl_ms: int
    ) -> None:
        """Queue in the save's transaction: the keyed turn's reply (if any), and the TTL of
        the session's saved replies renewed with its other keys."""
        replies, order = self._key("replies", session_id), self._key("reply-order", session_id)
        if reply is not None:
            field = _reply_field(reply[0])
            pipe.eval(_KEEP_REPLY, 2, replies, order, field, reply[1], self.limits.replies)
        pipe.pexpire(replies, ttl_ms)
        pipe.pexpire(order, ttl_ms)

    async def saved_reply(self, session_id: str, key: str) -> bytes | None:
        raw: Any = await self._redis.hget(self._key("replies", session_id), _reply_field(key))
        return None if raw is None else bytes(raw)

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
            STATE.decode(raw_state),
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
            # A large graph takes a while to encode: off the event loop.
            document = await asyncio.to_thread(json.dumps, scenario.to_dict(), ensure_ascii=False)
            await self._redis.set(key, document, ex=self.config_ttl_s)

    async def scenario(self, key: str) -> Scenario | None:
        raw: Any = await self._redis.get(self._key("scenario", key))
        if raw is None:
            return None
        # Parsing a large graph takes a while: off the event loop, as the cache prepares it.
        return await asyncio.to_thread(_parse_scenario, raw)

    # ----------------------------------------------------------------- vectors

    async def vectors(self, key: str) -> bytes | None:
        """A scenario's embedding vectors (``dialogkit.nlu._embeddings``); a read renews them."""
        raw: Any = await self._redis.getex(self._key("vectors", key), ex=self.config_ttl_s)
        return None if raw is None else bytes(raw)

    async def keep_vectors(self, key: str, data: bytes) -> None:
        """Share a scenario's vectors with the other workers (computed once per model)."""
        await self._redis.set(self._key("vectors", key), data, ex=self.config_ttl_s)

    # ----------------------------------------------------------------- locking

    @asynccontextmanager
    async def lock(self, session_id: str) -> AsyncIterator[None]:
        gives_up = time.monotonic() + self._lock_wait_s
        async with self._queues.turn(session_id, gives_up):
            lock = await self._acquire(session_id, gives_up)
            token: bytes = lock.local.token
            held = _HELD.set({**(_HELD.get() or {}), session_id: token})
            renewal = asyncio.create_task(self._renew(lock, session_id))
            try:
                yield
            finally:
                renewal.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await renewal
                _HELD.reset(held)
                try:
                    await lock.release()
                except LockError:
                    logger.warning(
                        "the lock of session %s expired before the turn ended", escape(session_id)
                    )

    async def _acquire(self, session_id: str, gives_up: float) -> Lock:
        """The session's Redis lock, polled with a growing pause until ``gives_up``."""
        lock = self._redis.lock(
            self._key("lock", session_id), timeout=self._lock_ttl_s, thread_local=False
        )
        pause = LOCK_POLL_S
        while not await lock.acquire(blocking=False):
            left = gives_up - time.monotonic()
            if left <= 0:
                raise SessionBusy(self._lock_wait_s)
            await asyncio.sleep(min(left, random.uniform(pause / 2, pause)))
            pause = min(pause * 2, LOCK_POLL_MAX_S)
        return lock

    async def _renew(self, lock: Lock, session_id: str) -> None:
        """Keep the lock alive while its turn runs, but not past ``lock_timeout_s``."""
        ends = time.monotonic() + self._lock_timeout_s
        while True:
            await asyncio.sleep(self._lock_ttl_s / 3)
            left = ends - time.monotonic()
            if left <= 0:
                logger.warning(
                    "session %s: a turn outlived its deadline; its lock is no longer renewed",
                    escape(session_id),
                )
                return
            try:
                await lock.extend(min(self._lock_ttl_s, left), replace_ttl=True)
            except LockError:
                logger.warning("session %s: its lock was lost mid-turn", escape(session_id))
                return
            except (RedisConnectionError, RedisTimeoutError) as exc:
                logger.warning("session %s: could not renew its lock: %s", escape(session_id), exc)

    async def aclose(self) -> None:
        await self._redis.aclose()
