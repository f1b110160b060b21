"""The coordinator: one user message (or the bot-first opening) from input to reply.

Each numbered step below is a call into the module that owns it; this file only passes
values from one to the next. ``Turn`` works on a private copy of the dialogue state; the
engine saves it only when the turn finished, so a failure can never leave a half-updated
session behind.
"""

from __future__ import annotations

from dialogkit.engine.state import DialogueState, Records, SessionConfig, TurnRecord
from dialogkit.engine.turn.data import Moment, Move, Runtime, TurnInput, TurnOutcome
from dialogkit.engine.turn.enter import Entering, enter_pending
from dialogkit.engine.turn.gate import exhausted, gate
from dialogkit.engine.turn.moves import abandons_confirmation, choose_move, opening_move
from dialogkit.engine.turn.record import record_exchange, transcript_row
from dialogkit.engine.turn.replies import Replies
from dialogkit.engine.turn.understand import understand
from dialogkit.nlg import _phrases as phrases
from dialogkit.nlg._base import FallbackKind, NLGProvider
from dialogkit.nlu._base import NLUProvider
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._result import NLUResult
from dialogkit.sanitize import DEFAULT_MAX_TEXT_CHARS
from dialogkit.scenario.scenario import Scenario
from dialogkit.skills._base import SkillRunner


class Turn:
    """One turn over a scenario, a session's configuration and a working copy of its state."""

    __slots__ = ("records", "runtime", "state")

    def __init__(
        self,
        *,
        scenario: Scenario,
        config: SessionConfig,
        state: DialogueState,
        nlu_provider: NLUProvider,
        nlg_provider: NLGProvider,
        skills: SkillRunner,
        nlu_model: str = "",
        nlg_model: str = "",
        deadline: float | None = None,
        max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
    ) -> None:
        self.runtime = Runtime(
            scenario=scenario,
            config=config,
            nlu_provider=nlu_provider,
            nlg_provider=nlg_provider,
            skills=skills,
            nlu_model=nlu_model,
            nlg_model=nlg_model,
            deadline=deadline,
            max_text_chars=max_text_chars,
        )
        self.state = state
        self.records = Records()
        """What this turn appends to the session's records (the state keeps recent windows)."""

    async def open(self) -> str:
        """The bot-first opening (turn_count becomes 1): greet at the entry node, then take
        its first-turn transition, so the session waits where the contract says."""
        state, scenario = self.state, self.runtime.scenario
        opening = TurnInput()  # no user message
        moment = Moment(self.runtime, state, opening, NLUResult())
        entering = Entering(moment, Replies(moment), self.records)
        reply = await entering.enter(scenario.entry, None, greeting=True)
        if state.current_node == scenario.entry:
            move = opening_move(scenario, moment.node, state.slots, moment.scope())
            if move is not None:
                await entering.take(move, speak=False)  # the greeting is the whole reply
        state.turn_count = 1
        record_exchange(state, opening, reply)
        state.last_reply = reply
        return reply

    async def message(self, text: str, confidence: float) -> TurnOutcome:
        """A user message: gate, understand, choose the move, accept its values, apply it."""
        runtime, state, scenario = self.runtime, self.state, self.runtime.scenario
        turn_input = TurnInput(text, confidence)
        node = scenario.node(state.current_node)
        spent = exhausted(node, runtime.config, state.fallback_retries)

        # 1. The input gate.
        stopped = gate(turn_input, runtime.config.stt_confidence_threshold, exhausted=spent)
        if stopped is not None:
            return await self._fallback(stopped.kind, turn_input, stopped.nlu)

        # 2. Understanding.
        nlu = await understand(runtime, state, node, text)
        moment = Moment(runtime, state, turn_input, nlu)

        # 3. The move (a first message enters a bot-second entry node before it moves on).
        skill = await enter_pending(moment, self.records, node)
        lead = (skill.reply or "") if skill is not None else ""
        user = runtime.config.user
        today = Frame.of(user).today
        choice = choose_move(
            scenario,
            node,
            nlu,
            state,
            turn_input=turn_input,
            user=user,
            today=today,
            exhausted=spent,
        )
        if choice.move is None:
            return await self._fallback("not_understood", turn_input, nlu)

        # 4. Accept its slot values and apply it (a closing that would abandon a
        #    confirmation is asked about first).
        state.slots.update(choice.accepted)
        move = choice.move
        if abandons_confirmation(scenario, node, move, nlu, state, text):
            move, reply = Move("stay"), phrases.confirm_leaving(scenario.language)
        else:
            entering = Entering(moment, Replies(moment, choice.accepted), self.records)
            reply = await entering.apply(move, skill)
        state.turn_count += 1
        state.node_turns += move.kind != "goto"
        if move.kind != "goto":
            state.fallback_retries = 0
        reply = _joined(lead, reply)
        record_exchange(state, turn_input, reply)
        state.last_reply = reply
        return TurnOutcome(reply=reply, nlu=nlu, turn_input=turn_input)

    async def _fallback(
        self, kind: FallbackKind, turn_input: TurnInput, nlu: NLUResult
    ) -> TurnOutcome:
        """5. A re-ask that does not count as a turn and never repeats an earlier sentence."""
        state = self.state
        moment = Moment(self.runtime, state, turn_input, nlu)
        step = state.fallback_retries
        state.fallback_retries += 1
        reply = await Replies(moment).fallback(kind, moment.node, step)
        record_exchange(state, turn_input, reply)
        return TurnOutcome(reply=reply, fallback=kind, nlu=nlu, turn_input=turn_input)

    def record(self, outcome: TurnOutcome, node_before: str, latency_ms: float) -> TurnRecord:
        """Append the turn's transcript row; returns it (the reply's trace)."""
        row = transcript_row(self.state, outcome, node_before, latency_ms)
        self.records.transcript.append(row)
        return row


def _joined(*parts: str) -> str:
    return " ".join(part for part in parts if part)
