"""The interface between the engine and skill execution."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from dialogkit.scenario.model import Node
from dialogkit.scenario.scenario import Scenario


@dataclass(frozen=True)
class SkillCall:
    """One visit's skill call: the node, and the turn's scope its input_map reads from."""

    scenario: Scenario
    node: Node
    scope: Mapping[str, Any]
    session_id: str
    locale: str = ""
    timezone: str = ""
    deadline: float | None = None
    """The turn's deadline (a ``time.monotonic()`` instant): no call outlives it."""


@dataclass
class SkillOutcome:
    """What the engine needs from a skill call.

    ``reply`` is the text to say: the direct-mode answer, or on failure the first available
    fallback; it is None only in ``nlg`` mode on success, where ``output`` and ``citations``
    go to NLG. Updates are already filtered through ``allowed_updates`` and ``result_map``.
    """

    status: Literal["success", "error"]
    mode: Literal["direct", "nlg"] = "direct"
    reply: str | None = None
    output: dict[str, Any] = field(default_factory=dict)
    citations: list[Any] = field(default_factory=list)
    slot_updates: dict[str, Any] = field(default_factory=dict)
    context_updates: dict[str, Any] = field(default_factory=dict)
    error_code: str | None = None
    error_detail: str | None = None


class SkillRunner(Protocol):
    async def run(self, call: SkillCall) -> SkillOutcome:
        """Run the node's skill; must not raise (failures are outcomes)."""
        ...
