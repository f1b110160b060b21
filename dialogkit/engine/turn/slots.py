"""Accepting slot values: the right slot or none, decided in one place.

A turn never writes a value it may have to take back. ``accept_values`` only says which
values a node would accept from an utterance; the move is chosen against those values and
the turn writes them when, and only when, it takes a move (a fallback leaves every slot as
it was). Values a skill returns pass through ``skill_values`` the same way: typed as their
slot, or dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import date
from typing import Any

from dialogkit.logsafe import escape
from dialogkit.nlu._acts import asks_about_values, is_question, is_small_talk
from dialogkit.nlu._discipline import admit, own_phrases
from dialogkit.nlu._entities import INVALID, coerce, is_open, validate
from dialogkit.nlu._kinds import slot_kind
from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.model import Node
from dialogkit.scenario.scenario import Scenario

logger = logging.getLogger("dialogkit.turn")


def missing_slots(node: Node, slots: Mapping[str, Any]) -> list[str]:
    """The slots the node collects that have no value yet, in the node's order."""
    return [name for name in node.collect_slots if slots.get(name) in (None, "")]


def expected_slot(node: Node, slots: Mapping[str, Any]) -> str | None:
    """The slot the node asks for now: its first missing one."""
    missing = missing_slots(node, slots)
    return missing[0] if missing else None


def accept_values(
    scenario: Scenario,
    node: Node,
    nlu: NLUResult,
    slots: Mapping[str, Any],
    context: Mapping[str, Any],
    *,
    text: str,
    today: date | None,
    distinctive_only: bool = False,
) -> dict[str, Any]:
    """The values of ``nlu.entities`` the node accepts, by slot, given the slots so far: the
    one acceptance policy of a turn (the NLU only proposes values).

    Distinctive values (an enum, a date, a pattern match...) count even when the sentence
    also triggers a global move (``distinctive_only``): they were said on purpose. Open
    values (a whole answer taken as text, a bare number, a yes/no) count only when the node
    itself handles the turn, and not when the node reads the utterance as one of the intents
    its own transitions name (a node that asks for a free note and offers a "nothing to
    report" intent takes "nothing, all fine" as that intent, not as a note). Small talk
    ("nice weather today") gives a date or a time only to the node that asks for it. A text
    slot is not filled from an utterance that gave another of the node's slots a typed
    value. Every
    value must pass ``discipline.admit`` (not from a question, not a remark about the slot,
    not the bot's own phrase, plausible for its kind, in the scenario's language packs);
    when in doubt the slot keeps its value.
    """
    language = scenario.language
    question = is_question(text, language)
    offered = question and not asks_about_values(text, language)
    asked = expected_slot(node, slots)
    own_intent = nlu.intent is not None and nlu.intent in scenario.index.node(node.id).own_intents
    persona = scenario.document.prompts.bot
    chat = is_small_talk(text, language)
    accepted: dict[str, Any] = {}
    for name in (*node.collect_slots, *node.accept_slots):
        slot = scenario.slot(name)
        if slot is None or name not in nlu.entities:
            continue
        if chat and name != asked and slot.type in SMALL_TALK_TYPES:
            continue
        if is_open(slot) and (distinctive_only or own_intent):
            continue
        if slot.type == "text" and _names_another(scenario, name, nlu, node):
            whole = str(nlu.entities[name]).strip() == text.strip()
            if name != asked or (whole and slot_kind(name, slot) in NAMING_KINDS):
                continue
        value = admit(
            name,
            slot,
            nlu.entities[name],
            question=question and not (offered and slot.type not in UNOFFERED_TYPES),
            asked=name == asked,
            own=own_phrases(persona, (context, slots), name),
            today=today,
            language=language,
        )
        if value is None or validate(slot, value) is INVALID:
            continue
        accepted[name] = value
    return accepted


SMALL_TALK_TYPES = frozenset({"date", "time"})
"""Types small talk names in passing ("nice weather today"): taken only when asked for."""

UNOFFERED_TYPES = frozenset({"text", "boolean"})
"""Types a question never offers: "Kim?" may be a name asked back, "yes?" no answer."""

NAMING_KINDS = frozenset({"person_name", "address", "identifier"})
"""Kinds whose value is never a whole sentence that also gave another slot its value."""


def _names_another(scenario: Scenario, name: str, nlu: NLUResult, node: Node) -> bool:
    """Whether the utterance gave another of the node's slots a value that is not free text:
    then a text slot nobody asked for is not what it says ("not the coast, the mountains"
    at a read-back changes the route, not the name)."""
    usable = {*node.collect_slots, *node.accept_slots}
    for other in nlu.entities:
        slot = scenario.slot(other)
        if other != name and other in usable and slot is not None and slot.type != "text":
            return True
    return False


def skill_values(scenario: Scenario, node: Node, updates: Mapping[str, Any]) -> dict[str, Any]:
    """A skill's slot updates typed as their slots, like NLU values; the rest is dropped.

    A runtime is outside the scenario author's control: an integer slot set to
    "not-a-number" would break every condition and template that reads it. ``None``
    still clears a slot.
    """
    accepted: dict[str, Any] = {}
    for name, value in updates.items():
        slot = scenario.slot(name)
        if slot is None:
            continue
        typed = None if value is None else coerce(slot, value)
        if typed is INVALID:
            logger.warning(
                "skill %s at node %s set slot %s to %s, which is not a valid %s: dropped",
                escape(node.params.skill),
                escape(node.id),
                escape(name),
                escape(repr(value)),
                slot.type,
            )
            continue
        accepted[name] = typed
    return accepted
