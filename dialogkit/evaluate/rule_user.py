"""``RuleUser``: an offline simulated user that answers what the bot asks, from its goal.

At each turn it reads the node the session is at and the slots it holds. It answers the
slot the node asks for; at a node that asks for nothing it picks the way out that brings it
nearest to its goal's end node and says what that transition's condition listens for (an
intent example, a slot value); when the bot understood a value wrongly it corrects it where
the node accepts that slot. Personas change the wording, not the goal:

- ``cooperative``: one value per answer, in any of the goal's wordings;
- ``terse``: the shortest wording;
- ``over_informative``: every distinctive value it still has to give, in one utterance
  (asked the same question again, only its answer);
- ``self_correcting``: sometimes names a wrong enum value first, then corrects it;
- ``paraphrasing``: words nothing with the scenario's own examples where it can help it:
  dialogue acts from a paraphrase bank, values in other forms, fillers, corrections
  within an utterance (``paraphrase``);
- ``noisy``: typos, low STT confidence, silence and off-topic remarks on some turns.

Everything random comes from the user's own ``random.Random(seed)``: the same goal, persona
and seed say the same things against the same bot.
"""

from __future__ import annotations

import random
from typing import Any

from dialogkit.evaluate import paraphrase
from dialogkit.evaluate.goal import (
    Goal,
    confirmation_slots,
    draw_value,
    same_value,
    set_only_slots,
)
from dialogkit.evaluate.language import (
    CONNECTOR,
    OFF_TOPIC,
    builtin_examples,
    correction,
    supported,
)
from dialogkit.evaluate.outcomes import outcomes_of
from dialogkit.evaluate.routes import routes_of
from dialogkit.evaluate.users import CONFIDENT, Persona, Situation, Utterance
from dialogkit.nlu._entities import is_open
from dialogkit.scenario.conditions import evaluate
from dialogkit.scenario.model import AllOf, AnyOf, Condition, ConditionExpr, Node
from dialogkit.scenario.scenario import Scenario

NOISE_RATE = 0.3
"""Share of a noisy user's turns that are typos, low-confidence audio, silence or off-topic."""
MISTAKE_RATE = 0.5
"""Chance that a self-correcting user first names a wrong value for an enum slot."""
MAX_CORRECTIONS = 3
"""Turns spent correcting one misunderstood value (saying it again, or heading back to a
node that asks for it) before the user lets it be and the goal fails on that slot: a
person does not repeat a correction for ever."""
MAX_DETOURS = 2
"""Trips back to a node that would take a correction, all slots together: a person asks to
change something once or twice, then lets it be (fewer than a loop's 8 alternating turns)."""
LOW_CONFIDENCE = -0.95
"""Below the default STT threshold (-0.7): the engine's input gate rejects it."""


class RuleUser:
    """A seeded, deterministic simulated user; see the module docstring for personas."""

    def __init__(self, goal: Goal, persona: Persona = "cooperative", seed: int | str = 0) -> None:
        self.goal = goal
        self.persona: Persona = persona
        self._rng = random.Random(f"user:{seed}")
        self._improvised: dict[str, tuple[Any, list[str]]] = {}
        self._mistaken: set[str] = set()
        self._leaving = False
        self._corrections: dict[str, int] = {}
        """How often the user has tried to correct each slot (it gives up after a few)."""
        self._detours = 0
        """Turns spent heading back to a node that would take a correction (``MAX_DETOURS``)."""
        self._tried: set[tuple[str, int]] = set()
        """Checklist moves already made (node, edge index): each is tried once."""
        self._volunteered: set[tuple[str, str]] = set()
        """(node, slot) questions answered with extra values: asked again, the user was not
        understood and answers only the question (a person says less, not the same again)."""

    async def respond(self, situation: Situation) -> Utterance | None:
        return self.next(situation)

    def next(self, situation: Situation) -> Utterance | None:
        """The next utterance, or None to leave (the session is over, or the goal is lost)."""
        if situation.reply.session_complete or self._leaving:
            return None
        text = self._intend(situation)
        if self.persona == "noisy" and self._rng.random() < NOISE_RATE:
            return self._noise(text, situation.scenario)
        return Utterance(text)

    # ----------------------------------------------------------------- what to say

    def _intend(self, situation: Situation) -> str:
        scenario, node = situation.scenario, situation.node
        language = supported(scenario.language)
        wrong = [
            name
            for name in self._wanted(scenario)
            if situation.slots.get(name) not in (None, "")
            and not same_value(situation.slots[name], self._value(scenario, name))
            and self._corrections.get(name, 0) < MAX_CORRECTIONS
        ]
        expected = situation.expected_slot
        fixable = [name for name in wrong if name in _listens_for(node)]
        # An open slot (free text, a number) would take the correction as its answer.
        if fixable and (expected is None or _distinctive(scenario, expected)):
            self._corrections[fixable[0]] = self._corrections.get(fixable[0], 0) + 1
            phrase = self._phrase(scenario, fixable[0], correcting=True)
            return correction(phrase, language)
        if wrong and expected in confirmation_slots(scenario):
            # Asked to confirm a value it did not mean: "no" (the graph asks again).
            self._corrections[wrong[0]] = self._corrections.get(wrong[0], 0) + 1
            return self._intent_example(scenario, "deny") or "no"
        if expected is not None:
            return self._answer(situation, expected)
        targets = _targets(scenario, node, self.goal, situation.slots)
        if wrong and targets:
            listener = _nearest_listener(scenario, node, wrong[0])
            if listener is not None and self._detours < MAX_DETOURS:
                self._corrections[wrong[0]] = self._corrections.get(wrong[0], 0) + 1
                self._detours += 1
                targets = (listener,)
        return self._fill(situation, targets) or self._move(situation, targets)

    def _fill(self, situation: Situation, targets: tuple[str, ...]) -> str | None:
        """Words for a way out that sets a slot the goal still wants (a checklist item),
        provided the goal stays reachable from where it leads."""
        scenario, node = situation.scenario, situation.node
        checklist = set_only_slots(scenario)
        missing = {
            name
            for name in self.goal.slots
            if name in checklist and situation.slots.get(name) in (None, "")
        }
        if not missing or not targets:
            return None
        distances = routes_of(scenario).distances_to_any(targets)
        for index, edge in enumerate(routes_of(scenario).edges[node.id]):
            if (node.id, index) in self._tried or edge.target not in distances:
                continue
            if not edge.sets_slots() & missing:
                continue
            parts = self._satisfy(edge.transition.condition if edge.transition else None, situation)
            if parts:
                self._tried.add((node.id, index))
                return CONNECTOR[supported(scenario.language)].join(parts)
        return None

    def _answer(self, situation: Situation, name: str) -> str:
        parts = [self._say(situation.scenario, name)]
        question = (situation.node.id, name)
        if self.persona == "over_informative" and question not in self._volunteered:
            ahead = _slots_ahead(situation.scenario, situation.node, self.goal)
            for other in self._wanted(situation.scenario):
                if (
                    other != name
                    and other in ahead
                    and situation.slots.get(other) in (None, "")
                    and _distinctive(situation.scenario, other)
                ):
                    part = self._say(situation.scenario, other)
                    if part not in parts:  # two slots read from one phrase ("right 200")
                        parts.append(part)
            if len(parts) > 1:
                self._volunteered.add(question)
        return CONNECTOR[supported(situation.scenario.language)].join(parts)

    def _say(self, scenario: Scenario, name: str) -> str:
        """A value to give: the wanted one, or once a wrong one (self-correcting users)."""
        slot = scenario.slot(name)
        if (
            self.persona == "self_correcting"
            and slot is not None
            and slot.type == "enum"
            and name not in self._mistaken
            and self._rng.random() < MISTAKE_RATE
        ):
            self._mistaken.add(name)
            wanted = self._value(scenario, name)
            others = [value for value in slot.values if value != wanted]
            if others:
                return self._rng.choice(others)
        return self._phrase(scenario, name)

    def _move(self, situation: Situation, targets: tuple[str, ...]) -> str:
        """Words for the way out of the node that leads nearest to one of ``targets``."""
        scenario, node = situation.scenario, situation.node
        routes = routes_of(scenario)
        distances = routes.distances_to_any(targets) if targets else {}
        candidates = sorted(
            (edge for edge in routes.edges[node.id] if edge.target in distances),
            key=lambda edge: distances[edge.target],
        )
        for edge in candidates:
            if distances[edge.target] >= distances.get(node.id, len(distances) + 1):
                break
            if edge.transition is None:
                return self._neutral(situation)
            parts = self._satisfy(edge.transition.condition, situation)
            if parts is not None:
                joined = CONNECTOR[supported(scenario.language)].join(parts)
                return joined or self._neutral(situation)
        # No way forward: the goal cannot be reached from here. Say goodbye, then leave.
        self._leaving = True
        return self._intent_example(scenario, "goodbye") or "bye"

    def _neutral(self, situation: Situation) -> str:
        """Something on topic that fires no particular transition: the values still to give."""
        scenario = situation.scenario
        listens = _listens_for(situation.node)
        parts = [
            self._say(scenario, name)
            for name in self._wanted(scenario)
            if name in listens and situation.slots.get(name) in (None, "")
        ]
        if parts:
            return CONNECTOR[supported(scenario.language)].join(parts)
        return self._intent_example(scenario, "affirm") or "ok"

    def _satisfy(self, condition: ConditionExpr | None, situation: Situation) -> list[str] | None:
        """Phrases that make ``condition`` true, or None when the user cannot make it so.

        Conditions on what the user cannot say (context, turn counters) are assumed to hold;
        conditions on slots are read from the session.
        """
        if condition is None:
            return []
        if isinstance(condition, AllOf):
            parts: list[str] = []
            for item in condition.all:
                found = self._satisfy(item, situation)
                if found is None:
                    return None
                parts += found
            return parts
        if isinstance(condition, AnyOf):
            for item in condition.any:
                found = self._satisfy(item, situation)
                if found is not None:
                    return found
            return None
        if not isinstance(condition, Condition):
            return []
        return self._satisfy_one(condition, situation)

    def _satisfy_one(self, condition: Condition, situation: Situation) -> list[str] | None:
        scenario = situation.scenario
        root, _, rest = condition.field.partition(".")
        operator, value = condition.operator, condition.value
        if root == "slots":
            holds = evaluate(condition, {"slots": situation.slots})
            return [] if holds else None
        if condition.field == "nlu.intent" and operator in {"equals", "in"}:
            for intent in value if isinstance(value, list) else [value]:
                example = self._intent_example(scenario, str(intent))
                if example:
                    return [example]
            return None
        if root == "nlu" and rest.startswith("entities."):
            name = rest.removeprefix("entities.")
            if operator == "not_exists" or scenario.slot(name) is None:
                return [] if operator == "not_exists" else None
            if operator in {"equals", "in"}:
                allowed = value if isinstance(value, list) else [value]
                mine = self._value(scenario, name)
                if mine in allowed:
                    return [self._phrase(scenario, name)]
                said = [str(option) for option in allowed if option is not None]
                return said[:1] or None
            return [self._phrase(scenario, name)]
        if condition.field == "input.text" and operator == "contains":
            return [str(value)] if value is not None else None
        if root in {"nlu", "input"}:
            return None
        return []

    # ----------------------------------------------------------------- values and words

    def _values_in(self, scenario: Scenario) -> list[str]:
        """Every wording of a value the user wants, longest first."""
        said = {p for name in self._wanted(scenario) for p in self._phrasings_of(scenario, name)}
        return sorted(said, key=len, reverse=True)

    def _phrasings_of(self, scenario: Scenario, name: str) -> list[str]:
        wanted = self._value(scenario, name)
        spoken = self.goal.phrasings(name) or self._improvise(scenario, name)[1]
        return [*spoken, *([] if wanted in (None, "") else [str(wanted)])]

    def _wanted(self, scenario: Scenario) -> list[str]:
        return [*self.goal.slots, *(n for n in self._improvised if n not in self.goal.slots)]

    def _value(self, scenario: Scenario, name: str) -> Any:
        if name in self.goal.slots:
            return self.goal.slots[name]
        return self._improvise(scenario, name)[0]

    def _phrase(self, scenario: Scenario, name: str, *, correcting: bool = False) -> str:
        phrasings = self.goal.phrasings(name) or self._improvise(scenario, name)[1]
        if self.persona == "terse":
            return min(phrasings, key=len)
        chosen = self._rng.choice(phrasings)
        if self.persona == "paraphrasing":
            return self._paraphrase(scenario, name, chosen, correcting)
        return chosen

    def _paraphrase(self, scenario: Scenario, name: str, said: str, correcting: bool) -> str:
        """The value in another form, sometimes after a filler or a value taken back
        (not inside a correction, which already takes a value back)."""
        slot, language = scenario.slot(name), supported(scenario.language)
        if slot is None:
            return said
        wanted = self._value(scenario, name)
        if slot.type == "boolean" and isinstance(wanted, bool):
            said = paraphrase.act("affirm" if wanted else "deny", language, self._rng) or said
        else:
            said = paraphrase.value(slot.type, wanted, language, self._rng, said) or said
        if correcting:
            return said
        others = [value for value in slot.values if value != wanted]
        if slot.type == "enum" and others and self._rng.random() < paraphrase.CORRECTION_RATE:
            said = paraphrase.corrected(self._rng.choice(others), said, language)
        return paraphrase.filler(said, language, self._rng)

    def _improvise(self, scenario: Scenario, name: str) -> tuple[Any, list[str]]:
        """A value for a slot the goal does not name, drawn once and then kept."""
        if name not in self._improvised:
            slot = scenario.slot(name)
            drawn = draw_value(slot, scenario.language, self._rng) if slot is not None else None
            self._improvised[name] = drawn or ("", [""])
        return self._improvised[name]

    def _intent_example(self, scenario: Scenario, intent: str) -> str:
        language = supported(scenario.language)
        if self.persona == "paraphrasing":
            other = paraphrase.act(intent, language, self._rng)
            if other is not None:
                return other
        declared = scenario.document.intents.get(intent)
        examples = list(declared.examples) if declared and declared.examples else []
        examples = examples or builtin_examples(intent, scenario.language)
        if not examples and declared is not None:
            examples = list(declared.keywords)
        if not examples:
            return ""
        if self.persona == "terse":
            return min(examples, key=len)
        chosen = self._rng.choice(examples)
        if self.persona == "paraphrasing":
            return paraphrase.filler(chosen, language, self._rng)
        return chosen

    def _noise(self, text: str, scenario: Scenario) -> Utterance:
        """A noisy turn: a typo in the wording (never in a value the user means: the goal
        stays its true value, and no bot could read "suer527@example.com" as the user's
        address), low STT confidence, silence or an off-topic remark."""
        language = scenario.language
        roll = self._rng.random()
        typed = _typo(text, self._rng, self._values_in(scenario)) if roll < 0.35 else None
        if typed is not None:
            return Utterance(typed)
        if roll < 0.6:
            return Utterance(text, LOW_CONFIDENCE)
        if roll < 0.8:
            return Utterance("")
        return Utterance(self._rng.choice(OFF_TOPIC[supported(language)]), CONFIDENT)


def _typo(text: str, rng: random.Random, values: list[str]) -> str | None:
    """Swap two neighbouring letters (or double one, in scripts without spaces) outside
    every value in ``values`` said in ``text``; None when the wording is all values."""
    kept = [False] * len(text)
    for said in values:
        start = text.find(said) if said else -1
        while start >= 0:
            kept[start : start + len(said)] = [True] * len(said)
            start = text.find(said, start + 1)
    swap = text.isascii()
    spots = [
        index
        for index in range(len(text) - 1)
        if text[index].isalpha()
        and not kept[index]
        and (not swap or (text[index + 1].isalpha() and not kept[index + 1]))
        and (not swap or text[index] != text[index + 1])
    ]
    if not spots:
        return None
    index = rng.choice(spots)
    if swap:
        return text[:index] + text[index + 1] + text[index] + text[index + 2 :]
    return text[: index + 1] + text[index] + text[index + 1 :]


def _listens_for(node: Node) -> set[str]:
    """Slots the node fills from what the user says."""
    return {*node.collect_slots, *node.accept_slots}


def _distinctive(scenario: Scenario, name: str) -> bool:
    slot = scenario.slot(name)
    return slot is not None and not is_open(slot)


def _targets(
    scenario: Scenario, node: Node, goal: Goal, slots: dict[str, Any] | None = None
) -> tuple[str, ...]:
    """Where the user heads: the goal's end, else the success ends still reachable from
    ``node`` (the user takes the nearest; checklist items come first, see ``_fill``).

    Given the session's ``slots``, a user none of whose values the bot has taken yet heads
    first for a node that asks for one: in a menu ("opening hours, a loan, an agent") it
    picks the branch its goal is about, not the nearest end.
    """
    if goal.end_node is not None:
        return (goal.end_node,)
    reachable = routes_of(scenario).reachable(node.id)
    if slots is not None and goal.slots and all(slots.get(n) in (None, "") for n in goal.slots):
        wanted = set(goal.slots)
        askers = tuple(
            n.id
            for n in scenario.nodes
            if n.id in reachable and n.id != node.id and wanted & set(n.collect_slots)
        )
        if askers:
            return askers
    return tuple(end for end in outcomes_of(scenario).success_ends if end in reachable)


def _slots_ahead(scenario: Scenario, node: Node, goal: Goal) -> set[str]:
    """Slots asked for on a shortest route from ``node`` to where the user heads: what an
    over-informative user volunteers (not the values of branches it will not take)."""
    routes = routes_of(scenario)
    targets = _targets(scenario, node, goal)
    to_goal = routes.distances_to_any(targets) if targets else {}
    if node.id not in to_goal:
        return set(node.collect_slots)
    from_here = routes.reachable(node.id)
    on_route = [
        n
        for n in scenario.nodes
        if n.id in from_here
        and n.id in to_goal
        and from_here[n.id] + to_goal[n.id] == to_goal[node.id]
    ]
    return {name for n in on_route for name in n.collect_slots}


def _nearest_listener(scenario: Scenario, node: Node, slot: str) -> str | None:
    """The nearest other node that fills ``slot`` from speech (to correct it there)."""
    reachable = routes_of(scenario).reachable(node.id)
    listeners = [
        n.id
        for n in scenario.nodes
        if n.id != node.id and n.id in reachable and slot in _listens_for(n) and not n.terminal
    ]
    return min(listeners, key=lambda found: reachable[found]) if listeners else None
