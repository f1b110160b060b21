"""What every simulated user is: given where the conversation stands, say the next thing.

The runner shows a user the bot's last reply, the node the session is at and the slots it
holds (``Situation``); the user answers with an ``Utterance`` (text and STT confidence), or
``None`` to leave the conversation. Rule users and model-played users share this protocol,
so the runner and its metrics do not care which one is talking.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from dialogkit.engine.session import Reply
from dialogkit.scenario.model import Node
from dialogkit.scenario.scenario import Scenario

Persona = Literal[
    "cooperative", "terse", "over_informative", "self_correcting", "paraphrasing", "noisy"
]
PERSONAS: tuple[Persona, ...] = (
    "cooperative",
    "terse",
    "over_informative",
    "self_correcting",
    "paraphrasing",
    "noisy",
)
PERSONA_HELP: dict[str, str] = {
    "cooperative": "answers what is asked, one value at a time, in the scenario's own words",
    "terse": "the shortest wording of everything",
    "over_informative": "gives every value it still has in one utterance",
    "self_correcting": "sometimes names a wrong choice first, then corrects it",
    "paraphrasing": "other words for yes/no/cancel/help, values in other forms, fillers",
    "noisy": "typos, low STT confidence, silence and off-topic remarks on some turns",
}
"""One line per persona, for ``dialogkit eval --help`` and the docs."""
MIX = "mix"
"""Not a persona: each simulated user gets one of ``PERSONAS``, drawn by seed."""

CONFIDENT = 0.0
"""The confidence of a typed (or perfectly heard) utterance, as the API's default."""


@dataclass(frozen=True)
class Situation:
    """Where the conversation stands when the user speaks."""

    scenario: Scenario
    reply: Reply
    slots: dict[str, Any]
    turn: int
    """How many utterances the user has said so far."""
    history: list[tuple[str, str]] = field(default_factory=list)
    """(role, text) pairs so far, ``user`` and ``assistant``."""

    @property
    def node(self) -> Node:
        return self.scenario.node(self.reply.current_node)

    @property
    def missing_slots(self) -> list[str]:
        """The node's collected slots that hold no value yet, in the order it asks for them."""
        return [n for n in self.node.collect_slots if self.slots.get(n) in (None, "")]

    @property
    def expected_slot(self) -> str | None:
        """The slot the bot is asking for now (the engine asks for the first missing one)."""
        missing = self.missing_slots
        return missing[0] if missing else None


@dataclass(frozen=True)
class Utterance:
    text: str
    confidence: float = CONFIDENT


class SimulatedUser(Protocol):
    """A user the runner can talk to; ``respond`` returns None to leave."""

    @property
    def persona(self) -> str: ...

    async def respond(self, situation: Situation) -> Utterance | None: ...
