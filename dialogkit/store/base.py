"""The storage interface: session configuration, dialogue state and the per-session lock."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import NamedTuple, Protocol

from dialogkit.engine.state import DialogueState, SessionConfig

STATE_TTL_S = 3600
CONFIG_TTL_S = 24 * 3600


class StoredState(NamedTuple):
    state: DialogueState
    expires_at: float
    """Unix time at which the state expires unless saved again."""
    ttl_s: float
    """Seconds left at the moment of reading, by the store's own clock."""


class SessionStore(Protocol):
    """Where sessions live. Implementations keep the TTL semantics of the spec:

    - the dialogue state expires ``state_ttl_s`` after its last save, checked on access;
    - the configuration expires ``config_ttl_s`` after creation, independently;
    - ``lock(session_id)`` serializes turns and state reads of one session, while different
      sessions proceed in parallel.

    ``get_state`` returns a copy: a turn that fails half-way leaves the stored state intact.
    """

    state_ttl_s: int
    config_ttl_s: int

    async def put_config(self, config: SessionConfig) -> None: ...

    async def get_config(self, session_id: str) -> SessionConfig | None: ...

    async def put_state(self, session_id: str, state: DialogueState) -> float:
        """Save and renew the TTL; returns the new expiry time."""
        ...

    async def get_state(self, session_id: str) -> StoredState | None: ...

    def lock(self, session_id: str) -> AbstractAsyncContextManager[None]: ...

    async def aclose(self) -> None: ...
