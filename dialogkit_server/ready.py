"""``GET /v1/ready`` for many callers: one probe every few seconds, shared by all of them.

Probing opens a connection to the skill runtime and to every model endpoint, and reads the
store. Probes and load balancers call readiness often, and anyone can call it: so a worker
probes at most once per ``DIALOGKIT_READY_CACHE_S`` (callers that arrive while a probe runs
wait for that probe), and answers everyone else from the last report.
"""

from __future__ import annotations

import asyncio
import logging
import time

from dialogkit.engine.engine import Engine
from dialogkit.engine.readiness import readiness
from dialogkit.logsafe import escape
from dialogkit.wire import ReadinessResponse

logger = logging.getLogger("dialogkit.server")


class SharedProbe:
    """The readiness report of one worker, probed at most once per ``ttl_s``."""

    def __init__(self, engine: Engine, ttl_s: float) -> None:
        self._engine = engine
        self._ttl_s = ttl_s
        self._report: ReadinessResponse | None = None
        self._fresh_until = 0.0
        self._probe: asyncio.Future[ReadinessResponse] | None = None

    async def report(self) -> ReadinessResponse:
        if self._report is not None and time.monotonic() < self._fresh_until:
            return self._report
        if self._probe is None:
            self._probe = asyncio.ensure_future(self._run())
        # Shielded: a caller that hangs up does not cancel the probe the others wait for.
        return await asyncio.shield(self._probe)

    async def _run(self) -> ReadinessResponse:
        try:
            report = await readiness(self._engine)
        finally:
            self._probe = None
        self._report, self._fresh_until = report, time.monotonic() + self._ttl_s
        if not report.ready:
            # Plain callers see only which checks fail; the reasons go to the log.
            reasons = "; ".join(
                f"{name}: {report.checks[name].detail}" for name in report.not_ready
            )
            logger.warning("not ready: %s", escape(reasons, limit=2000))
        return report


def public_form(report: ReadinessResponse) -> dict[str, object]:
    """What any caller may see: ready, and the names of the failing checks (no addresses)."""
    return report.model_dump(mode="json", exclude={"checks"})


__all__ = ["SharedProbe", "public_form"]
