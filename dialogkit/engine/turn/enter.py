"""Entering nodes and applying moves: effects, skills, pass-through, completion.

A target node is *entered*: its skill runs (exactly once per entry), a terminal node
completes the session, its reply is written, and a node with ``wait_for_input: false`` (or
with nothing left to ask) passes straight on in the same turn. An action is applied at the
node (a skill node that keeps the session runs its skill again with this turn's input, but
never twice in one turn).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from dialogkit.engine.state import Records
from dialogkit.engine.turn.data import Moment, Move
from dialogkit.engine.turn.moves import pass_on
from dialogkit.engine.turn.record import record_visit
from dialogkit.engine.turn.replies import Replies
from dialogkit.engine.turn.slots import missing_slots, skill_values
from dialogkit.logsafe import escape
from dialogkit.scenario.model import Node, Transition
from dialogkit.scenario.templates import render
from dialogkit.scenario.validate import ENGINE_CONTEXT_KEYS
from dialogkit.skills._base import SkillCall, SkillOutcome
from dialogkit.skills._result import clean_outcome, failure_outcome

logger = logging.getLogger("dialogkit.turn")

MAX_PASS_THROUGH = 16
"""Hops one turn may pass through nodes that do not wait for input (guards cycles)."""


@dataclass(slots=True, frozen=True)
class Entering:
    """Moves the session through the graph and says what each node entered says."""

    moment: Moment
    replies: Replies
    records: Records

    async def take(self, move: Move, *, speak: bool = True) -> str:
        """Take a move to another node: its transition's effects, then the node."""
        if move.transition is not None:
            apply_effects(self.moment, move.transition)
        return await self.enter(move.target, move, speak=speak)

    async def apply(self, move: Move, skill: SkillOutcome | None) -> str:
        """Apply a user message's move; ``skill`` is the outcome of a skill this turn
        already ran at the node (a first message enters a bot-second entry node)."""
        moment, state = self.moment, self.moment.state
        if move.transition is not None:
            apply_effects(moment, move.transition)
        node = moment.node
        if move.kind == "goto":
            return await self.enter(move.target, move)
        if move.kind == "repeat":
            return state.last_reply or await self.replies.node_reply(node, skill, greeting=False)
        if move.kind == "help":
            return self.replies.help(node)
        if move.kind == "back":
            return await self.enter(self.previous_node(), move)
        if move.kind == "restart":
            state.slots.clear()
            state.context = {k: v for k, v in state.context.items() if k in ENGINE_CONTEXT_KEYS}
            return await self.enter(moment.scenario.entry, move)
        if node.params.skill and skill is None:
            # The skill answers every turn the session stays at its node, with this turn's
            # input, but never twice in one turn (a first message may have entered it).
            skill = await run_skill(moment, node)
            return await self.replies.node_reply(node, skill, greeting=False)
        return await self.replies.node_reply(node, skill, greeting=False, entering=False)

    async def enter(
        self, node_id: str, move: Move | None, *, greeting: bool = False, speak: bool = True
    ) -> str:
        """Enter a node: run its skill once, complete on terminal, reply, maybe pass on.

        The bot-first greeting is the whole opening reply (the contract): the nodes entered
        after it (passing on, or ``speak=False`` for the first-turn transition) run their
        skills and effects but say nothing.
        """
        moment, state = self.moment, self.moment.state
        parts: list[str] = []
        for _hop in range(MAX_PASS_THROUGH):
            source = state.current_node
            node = moment.scenario.node(node_id)
            state.current_node = node_id
            state.node_turns = 0
            state.fallback_retries = 0
            entered_from = source if move is not None or not greeting else None
            record_visit(state, self.records, node_id, entered_from)
            skill = await run_skill(moment, node) if node.params.skill else None
            if node.terminal:
                state.session_complete = True
                if move is not None and move.reason:
                    state.completion_reason = move.reason
            slots_done = bool(node.collect_slots) and not missing_slots(node, state.slots)
            follow = pass_on(moment.scenario, node, moment.scope(), slots_complete=slots_done)
            silent = follow is not None and (slots_done or self.is_silent(node, skill))
            if speak and (greeting or not silent):
                parts.append(await self.replies.node_reply(node, skill, greeting=greeting))
            speak = speak and not greeting
            greeting = False
            if follow is None:
                break
            if follow.transition is not None:
                apply_effects(moment, follow.transition)
            node_id = self.previous_node() if follow.kind == "back" else follow.target
            move = follow
        return " ".join(part for part in parts if part)

    def is_silent(self, node: Node, skill: SkillOutcome | None) -> bool:
        """A routing node: it passes on and has nothing of its own to say."""
        has_text = node.responses.get("default") or (skill and skill.reply)
        return not node.wait_for_input and not has_text and not self.replies.question(node)

    def previous_node(self) -> str:
        """The last other node among the recent visits (``RECENT_VISITS``), else the entry."""
        state = self.moment.state
        for node_id in reversed(state.visits[:-1]):
            if node_id != state.current_node:
                return node_id
        return self.moment.scenario.entry


async def enter_pending(moment: Moment, records: Records, node: Node) -> SkillOutcome | None:
    """With bot_first false the entry node is entered by the first message: its visit, and
    its skill's outcome (None when there was nothing to enter or no skill)."""
    state = moment.state
    if not state.pending_entry:
        return None
    state.pending_entry = False
    record_visit(state, records, node.id, None)
    return await run_skill(moment, node) if node.params.skill else None


async def run_skill(moment: Moment, node: Node) -> SkillOutcome:
    """Run the node's skill; its slot and context updates are written to the state."""
    runtime, state = moment.runtime, moment.state
    user = runtime.config.user
    call = SkillCall(
        scenario=runtime.scenario,
        node=node,
        scope=moment.scope(),
        session_id=runtime.config.session_id,
        locale=str(user.get("locale", "")),
        timezone=str(user.get("timezone", "")),
        deadline=runtime.deadline,
    )
    try:
        outcome = await runtime.skills.run(call)
    except Exception as exc:
        logger.exception("skill runner raised for node %s", escape(node.id))
        outcome = failure_outcome(call, "SKILL_RUNNER_CRASHED", repr(exc))
    outcome = clean_outcome(call, outcome, runtime.max_text_chars)
    if outcome.status == "error":
        logger.warning(
            "skill %s failed at node %s: %s %s",
            escape(node.params.skill),
            escape(node.id),
            escape(outcome.error_code),
            escape(outcome.error_detail or ""),
        )
    state.slots.update(skill_values(runtime.scenario, node, outcome.slot_updates))
    for key, value in outcome.context_updates.items():
        if key not in ENGINE_CONTEXT_KEYS and not key.startswith("_"):
            state.context[key] = value
    state.context["last_skill_status"] = outcome.status
    return outcome


def apply_effects(moment: Moment, transition: Transition) -> None:
    """A transition's writes: ``set`` and ``append`` (rendered in the turn's scope), then
    ``clear_slots``. Only declared slots and non-engine context keys are written."""
    state = moment.state
    scope = moment.scope()
    for destination, value in transition.set_values.items():
        write(moment, destination, render(value, scope) if isinstance(value, str) else value)
    for destination, value in transition.append_values.items():
        root, _, key = destination.partition(".")
        if root == "context" and key and key not in ENGINE_CONTEXT_KEYS:
            items = state.context.get(key)
            items = list(items) if isinstance(items, list) else []
            items.append(render(value, scope) if isinstance(value, str) else value)
            state.context[key] = items
    for name in transition.clear_slots:
        state.slots.pop(name, None)


def write(moment: Moment, destination: str, value: Any) -> None:
    """Write ``slots.X`` (a declared slot) or ``context.X`` (not an engine key)."""
    root, _, key = destination.partition(".")
    if root == "slots" and key in moment.scenario.document.slots:
        moment.state.slots[key] = value
    elif root == "context" and key and key not in ENGINE_CONTEXT_KEYS:
        moment.state.context[key] = value
