"""An expiry index that frees expired sessions in amortized O(1), without scanning them all.

Keys are filed in buckets by the whole second at which they expire; a min-heap holds the
bucket seconds (one entry per bucket, so at most one per second of TTL, however many keys
and renewals there are). Renewing a key moves it between buckets (two set operations);
collecting pops the due buckets only. Each key is freed at most one second late, which the
stores hide by checking the exact expiry on every access.
"""

from __future__ import annotations

import heapq
import math


class ExpiryWheel:
    """Keys by expiry second; ``due(now)`` hands back every key whose second has passed."""

    def __init__(self) -> None:
        self._buckets: dict[int, set[str]] = {}
        self._seconds: list[int] = []
        self._filed: dict[str, int] = {}

    def schedule(self, key: str, expires_at: float) -> None:
        """File ``key`` to expire at ``expires_at`` (moving it if it was filed already)."""
        second = math.ceil(expires_at)
        previous = self._filed.get(key)
        if previous == second:
            return
        if previous is not None:
            self._buckets[previous].discard(key)
        bucket = self._buckets.get(second)
        if bucket is None:
            bucket = self._buckets[second] = set()
            heapq.heappush(self._seconds, second)
        bucket.add(key)
        self._filed[key] = second

    def discard(self, key: str) -> None:
        second = self._filed.pop(key, None)
        if second is not None:
            self._buckets[second].discard(key)

    def due(self, now: float) -> list[str]:
        """Unfile and return every key that expires at or before ``now``."""
        expired: list[str] = []
        while self._seconds and self._seconds[0] <= now:
            for key in self._buckets.pop(heapq.heappop(self._seconds)):
                del self._filed[key]
                expired.append(key)
        return expired

    def __len__(self) -> int:
        return len(self._filed)
