"""The turn pipeline: one user message (or the bot-first opening) from input to reply.

Read top to bottom, a turn is:

1. the input gate (empty text -> ``no_input``; STT confidence at or below the threshold ->
   ``not_understood`` with intent ``stt_low_confidence``; both skip NLU);
2. NLU, limited to the intents and slots the current node can use;
3. the move: distinctive slot values first, global transitions, then open slot values and
   the node's ``next_nodes`` in order, its turn limit (when nothing matched but a stay), and
   ``default_next``;
4. applying it: a target node is *entered* (its skill runs, its reply is written, and a
   node with ``wait_for_input: false`` passes straight on), or an action is applied (a skill
   node that keeps the session runs its skill again with this turn's input: once per turn);
5. a fallback when the node could not use the input, with replies that never repeat an
   earlier assistant sentence (a skill node answers such input itself).

The bot-first opening greets at the entry node and then takes its first-turn transition, as
a turn with no input, unless the entry still waits for input.

``Turn`` works on a private copy of the dialogue state; the engine saves it only when the
turn finished, so a failure can never leave a half-updated session behind.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dialogkit.engine.state import (
    RECENT_HISTORY,
    RECENT_SAID,
    RECENT_VISITS,
    DialogueState,
    Records,
    SessionConfig,
    TurnRecord,
    Visit,
)
from dialogkit.logsafe import escape
from dialogkit.nlg import phrases
from dialogkit.nlg.base import FallbackKind, NLGKind, NLGProvider, NLGRequest
from dialogkit.nlg.dedupe import said_before
from dialogkit.nlu.acts import is_question
from dialogkit.nlu.base import NLUProvider, NLURequest
from dialogkit.nlu.builtin import BUILTIN_INTENTS, STT_LOW_CONFIDENCE
from dialogkit.nlu.discipline import admit
from dialogkit.nlu.entities import INVALID, coerce, is_open, validate
from dialogkit.nlu.frame import Frame
from dialogkit.nlu.morphology import keyword_in, normalize
from dialogkit.nlu.result import NLUResult
from dialogkit.sanitize import DEFAULT_MAX_TEXT_CHARS
from dialogkit.scenario.conditions import CompiledConditions
from dialogkit.scenario.model import Node, Slot, Transition
from dialogkit.scenario.scenario import Scenario
from dialogkit.scenario.templates import render, variants
from dialogkit.scenario.validate import ENGINE_CONTEXT_KEYS
from dialogkit.skills.base import SkillCall, SkillOutcome, SkillRunner
from dialogkit.skills.result import clean_outcome, failure_outcome
from dialogkit.wire import HistoryEntry

logger = logging.getLogger("dialogkit.turn")

DEFAULT_MAX_FALLBACK_RETRIES = 3
FALLBACK_ATTEMPTS = 3
MAX_PASS_THROUGH = 16
"""Hops one turn may pass through nodes that do not wait for input (guards cycles)."""
HISTORY_WINDOW = 8


@dataclass
class Move:
    """Where a turn goes: a node to enter, or an action at the current node."""

    kind: Literal["goto", "stay", "repeat", "help", "back", "restart"]
    target: str = ""
    transition: Transition | None = None
    reason: str | None = None


@dataclass
class TurnOutcome:
    reply: str
    fallback: FallbackKind | None = None
    nlu: NLUResult = field(default_factory=NLUResult)


@dataclass
class Turn:
    """One turn over a scenario, a session's configuration and a working copy of its state."""

    scenario: Scenario
    config: SessionConfig
    state: DialogueState
    nlu_provider: NLUProvider
    nlg_provider: NLGProvider
    skills: SkillRunner
    nlu_model: str = ""
    nlg_model: str = ""
    deadline: float | None = None
    """When the turn must have its reply (``time.monotonic()``); providers and skills stop
    by then and the turn answers with what it has (templates, fallbacks)."""
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS
    _input: dict[str, Any] = field(default_factory=lambda: {"text": "", "confidence": None})
    _nlu: NLUResult = field(default_factory=NLUResult)
    _filled: dict[str, Any] = field(default_factory=dict)
    _skill: SkillOutcome | None = None
    records: Records = field(default_factory=Records)
    """What this turn appends to the session's records (the state keeps recent windows)."""

    # ----------------------------------------------------------------- the opening turn

    async def open(self) -> str:
        """The bot-first opening (turn_count becomes 1): greet at the entry node, then take
        its first-turn transition, so the session waits where the contract says."""
        entry = self.scenario.entry
        reply = await self._enter(entry, None, greeting=True)
        if self.state.current_node == entry:
            move = self._opening_move(self.node)
            if move is not None:
                if move.transition is not None:
                    self._apply_effects(move.transition)
                landed = await self._enter(move.target, move)
                reply = " ".join(part for part in (reply, landed) if part)
        self.state.turn_count = 1
        self._record_assistant(reply)
        self.state.last_reply = reply
        return reply

    def _opening_move(self, node: Node) -> Move | None:
        """The entry's transitions evaluated as for a turn with no input (``nlu.*`` empty):
        the first that holds, else ``default_next``; none while the entry still waits for
        input (a missing slot to collect, transitions that test ``nlu.*`` / ``input.*``, or an
        explicit ``wait_for_input: true``) or is terminal."""
        facts = self.scenario.index.node(node.id)
        if node.terminal or facts.waits_for_input or self._missing_slots(node):
            return None
        return self._first_move(node)

    # ----------------------------------------------------------------- a user message

    async def message(self, text: str, confidence: float) -> TurnOutcome:
        self._input = {"text": text, "confidence": confidence}
        node = self.node
        exhausted = self.state.fallback_retries >= self._max_retries(node)

        # 1. The input gate.
        if not exhausted and not text.strip():
            return await self._fallback(
                "no_input", NLUResult(dialogue_act="silence", source="gate")
            )
        if not exhausted and confidence <= self.config.stt_confidence_threshold:
            gate = NLUResult(intent=STT_LOW_CONFIDENCE, confidence=confidence, source="gate")
            return await self._fallback("not_understood", gate)

        # 2. NLU.
        self._nlu = await self._understand(node, text)

        # 3. Choose the move.
        lead = await self._run_pending_entry(node)
        before = dict(self.state.slots)
        self._fill_slots(node, distinctive_only=True)
        move = self._match(self.scenario.document.graph.global_transitions)
        if move is None:
            self._fill_slots(node)
            move = self._match(node.next_nodes)
            if move is None or move.kind == "stay":
                move = self._turn_limit(node) or move
        if move is None:
            move = self._default_move(node, exhausted)
        if move is None and node.params.skill:
            move = Move("stay")  # a skill node answers what no transition takes
        if move is None:
            self._unfill(before)
            return await self._fallback("not_understood", self._nlu)

        # 4. Apply it (a closing that would abandon a confirmation is asked about first).
        if self._closing_at_confirmation(node, move):
            move, reply = Move("stay"), phrases.confirm_leaving(self.scenario.language)
        else:
            reply = await self._apply(move)
        self.state.turn_count += 1
        self.state.node_turns += move.kind != "goto"
        if move.kind != "goto":
            self.state.fallback_retries = 0
        reply = " ".join(part for part in (lead, reply) if part)
        self._record_assistant(reply)
        self.state.last_reply = reply
        return TurnOutcome(reply=reply, nlu=self._nlu)

    # ----------------------------------------------------------------- choosing a move

    def _match(self, transitions: list[Transition]) -> Move | None:
        scope = self.scope()
        conditions = self.scenario.derived(compiled_conditions)
        for transition in transitions:
            if conditions.holds(transition.condition, scope):
                return self._move_for(transition)
        return None

    @staticmethod
    def _move_for(transition: Transition) -> Move:
        if transition.target is not None:
            return Move("goto", transition.target, transition, transition.reason)
        kind = transition.action or "stay"
        if kind not in {"stay", "repeat", "help", "back", "restart"}:
            kind = "stay"
        return Move(kind, "", transition, transition.reason)  # type: ignore[arg-type]

    def _turn_limit(self, node: Node) -> Move | None:
        params = node.params
        if not params.turn_limit_enabled or params.turn_limit is None:
            return None
        if self.state.node_turns + 1 < params.turn_limit:
            return None
        target = params.turn_limit_next or node.default_next
        return None if target is None else Move("goto", target, None, "turn_limit")

    def _closing_at_confirmation(self, node: Node, move: Move) -> bool:
        """Whether "감사합니다, 수고하세요" / "thanks, bye" at a yes/no confirmation would end the
        session: a thank-you with a goodbye may close a finished task or abandon this one, so
        the engine asks once before cancelling (the next goodbye ends the session)."""
        if (
            move.kind != "goto"
            or self._nlu.intent != "goodbye"
            or node.collect_slots
            or node.terminal
        ):
            return False
        if not self.scenario.node(move.target).terminal or "affirm" not in self._node_intents(node):
            return False
        if self.state.last_reply == phrases.confirm_leaving(self.scenario.language):
            return False
        thanks = BUILTIN_INTENTS["thanks"].keywords
        text = normalize(str(self._input.get("text") or ""))
        return any(keyword_in(text, normalize(keyword)) for keyword in thanks)

    def _default_move(self, node: Node, exhausted: bool) -> Move | None:
        """What happens when no transition matched: default_next, or re-ask, or nothing."""
        if node.collect_slots and self._missing_slots(node):
            return Move("stay") if self._filled or exhausted else None
        if node.default_next is not None:
            return Move("goto", node.default_next)
        return Move("stay") if exhausted else None

    # ----------------------------------------------------------------- applying a move

    async def _apply(self, move: Move) -> str:
        if move.transition is not None:
            self._apply_effects(move.transition)
        node = self.node
        if move.kind == "goto":
            return await self._enter(move.target, move)
        if move.kind == "repeat":
            return self.state.last_reply or await self._node_reply(node, greeting=False)
        if move.kind == "help":
            help_text = self._template(node, "help") or phrases.help_text(self.scenario.language)
            return " ".join(p for p in (help_text, self._question(node)) if p)
        if move.kind == "back":
            previous = self._previous_node()
            return await self._enter(previous, move)
        if move.kind == "restart":
            self.state.slots.clear()
            self.state.context = {
                k: v for k, v in self.state.context.items() if k in ENGINE_CONTEXT_KEYS
            }
            return await self._enter(self.scenario.entry, move)
        if node.params.skill and self._skill is None:
            # The skill answers every turn the session stays at its node, with this turn's
            # input, but never twice in one turn (a first message may have entered it).
            self._skill = await self._run_skill(node)
            return await self._node_reply(node, greeting=False)
        return await self._node_reply(node, greeting=False, entering=False)

    def _previous_node(self) -> str:
        """The last other node among the recent visits (``RECENT_VISITS``), else the entry."""
        visits = self.state.visits
        current = self.state.current_node
        for node_id in reversed(visits[:-1]):
            if node_id != current:
                return node_id
        return self.scenario.entry

    def _apply_effects(self, transition: Transition) -> None:
        scope = self.scope()
        for destination, value in transition.set_values.items():
            self._write(destination, render(value, scope) if isinstance(value, str) else value)
        for destination, value in transition.append_values.items():
            root, _, key = destination.partition(".")
            if root == "context" and key and key not in ENGINE_CONTEXT_KEYS:
                items = self.state.context.get(key)
                items = list(items) if isinstance(items, list) else []
                items.append(render(value, scope) if isinstance(value, str) else value)
                self.state.context[key] = items
        for name in transition.clear_slots:
            self.state.slots.pop(name, None)

    def _write(self, destination: str, value: Any) -> None:
        root, _, key = destination.partition(".")
        if root == "slots" and key in self.scenario.document.slots:
            self.state.slots[key] = value
        elif root == "context" and key and key not in ENGINE_CONTEXT_KEYS:
            self.state.context[key] = value

    async def _enter(self, node_id: str, move: Move | None, *, greeting: bool = False) -> str:
        """Enter a node: run its skill once, complete on terminal, reply, maybe pass on."""
        parts: list[str] = []
        for _hop in range(MAX_PASS_THROUGH):
            source = self.state.current_node
            node = self.scenario.node(node_id)
            self.state.current_node = node_id
            self.state.node_turns = 0
            self.state.fallback_retries = 0
            self._visit(node_id, source if move is not None or not greeting else None)
            self._skill = await self._run_skill(node) if node.params.skill else None
            if node.terminal:
                self._complete(move)
            slots_done = bool(node.collect_slots) and not self._missing_slots(node)
            follow = self._pass_on(node, slots_done)
            silent = follow is not None and (slots_done or self._is_silent(node))
            if not silent:
                parts.append(await self._node_reply(node, greeting=greeting))
            greeting = False
            if follow is None:
                break
            if follow.transition is not None:
                self._apply_effects(follow.transition)
            node_id, move = follow.target, follow
        return " ".join(part for part in parts if part)

    def _is_silent(self, node: Node) -> bool:
        """A routing node: it passes on and has nothing of its own to say."""
        has_text = node.responses.get("default") or (self._skill and self._skill.reply)
        return not node.wait_for_input and not has_text and not self._question(node)

    def _pass_on(self, node: Node, slots_complete: bool) -> Move | None:
        """The move of a node that does not wait (or has nothing left to ask)."""
        if node.terminal or (node.wait_for_input and not slots_complete):
            return None
        return self._first_move(node)

    def _first_move(self, node: Node) -> Move | None:
        """The first of the node's transitions that holds now, else its ``default_next``; only
        a move to another node counts (an action keeps the session where it is)."""
        move = self._match(node.next_nodes)
        if move is None and node.default_next is not None:
            move = Move("goto", node.default_next)
        return move if move is not None and move.kind == "goto" else None

    def _complete(self, move: Move | None) -> None:
        self.state.session_complete = True
        if move is not None and move.reason:
            self.state.completion_reason = move.reason

    # ----------------------------------------------------------------- slots

    def _fill_slots(self, node: Node, *, distinctive_only: bool = False) -> None:
        """Write the node's slots from the entities: the right slot or none.

        Before global transitions only distinctive values (an enum, a date, a pattern
        match...) are written: they were said on purpose even if the sentence also triggers
        a global move. Open values (a whole answer taken as text, a bare number, a yes/no)
        are written only when the node itself handles the turn, and not when the node reads
        the utterance as one of the intents its own transitions name (after a pain report,
        "이제 괜찮아요" is the node's "no problem", not a new pain note). Every value must
        pass ``discipline.admit`` (not from a question, not a remark about the slot, not the
        bot's own call sign, a plausible birth date); when in doubt the slot stays as it was.
        """
        text = str(self._input.get("text") or "")
        question = is_question(text)
        asked = self._expected_slot(node)
        own_intent = self._nlu.intent is not None and self._nlu.intent in self._node_intents(node)
        own = self._own_phrases()
        today = Frame.of(self.config.user).today
        for name in (*node.collect_slots, *node.accept_slots):
            slot = self.scenario.slot(name)
            if slot is None or name not in self._nlu.entities:
                continue
            if is_open(slot) and (distinctive_only or own_intent):
                continue
            value = admit(
                name,
                slot,
                self._nlu.entities[name],
                question=question,
                asked=name == asked,
                own=(phrase for key, phrase in own if key != name),
                today=today,
            )
            if value is None or validate(slot, value) is INVALID:
                continue
            self.state.slots[name] = value
            self._filled[name] = value

    def _unfill(self, before: dict[str, Any]) -> None:
        """Undo this turn's slot writes: a turn that falls back leaves every slot unchanged."""
        for name in self._filled:
            if name in before:
                self.state.slots[name] = before[name]
            else:
                self.state.slots.pop(name, None)
        self._filled.clear()

    def _node_intents(self, node: Node) -> frozenset[str]:
        """The intents the node's own transitions name."""
        return self.scenario.index.node(node.id).own_intents

    def _own_phrases(self) -> list[tuple[str, str]]:
        """What the bot holds for itself, by where it is held: its persona, the context, the
        slots (a value with letters, so numbers are never compared)."""
        held: list[tuple[str, str]] = [("", self.scenario.document.prompts.bot)]
        for source in (self.state.context, self.state.slots):
            held.extend(
                (key, value)
                for key, value in source.items()
                if isinstance(value, str) and any(ch.isalpha() for ch in value)
            )
        return held

    def _missing_slots(self, node: Node) -> list[str]:
        return [name for name in node.collect_slots if self.state.slots.get(name) in (None, "")]

    def _expected_slot(self, node: Node) -> str | None:
        missing = self._missing_slots(node)
        return missing[0] if missing else None

    def _question(self, node: Node) -> str:
        """What the node asks for now: the prompt of its next missing slot, if any."""
        expected = self._expected_slot(node)
        slot = self.scenario.slot(expected) if expected else None
        return render(slot.prompt, self.scope()) if slot and slot.prompt else ""

    # ----------------------------------------------------------------- NLU

    async def _understand(self, node: Node, text: str) -> NLUResult:
        request = NLURequest(
            scenario=self.scenario,
            node=node,
            text=text,
            intents=self.scenario.index.intents,
            slots=self._node_slots(node),
            expected_slot=self._expected_slot(node),
            history=self.state.history[-HISTORY_WINDOW:],
            filled_slots=dict(self.state.slots),
            user=self.config.user,
            model=self.nlu_model,
            usage=self.state.usage,
            deadline=self.deadline,
        )
        result = await self.nlu_provider.understand(request)
        return result if result.source == "rules" else self._constrain(result, request)

    @staticmethod
    def _constrain(result: NLUResult, request: NLURequest) -> NLUResult:
        """Whatever a provider answered, keep only the scenario's intents (declared, built in,
        or named in a condition) and the slots the node may use. Values are not coerced again:
        providers return them typed (``coerce`` is not idempotent for pattern slots, whose
        extracted value no longer carries its context)."""
        intent = result.intent if result.intent in request.intents else None
        entities = {k: v for k, v in result.entities.items() if k in request.slots}
        confidence = min(max(result.confidence, 0.0), 1.0)
        return result.model_copy(
            update={"intent": intent, "entities": entities, "confidence": confidence}
        )

    def _node_slots(self, node: Node) -> dict[str, Slot]:
        """Slots the node may fill or test: collected, accepted, or named in its conditions
        (computed once per scenario; the mapping is shared, so never mutate it)."""
        return self.scenario.index.node(node.id).slots

    # ----------------------------------------------------------------- skills

    async def _run_pending_entry(self, node: Node) -> str:
        """With bot_first false the entry node is entered by the first message: run its skill."""
        if not self.state.pending_entry:
            return ""
        self.state.pending_entry = False
        self._visit(node.id, None)
        if not node.params.skill:
            return ""
        self._skill = await self._run_skill(node)
        return self._skill.reply or ""

    async def _run_skill(self, node: Node) -> SkillOutcome:
        user = self.config.user
        call = SkillCall(
            scenario=self.scenario,
            node=node,
            scope=self.scope(),
            session_id=self.config.session_id,
            locale=str(user.get("locale", "")),
            timezone=str(user.get("timezone", "")),
            deadline=self.deadline,
        )
        try:
            outcome = await self.skills.run(call)
        except Exception as exc:
            logger.exception("skill runner raised for node %s", escape(node.id))
            outcome = failure_outcome(call, "SKILL_RUNNER_CRASHED", repr(exc))
        outcome = clean_outcome(call, outcome, self.max_text_chars)
        if outcome.status == "error":
            logger.warning(
                "skill %s failed at node %s: %s %s",
                escape(node.params.skill),
                escape(node.id),
                escape(outcome.error_code),
                escape(outcome.error_detail or ""),
            )
        self._apply_slot_updates(node, outcome.slot_updates)
        for key, value in outcome.context_updates.items():
            if key not in ENGINE_CONTEXT_KEYS and not key.startswith("_"):
                self.state.context[key] = value
        self.state.context["last_skill_status"] = outcome.status
        return outcome

    def _apply_slot_updates(self, node: Node, updates: dict[str, Any]) -> None:
        """Skill values enter slots as the slot's type, like NLU values; the rest is dropped.

        A runtime is outside the scenario author's control: an integer slot set to
        "not-a-number" would break every condition and template that reads it. ``None``
        still clears a slot.
        """
        for name, value in updates.items():
            slot = self.scenario.slot(name)
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
            self.state.slots[name] = typed

    # ----------------------------------------------------------------- replies

    def _template(self, node: Node, *keys: str) -> str:
        """The node's template for the first key it has (else the scenario's), rendered.

        Of a list of variants, the first one not said before is used, else the first.
        """
        for source in (node.responses, self.scenario.document.responses):
            for key in keys:
                text = self._variant(source.get(key))
                if text:
                    return text
        return ""

    def _variant(self, template: str | list[str] | None) -> str:
        scope = self.scope()
        texts = [text for text in (render(v, scope) for v in variants(template)) if text]
        if not texts:
            return ""
        earlier = self.state.assistant_messages()
        return next((text for text in texts if not said_before(text, earlier)), texts[0])

    async def _node_reply(self, node: Node, *, greeting: bool, entering: bool = True) -> str:
        """The reply of the node the session is at: it always asks for what the node expects.

        A skill's direct-mode reply (and any failure reply) is said verbatim, even with a
        language model configured; only ``response_mode: nlg`` hands the output to NLG.
        """
        question = self._question(node)
        skill = self._skill if entering else None
        default = self._variant(node.responses.get("default"))
        reference = "" if node.collect_slots and not entering else default
        if greeting and default:
            text = default
        elif skill is not None and skill.mode == "direct" and skill.reply:
            text = skill.reply
        else:
            text = (
                await self._generate("greeting" if greeting else "reply", node, reference, question)
                or reference
            )
        if greeting and not text:
            text = phrases.greeting(self.scenario.language)
        if question and question not in text:
            text = f"{text} {question}".strip()
        self.state.last_question = question or text
        return text

    async def _generate(self, kind: NLGKind, node: Node, reference: str, question: str) -> str:
        facts: dict[str, Any] = {"slots_filled": dict(self._filled), "question": question}
        if self._skill is not None:
            facts["skill_status"] = self._skill.status
            if self._skill.mode == "nlg" and self._skill.status == "success":
                facts["skill_output"] = self._skill.output
                facts["citations"] = self._skill.citations
        request = self._nlg_request(kind, node, reference, facts=facts, question=question)
        return (await self.nlg_provider.generate(request) or "").strip()

    def _nlg_request(self, kind: NLGKind, node: Node, reference: str, **extra: Any) -> NLGRequest:
        return NLGRequest(
            kind=kind,
            scenario=self.scenario,
            node=node,
            reference=reference,
            user_system_prompt=self.config.user_system_prompt,
            history=self.state.history[-HISTORY_WINDOW:],
            user=self.config.user,
            user_text=str(self._input.get("text") or ""),
            model=self.nlg_model,
            usage=self.state.usage,
            deadline=self.deadline,
            **extra,
        )

    # ----------------------------------------------------------------- fallbacks

    async def _fallback(self, kind: FallbackKind, nlu: NLUResult) -> TurnOutcome:
        """A re-ask that does not count as a turn and never repeats an earlier sentence."""
        self._nlu = nlu
        node = self.node
        step = self.state.fallback_retries
        self.state.fallback_retries += 1
        reply = await self._fallback_text(kind, node, step)
        self._record_assistant(reply)
        return TurnOutcome(reply=reply, fallback=kind, nlu=nlu)

    async def _fallback_text(self, kind: FallbackKind, node: Node, step: int) -> str:
        earlier = self.state.assistant_messages()
        declared = self._template(node, kind)
        avoid: list[str] = []
        duplicate_seen = False
        for attempt in range(1, FALLBACK_ATTEMPTS + 1):
            request = self._nlg_request(
                "fallback",
                node,
                declared,
                fallback_kind=kind,
                question=self.state.last_question,
                avoid=avoid,
                attempt=attempt,
            )
            text = (await self.nlg_provider.generate(request) or "").strip()
            if not text:
                break
            if not said_before(text, earlier):
                return text
            duplicate_seen = True
            avoid = [text, *earlier[-HISTORY_WINDOW:]]
        if not duplicate_seen and declared and not said_before(declared, earlier):
            return declared
        return phrases.safe_fallback(self.scenario.language, kind, step, earlier)

    def _max_retries(self, node: Node) -> int:
        declared = node.params.max_fallback_retries
        if node.terminal and declared == 0:
            return 0
        if self.config.max_fallback_retries is not None:
            return self.config.max_fallback_retries
        return declared if declared is not None else DEFAULT_MAX_FALLBACK_RETRIES

    # ----------------------------------------------------------------- bookkeeping

    @property
    def node(self) -> Node:
        return self.scenario.node(self.state.current_node)

    def scope(self) -> dict[str, Any]:
        """The roots that conditions, templates and input maps read from."""
        return {
            "nlu": self._nlu.scope(),
            "slots": self.state.slots,
            "context": self.state.context,
            "user": self.config.user,
            "input": self._input,
            "turn": {
                "node": self.state.current_node,
                "count": self.state.turn_count,
                "node_turns": self.state.node_turns,
                "fallbacks": self.state.fallback_retries,
            },
        }

    def _record_assistant(self, reply: str) -> None:
        """Append the exchange to the state's recent window (the session's full history is
        derived from its transcript rows, which hold the same user text and reply)."""
        text = self._input.get("text")
        entries = [HistoryEntry(role="assistant", message=reply)]
        if text is not None and self._input.get("confidence") is not None:
            entries.insert(0, HistoryEntry(role="user", message=str(text)))
        recent = self.state.history
        recent.extend(entries)
        del recent[:-RECENT_HISTORY]
        said = self.state.said
        said.append(reply)
        del said[:-RECENT_SAID]

    def _visit(self, node_id: str, source: str | None) -> None:
        self.records.visits.append(Visit(node=node_id, source=source))
        recent = self.state.visits
        recent.append(node_id)
        del recent[:-RECENT_VISITS]

    def record(self, outcome: TurnOutcome, node_before: str, latency_ms: float) -> TurnRecord:
        """Append the turn's transcript row; returns it (the reply's trace)."""
        row = TurnRecord(
            turn=self.state.turn_count,
            user_text=str(self._input.get("text") or ""),
            confidence=self._input.get("confidence"),
            intent=outcome.nlu.intent,
            entities=dict(outcome.nlu.entities),
            dialogue_act=outcome.nlu.dialogue_act,
            node_before=node_before,
            node_after=self.state.current_node,
            reply=outcome.reply,
            fallback=outcome.fallback,
            latency_ms=round(latency_ms, 3),
            tier=outcome.nlu.source,
            tier_score=outcome.nlu.score,
            runner_up=outcome.nlu.runner_up,
        )
        self.records.transcript.append(row)
        return row


def compiled_conditions(scenario: Scenario) -> CompiledConditions:
    """The scenario's transition conditions, compiled once (``Scenario.derived``)."""
    return CompiledConditions(scenario.document)


def initial_context(language: str, user: dict[str, Any]) -> dict[str, Any]:
    """Context the engine owns from the start: the user's sent fields and the time of day."""
    context: dict[str, Any] = {}
    if user:
        context["session_user"] = dict(user)
    if _parse_time(str(user.get("date_time", ""))) is not None:
        # The hour where the user is: "10:00Z" is evening for a user in Asia/Seoul.
        hour = Frame.of(user).now.hour
        time_of_day = (
            "morning"
            if 5 <= hour < 12
            else "afternoon"
            if 12 <= hour < 17
            else "evening"
            if 17 <= hour < 21
            else "night"
        )
        context["time_of_day"] = time_of_day
        context["daypart"] = phrases.daypart(language, time_of_day)
    return context


def _parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def now_in(timezone: str) -> str:
    """The current time in ``timezone`` (else the server's), ISO 8601 with offset."""
    try:
        zone = ZoneInfo(timezone) if timezone else None
    except (ZoneInfoNotFoundError, ValueError):
        zone = None
    moment = datetime.now(zone) if zone else datetime.now().astimezone()
    return moment.isoformat(timespec="seconds")
