"""``SkillWatch``: see the skill calls of simulated sessions, to tell refusals from failures.

A skill that answers a client error (HTTP 4xx: "target beyond range") refused the values the
goal asked for: the dialogue did its job, the goal did not fit the skill. Any other failure
(no runtime, a timeout, a server error) is the skill's. The engine turns both into the
scenario's fallback; the watch wraps the engine's skill runner for one evaluation and keeps
what each session's calls returned.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Final

from dialogkit.skills._base import SkillCall, SkillOutcome, SkillRunner

_CLIENT_ERROR: Final = re.compile(r"\bHTTP 4\d\d\b")


class SkillWatch:
    """A skill runner that passes calls on and remembers the failed ones per session."""

    def __init__(self, inner: SkillRunner) -> None:
        self.inner = inner
        self._rejected: dict[str, list[str]] = defaultdict(list)
        self._failed: dict[str, list[str]] = defaultdict(list)

    async def run(self, call: SkillCall) -> SkillOutcome:
        outcome = await self.inner.run(call)
        if outcome.status == "error":
            said = f"{call.node.params.skill} at {call.node.id}: {outcome.error_detail or ''}"
            refused = _CLIENT_ERROR.search(outcome.error_detail or "") is not None
            (self._rejected if refused else self._failed)[call.session_id].append(
                said if refused else f"{outcome.error_code}: {said}"
            )
        return outcome

    def failures(self, session_id: str) -> tuple[list[str], list[str]]:
        """(refusals, other failures) of one session's skill calls, oldest first."""
        return self._rejected.pop(session_id, []), self._failed.pop(session_id, [])
