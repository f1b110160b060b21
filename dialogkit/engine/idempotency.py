"""Turns sent with an idempotency key: what is saved with them, and what a retry gets back.

A keyed turn saves its reply together with a digest of the message it applied (text and STT
confidence, the only inputs a turn uses). A message sent again with the same key gets the
saved reply when its digest matches (a retry), and ``IdempotencyKeyReused`` when it does not:
as in the IETF Idempotency-Key draft and Stripe, a reused key never answers another message's
reply. Stores keep the saved bytes opaque, the most recent ``RecordLimits.replies`` per session.
"""

from __future__ import annotations

import hashlib

from dialogkit.engine.session import Reply
from dialogkit.errors import IdempotencyKeyReused

_SEPARATOR = b"\n"
"""Between the digest (hex) and the reply JSON; neither holds a raw newline."""


def message_digest(text: str, confidence: float) -> bytes:
    """What identifies a turn's message: 32 hex characters."""
    message = f"{confidence!r}\x00{text}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(message).hexdigest()[:32].encode("ascii")


def saved_reply(digest: bytes, reply_json: bytes) -> bytes:
    """The bytes a store keeps for a keyed turn."""
    return digest + _SEPARATOR + reply_json


def replayed(saved: bytes, digest: bytes, key: str) -> Reply:
    """The saved reply for a retry of the same message; raises ``IdempotencyKeyReused``."""
    kept, _, reply_json = saved.partition(_SEPARATOR)
    if kept != digest:
        raise IdempotencyKeyReused(key)
    return Reply.model_validate_json(reply_json)


__all__ = ["message_digest", "replayed", "saved_reply"]
