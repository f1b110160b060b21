"""The default store: process memory, with the spec's TTLs and per-session locks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

from dialogkit.engine.state import DialogueState, SessionConfig
from dialogkit.store.base import CONFIG_TTL_S, STATE_TTL_S, StoredState

T = TypeVar("T")
SWEEP_EVERY = 256
"""Writes between sweeps of expired entries, so that abandoned sessions do not pile up."""


class _ExpiringMap(Generic[T]):
    def __init__(self, clock: Callable[[], float]) -> None:
        self._items: dict[str, tuple[T, float]] = {}
        self._clock = clock
        self._writes = 0

    def put(self, key: str, value: T, ttl: float) -> float:
        expires_at = self._clock() + ttl
        self._items[key] = (value, expires_at)
        self._writes += 1
        if self._writes % SWEEP_EVERY == 0:
            self.sweep()
        return expires_at

    def get(self, key: str) -> tuple[T, float] | None:
        item = self._items.get(key)
        if item is None:
            return None
        if item[1] <= self._clock():
            del self._items[key]
            return None
        return item

    def sweep(self) -> None:
        now = self._clock()
        for key in [k for k, (_, expires_at) in self._items.items() if expires_at <= now]:
            del self._items[key]

    def __len__(self) -> int:
        return len(self._items)


class MemoryStore:
    """Sessions in this process only: lost on restart, not shared between workers.

    States are kept serialized, as Redis would keep them: every read is a private copy, so
    a turn that fails half-way cannot have touched the stored state (and JSON round trips
    are cheaper than deep copies of pydantic models).
    """

    def __init__(
        self,
        *,
        state_ttl_s: int = STATE_TTL_S,
        config_ttl_s: int = CONFIG_TTL_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.state_ttl_s = state_ttl_s
        self.config_ttl_s = config_ttl_s
        self._clock = clock
        self._configs: _ExpiringMap[SessionConfig] = _ExpiringMap(clock)
        self._states: _ExpiringMap[bytes] = _ExpiringMap(clock)
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def put_config(self, config: SessionConfig) -> None:
        self._configs.put(config.session_id, config, self.config_ttl_s)

    async def get_config(self, session_id: str) -> SessionConfig | None:
        item = self._configs.get(session_id)
        return item[0] if item else None

    async def put_state(self, session_id: str, state: DialogueState) -> float:
        return self._states.put(session_id, state.model_dump_json().encode(), self.state_ttl_s)

    async def get_state(self, session_id: str) -> StoredState | None:
        item = self._states.get(session_id)
        if item is None:
            return None
        raw, expires_at = item
        state = DialogueState.model_validate_json(raw)
        return StoredState(state, expires_at, expires_at - self._clock())

    @asynccontextmanager
    async def lock(self, session_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(session_id) or (asyncio.Lock(), 0)
        self._locks[session_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[session_id]
            if users <= 1:
                del self._locks[session_id]
            else:
                self._locks[session_id] = (lock, users - 1)

    def sweep(self) -> None:
        """Drop every expired entry now."""
        self._configs.sweep()
        self._states.sweep()

    @property
    def size(self) -> tuple[int, int, int]:
        """(configs, states, locks) currently held, expired ones included until swept."""
        return len(self._configs), len(self._states), len(self._locks)

    async def aclose(self) -> None:
        self._locks.clear()
