"""``Goal``: what a simulated user wants from a conversation, and how its end is judged.

A goal holds the slot values the user wants (as the engine stores them) and how the user
words them, the expected end (terminal node and/or end reason), and optional assertions on
the final state: slots and context (the conversation-test ``Expectations``) and skills that
must have been called. ``Goal.sample`` draws goals from a scenario's slot registry.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dialogkit.engine.session import Reply
from dialogkit.evaluate.language import FREE_TEXT, builtin_examples, language_of, supported
from dialogkit.evaluate.routes import routes_of
from dialogkit.nlu.entities import INVALID, coerce
from dialogkit.scenario.model import Slot
from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.conversations import Expectations, Observation, check
from dialogkit.wire import ChatbotSessionInfoResponse

DEFAULT_NUMBER_RANGE = (1, 10)


class Goal(BaseModel):
    """What one simulated user wants; success is judged on the session's end state."""

    model_config = ConfigDict(extra="forbid")

    slots: dict[str, Any] = Field(
        default_factory=dict, description="Slot values the user wants, as the engine stores them."
    )
    say: dict[str, list[str]] = Field(
        default_factory=dict,
        description="How the user words each value (default: the value itself).",
    )
    end_node: str | None = Field(None, description="The terminal node the session must end at.")
    end_reason: str | None = Field(None, description="The end reason the session must give.")
    expect: Expectations | None = Field(
        None, description="Assertions on the final state, as in conversation tests."
    )
    skills: list[str] = Field(
        default_factory=list, description="Skill ids the conversation must have called."
    )

    def phrasings(self, name: str) -> list[str]:
        """The ways the user says its value for ``name`` (empty when it has none)."""
        if self.say.get(name):
            return self.say[name]
        return [_text(self.slots[name])] if name in self.slots else []

    # ----------------------------------------------------------------- sampling

    @classmethod
    def sample(cls, scenario: Scenario, seed: int | str = 0) -> Goal:
        """One goal: a value for every slot the graph asks for, the scenario's main end.

        Values come from the slot registry: an enum value (worded as the value or one of its
        synonyms), an example, a number within the validation range, a date or time. Slots
        whose values cannot be produced (a pattern slot with no examples) are left out.
        """
        rng = random.Random(f"goal:{seed}")
        asked = dict.fromkeys(name for node in scenario.nodes for name in node.collect_slots)
        slots: dict[str, Any] = {}
        say: dict[str, list[str]] = {}
        for name in asked:
            slot = scenario.slot(name)
            drawn = draw_value(slot, scenario.language, rng) if slot is not None else None
            if drawn is not None:
                slots[name], say[name] = drawn
        ends = routes_of(scenario).ends()
        return cls(slots=slots, say=say, end_node=ends[0].id if ends else None)

    @classmethod
    def sample_many(cls, scenario: Scenario, n: int, seed: int | str = 0) -> list[Goal]:
        """``n`` goals, the i-th drawn with seed ``f"{seed}/{i}"``."""
        return [cls.sample(scenario, f"{seed}/{index}") for index in range(n)]

    # ----------------------------------------------------------------- judging

    def judge(
        self,
        scenario: Scenario,
        final: Reply,
        info: ChatbotSessionInfoResponse,
        path: list[str],
    ) -> Verdict:
        """Whether the conversation met the goal; if not, the first reason why.

        Slots the session filled must hold the wanted values; slots it never asked for (a
        branch not taken) may stay empty.
        """
        where = info.current_node
        if not info.session_complete:
            return Verdict(False, f"not complete: stopped at node {where}")
        if self.end_node is not None and where != self.end_node:
            return Verdict(False, f"ended at node {where}, expected {self.end_node}")
        reason = final.final_data.end_reason if final.final_data else None
        if self.end_reason is not None and reason != self.end_reason:
            return Verdict(False, f"end reason {reason!r}, expected {self.end_reason!r}")
        for name, wanted in self.slots.items():
            got = info.slots.get(name)
            if got not in (None, "") and not same_value(got, wanted):
                return Verdict(False, f"slot {name}: {got!r}, wanted {wanted!r}")
        called = {scenario.node(n).params.skill for n in path if scenario.has_node(n)}
        for skill in self.skills:
            if skill not in called:
                return Verdict(False, f"skill {skill} was not called")
        if self.expect is not None:
            unmet = check(self.expect, Observation(final, info))
            if unmet is not None:
                name, expected, actual = unmet
                return Verdict(False, f"{name}: expected {expected!r}, got {actual!r}")
        return Verdict(True)


@dataclass(frozen=True)
class Verdict:
    success: bool
    failure: str | None = None


def same_value(got: Any, wanted: Any) -> bool:
    """Equal values; text compared without case and surrounding space."""
    if isinstance(got, str) and isinstance(wanted, str):
        return got.strip().casefold() == wanted.strip().casefold()
    return bool(got == wanted)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def draw_value(slot: Slot, language: str, rng: random.Random) -> tuple[Any, list[str]] | None:
    """A value for ``slot`` and the ways to say it, or None when none can be produced."""
    if slot.type == "enum" and slot.values:
        value = rng.choice(slot.values)
        words = [value, *slot.synonyms.get(value, [])]
        native = [word for word in words if language_of(word) == supported(language)]
        return value, native or words
    if slot.type == "boolean":
        yes = rng.random() < 0.5
        words = builtin_examples("affirm" if yes else "deny", language)
        return yes, words[:3] or [_text(yes)]
    if slot.examples:
        text = rng.choice(slot.examples)
    elif slot.type in {"integer", "number"}:
        low = slot.validation.min if slot.validation.min is not None else DEFAULT_NUMBER_RANGE[0]
        high = slot.validation.max if slot.validation.max is not None else DEFAULT_NUMBER_RANGE[1]
        text = str(rng.randint(int(low), int(max(low, high))))
    elif slot.type == "date":
        day = date(2026, 1, 1) + timedelta(days=rng.randrange(365))
        text = day.isoformat()
    elif slot.type == "time":
        text = f"{rng.randrange(9, 18):02d}:{rng.choice((0, 15, 30, 45)):02d}"
    elif slot.type == "phone":
        text = f"010-{rng.randrange(1000, 10000)}-{rng.randrange(1000, 10000)}"
    elif slot.type == "email":
        text = f"user{rng.randrange(1000)}@example.com"
    elif slot.type == "text" and not slot.pattern:
        text = rng.choice(FREE_TEXT[supported(language)])
    else:
        return None
    value = coerce(slot, text)
    return None if value is INVALID else (value, [text])
