"""Session storage: the ``SessionStore`` protocol and its in-process implementation.

A custom store implements ``SessionStore``; import what it needs from here::

    from dialogkit.store import RecordLimits, SessionStore, StoredSession

``RedisStore`` (``dialogkit.store.redis``) needs the ``redis`` extra, so it is not imported
here.
"""

from dialogkit.store._base import RecordLimits, SessionStore, StoredSession
from dialogkit.store._memory import MemoryStore

__all__ = ["MemoryStore", "RecordLimits", "SessionStore", "StoredSession"]
