"""``Goal``: what a simulated user wants from a conversation, and how its end is judged.

A goal holds the slot values the user wants (as the engine stores them) and how the user
words them, the expected end (terminal node and/or end reason), and optional assertions on
the final state: slots and context (the conversation-test ``Expectations``) and skills that
must have been called. ``Goal.sample`` draws goals from a scenario's slot registry.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dialogkit.engine.session import Reply
from dialogkit.evaluate.clock import Clock
from dialogkit.evaluate.failures import FailureKind
from dialogkit.evaluate.language import (
    ADDRESSES,
    FREE_TEXT,
    PERSON_NAMES,
    PHONE_FORMATS,
    REQUESTS,
    asks_for_request,
    builtin_examples,
    language_of,
    supported,
)
from dialogkit.evaluate.outcomes import outcomes_of
from dialogkit.evaluate.pattern_values import text_matching
from dialogkit.evaluate.routes import routes_of
from dialogkit.nlu._entities import INVALID, coerce, is_open
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._kinds import slot_kind
from dialogkit.scenario.conditions import iter_conditions
from dialogkit.scenario.model import Slot
from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.conversations import Expectations, Observation, check
from dialogkit.wire import ChatbotSessionInfoResponse

DEFAULT_NUMBER_RANGE = (1, 10)
MONEY_RANGES: dict[str, tuple[int, int, int]] = {
    "won": (10_000, 1_000_000, 10_000),
    "krw": (10_000, 1_000_000, 10_000),
    "yen": (1_000, 100_000, 1_000),
    "jpy": (1_000, 100_000, 1_000),
    "usd": (5, 500, 5),
    "dollars": (5, 500, 5),
    "eur": (5, 500, 5),
    "euros": (5, 500, 5),
}
"""Amounts a person would name in each currency (low, high, step): a budget is never
"3 won". A slot's own validation bounds narrow them."""
DRAWS = 20
"""Wordings made up for a slot with no examples before it is left out of the goal: a
pattern or a validation rule may refuse some of them."""


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
    def sample(cls, scenario: Scenario, seed: int | str = 0, clock: Clock | None = None) -> Goal:
        """One goal: a value for every slot the graph asks for (or sets), no fixed end.

        Values come from the slot registry: ``eval_values`` when the scenario gives them,
        else an enum value (worded as the value or one of its synonyms), an example, a
        number within the validation range, a date or time; every value is checked
        against the slot's type, pattern and validation in the evaluation's ``clock``.
        Slots the graph only sets (a checklist ticked by transitions) want the value the
        graph sets. Slots whose values cannot be produced (a pattern slot with no
        examples) are left out. A yes/no slot whose "no" asks again (a transition on
        ``slots.NAME`` equal to false that clears it) is a confirmation: the goal says yes.
        Any success end of the scenario will do (``outcomes``).
        """
        rng = random.Random(f"goal:{seed}")
        frame = (clock or Clock()).frame
        slots: dict[str, Any] = {}
        say: dict[str, list[str]] = {}
        confirmations = confirmation_slots(scenario)
        for name in asked_slots(scenario):
            slot = scenario.slot(name)
            drawn = draw_value(slot, scenario.language, rng, frame, name) if slot else None
            if name in confirmations:
                drawn = True, builtin_examples("affirm", scenario.language)[:3] or ["yes"]
            if drawn is not None:
                slots[name], say[name] = drawn
        for name, value in set_only_slots(scenario).items():
            slots[name] = value
        return cls(slots=slots, say=say)

    @classmethod
    def sample_many(
        cls, scenario: Scenario, n: int, seed: int | str = 0, clock: Clock | None = None
    ) -> list[Goal]:
        """``n`` goals, the i-th drawn with seed ``f"{seed}/{i}"``."""
        return [cls.sample(scenario, f"{seed}/{index}", clock) for index in range(n)]

    # ----------------------------------------------------------------- judging

    def judge(self, scenario: Scenario, trail: Trail) -> Verdict:
        """Whether the conversation met the goal; if not, the first reason why.

        The session is judged where it first completed: at an end the goal names, else at
        any success end of the scenario (``outcomes_of``). Slots the session filled must
        hold the wanted values; slots it never asked for (a branch not taken) may stay
        empty. Sanity checks come first, so no nonsense run counts as success.
        """
        info, where = trail.info, trail.info.current_node
        if trail.looped is not None:
            first, second = trail.looped
            return Verdict.fail("loop", f"alternated between {first} and {second}")
        unaskable = sorted(set(self.slots) - fillable_slots(scenario))
        if unaskable:
            return Verdict.fail(
                "goal_unaskable", f"the graph never asks for {', '.join(unaskable)}"
            )
        ended = self._end(scenario, trail)
        if ended is not None and trail.rejections:
            # Not the dialogue's failure: the skill refused what the goal asked of it.
            return Verdict.fail("skill_rejected", f"skill rejected the goal: {trail.rejections[0]}")
        if ended is not None:
            return ended
        if self.slots and not self._engaged(scenario, trail):
            return Verdict.fail(
                "asked_nothing", f"completed at {where} without asking for any goal slot"
            )
        for name, wanted in self.slots.items():
            got = info.slots.get(name)
            if got not in (None, "") and not same_value(got, wanted):
                wrong = f"slot {name}: {got!r}, wanted {wanted!r}"
                if not trail.correctable(scenario, name):
                    return Verdict.fail(
                        "uncorrectable", f"{wrong}; the user never spoke where {name} is heard"
                    )
                return Verdict.fail("wrong_value", wrong)
        called = {scenario.node(n).params.skill for n in trail.path if scenario.has_node(n)}
        for skill in self.skills:
            if skill not in called:
                return Verdict.fail("expectation", f"skill {skill} was not called")
        if self.expect is not None:
            unmet = check(self.expect, Observation(trail.final, info))
            if unmet is not None:
                name, expected, actual = unmet
                return Verdict.fail("expectation", f"{name}: expected {expected!r}, got {actual!r}")
        return Verdict(True)

    def _end(self, scenario: Scenario, trail: Trail) -> Verdict | None:
        """A failure for where (and whether) the session completed, or None when it is fine."""
        info, where = trail.info, trail.info.current_node
        if not info.session_complete:
            if trail.failed_skills:
                return Verdict.fail("skill_failed", trail.failed_skills[0])
            if trail.left:
                return Verdict.fail("user_left", f"left at node {where}: no way to the goal")
            return Verdict.fail("turn_limit", f"not complete: stopped at node {where}")
        reason = trail.final.final_data.end_reason if trail.final.final_data else None
        outcomes = outcomes_of(scenario)
        if self.end_node is not None and where != self.end_node:
            failed = outcomes.of.get(where) == "failure"
            if failed and trail.failed_skills:
                return Verdict.fail("skill_failed", trail.failed_skills[0])
            kind: FailureKind = "failure_end" if failed else "wrong_end"
            return Verdict.fail(kind, f"ended at node {where}, expected {self.end_node}")
        if self.end_node is None and not outcomes.is_success(where):
            if trail.failed_skills:
                return Verdict.fail("skill_failed", trail.failed_skills[0])
            return Verdict.fail("failure_end", f"ended at failure end {where} ({reason})")
        if self.end_reason is not None and reason != self.end_reason:
            return Verdict.fail("wrong_end", f"end reason {reason!r}, expected {self.end_reason!r}")
        return None

    def _engaged(self, scenario: Scenario, trail: Trail) -> bool:
        """Whether the conversation asked for (or filled) at least one goal slot."""
        asked = {
            name
            for node in trail.path
            if scenario.has_node(node)
            for name in scenario.node(node).collect_slots
        }
        filled = {n for n, v in trail.info.slots.items() if v not in (None, "")}
        return bool(set(self.slots) & (asked | filled))


@dataclass(frozen=True)
class Trail:
    """What the runner saw of one conversation, for judging it."""

    final: Reply
    info: ChatbotSessionInfoResponse
    path: list[str]
    left: bool = False
    looped: tuple[str, str] | None = None
    rejections: list[str] = field(default_factory=list)
    """Skill calls the runtime refused (a 4xx answer to the goal's values)."""
    failed_skills: list[str] = field(default_factory=list)
    """Other failed skill calls (no runtime, timeouts, server errors)."""
    heard: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Each user turn: the node the user spoke at and the slots after it."""

    def correctable(self, scenario: Scenario, name: str) -> bool:
        """Whether, after ``name`` took its last value, the user spoke at a node that hears
        it while asking nothing open (a free-text or number question would take "no, I
        meant ..." as its own answer): the chance to take a wrong value back. Without turns
        (nothing recorded) it is assumed, so the failure stays a plain ``wrong_value``."""
        if not self.heard:
            return True
        final, settled = self.heard[-1][1].get(name), 0
        for index, (_, slots) in enumerate(self.heard):
            before = self.heard[index - 1][1].get(name) if index else None
            if slots.get(name) == final and before != final:
                settled = index + 1
        for index in range(settled, len(self.heard)):
            node_id, before = self.heard[index][0], self.heard[index - 1][1] if index else {}
            if not scenario.has_node(node_id):
                continue
            node = scenario.node(node_id)
            if name not in {*node.collect_slots, *node.accept_slots}:
                continue
            asked = next((n for n in node.collect_slots if before.get(n) in (None, "")), None)
            slot = scenario.slot(asked) if asked is not None else None
            if slot is None or not is_open(slot):
                return True
        return False


@dataclass(frozen=True)
class Verdict:
    success: bool
    failure: str | None = None
    kind: FailureKind | None = None

    @classmethod
    def fail(cls, kind: FailureKind, failure: str) -> Verdict:
        return cls(False, failure, kind)


def asked_slots(scenario: Scenario) -> list[str]:
    """Slots some node asks for, in graph order."""
    return list(dict.fromkeys(name for node in scenario.nodes for name in node.collect_slots))


def set_only_slots(scenario: Scenario) -> dict[str, Any]:
    """Slots no node asks for that transitions set to a fixed value (a checklist)."""
    return routes_of(scenario).memo("set_only_slots", lambda: _set_only_slots(scenario))


def _set_only_slots(scenario: Scenario) -> dict[str, Any]:
    asked = {n for node in scenario.nodes for n in (*node.collect_slots, *node.accept_slots)}
    found: dict[str, Any] = {}
    for edges in routes_of(scenario).edges.values():
        for edge in edges:
            if edge.transition is None:
                continue
            for key, value in edge.transition.set_values.items():
                name = key.removeprefix("slots.")
                fixed = not (isinstance(value, str) and "{" in value) and value is not None
                if key.startswith("slots.") and name not in asked and fixed:
                    found.setdefault(name, value)
    return found


def confirmation_slots(scenario: Scenario) -> set[str]:
    """Boolean slots whose false value only asks them again: a transition tests
    ``slots.NAME`` equal to false and clears it. No goal can want "no" there."""
    return routes_of(scenario).memo("confirmation_slots", lambda: _confirmation_slots(scenario))


def _confirmation_slots(scenario: Scenario) -> set[str]:
    found = set()
    for edges in routes_of(scenario).edges.values():
        for edge in edges:
            transition = edge.transition
            if transition is None or not transition.clear_slots:
                continue
            for condition, _ in iter_conditions(transition.condition, ""):
                name = condition.field.removeprefix("slots.")
                if (
                    condition.field.startswith("slots.")
                    and name in transition.clear_slots
                    and condition.operator == "equals"
                    and condition.value is False
                ):
                    found.add(name)
    return found


def fillable_slots(scenario: Scenario) -> set[str]:
    """Slots the graph can fill: asked, accepted, set by a transition or by a skill."""
    return routes_of(scenario).memo("fillable_slots", lambda: _fillable_slots(scenario))


def _fillable_slots(scenario: Scenario) -> set[str]:
    names = {n for node in scenario.nodes for n in (*node.collect_slots, *node.accept_slots)}
    names |= {
        key.removeprefix("slots.")
        for node in scenario.nodes
        for key in (*node.params.result_map, *node.params.allowed_updates)
    }
    names |= {
        n for edges in routes_of(scenario).edges.values() for e in edges for n in e.sets_slots()
    }
    names |= {
        key.removeprefix("slots.")
        for t in scenario.document.graph.global_transitions
        for key in t.set_values
        if key.startswith("slots.")
    }
    return names


def same_value(got: Any, wanted: Any) -> bool:
    """Equal values; text compared without case and surrounding space."""
    if isinstance(got, str) and isinstance(wanted, str):
        return got.strip().casefold() == wanted.strip().casefold()
    return bool(got == wanted)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def draw_value(
    slot: Slot, language: str, rng: random.Random, frame: Frame | None = None, name: str = ""
) -> tuple[Any, list[str]] | None:
    """A value for ``slot`` and the ways to say it, or None when none can be produced.

    Every wording is read back through the slot's own extraction and validation in
    ``frame`` (the evaluation's clock), so a goal never wants what the slot would refuse.
    """
    frame = frame or Clock().frame
    if slot.eval_values:
        return _first_valid(slot, rng.sample(slot.eval_values, len(slot.eval_values)), frame, name)
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
        found = _first_valid(slot, rng.sample(slot.examples, len(slot.examples)), frame, name)
        if found is not None:
            return found
    drawn = [_generated(slot, language, rng, frame, name) for _ in range(DRAWS)]
    if slot.pattern and slot.type == "text":
        # A name slot whose pattern refuses every name in the bank: what the pattern says.
        drawn += [text_matching(slot.pattern, rng) for _ in range(DRAWS)]
    return _first_valid(slot, [text for text in drawn if text is not None], frame, name)


def _first_valid(
    slot: Slot, texts: list[str], frame: Frame, name: str
) -> tuple[Any, list[str]] | None:
    for text in texts:
        value = coerce(slot, text, frame=frame, name=name)
        if value is not INVALID:
            return value, [text]
    return None


def _generated(
    slot: Slot, language: str, rng: random.Random, frame: Frame, name: str
) -> str | None:
    """A wording made up from the slot's kind, type, pattern and validation (no examples
    fit); the caller checks it against the slot and draws again when it does not fit."""
    rules, kind, speech = slot.validation, slot_kind(name, slot), supported(language)
    # The kind comes first: a text slot declared a phone or a date gets one, never a remark.
    if kind == "money":
        return str(_amount(slot, rng))
    if slot.type in {"integer", "number"} or kind in {"count", "duration", "measure"}:
        low = rules.min if rules.min is not None else DEFAULT_NUMBER_RANGE[0]
        high = rules.max if rules.max is not None else max(low, DEFAULT_NUMBER_RANGE[1])
        return str(rng.randint(int(low), int(max(low, high))))
    if slot.type == "date" or kind in {"date", "birth_date"}:
        past = rules.period == "past" or kind == "birth_date"
        days = -rng.randrange(20 * 365, 70 * 365) if past else rng.randrange(1, 60)
        return (frame.today + timedelta(days=days)).isoformat()
    if (slot.type == "time" or kind == "time") and rules.pattern:
        return text_matching(rules.pattern, rng)
    if slot.type == "time" or kind == "time":
        return f"{rng.randrange(8, 20):02d}:{rng.choice((0, 15, 30, 45)):02d}"
    if slot.type == "phone" or kind == "phone":
        return _phone(speech, rng)
    if slot.type == "email" or kind == "email":
        return f"user{rng.randrange(1000)}@example.com"
    if kind == "person_name":
        return rng.choice(PERSON_NAMES[speech])
    if kind == "address":
        return rng.choice(ADDRESSES[speech])
    if slot.pattern or slot.type == "pattern":
        return text_matching(slot.pattern or "", rng)
    if slot.type == "text":
        requests = asks_for_request(slot.description, slot.prompt)
        return rng.choice((REQUESTS if requests else FREE_TEXT)[speech])
    return None


def _amount(slot: Slot, rng: random.Random) -> int:
    """A round amount in the slot's currency, within its validation bounds."""
    low, high, step = MONEY_RANGES.get((slot.unit or "").strip().lower(), (5, 500, 5))
    rules = slot.validation
    low = max(low, int(rules.min)) if rules.min is not None else low
    high = min(high, int(rules.max)) if rules.max is not None else high
    if high < low:
        low, high, step = int(rules.min or 0), int(rules.max or 0), 1
    first = -(-low // step) * step
    if first > high:
        return rng.randint(low, high)
    return rng.randrange(first, high + 1, step)


def _phone(language: str, rng: random.Random) -> str:
    """A phone number in the way the language's speakers write one."""
    shape = rng.choice(PHONE_FORMATS[language])
    return re.sub(
        r"\{(\d)\}", lambda m: "".join(str(rng.randrange(10)) for _ in range(int(m[1]))), shape
    )
