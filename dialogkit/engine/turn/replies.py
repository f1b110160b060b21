"""Replies and fallbacks: what the bot says at a node, and what it says when it could not
use the input.

A node's reply always asks for what the node expects. A fallback is a re-ask that never
repeats an earlier assistant sentence: the language model's text when it is new, else the
declared template when it is new, else a safe phrase of the language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dialogkit.engine.state import RECENT_HISTORY
from dialogkit.engine.turn.data import Moment
from dialogkit.engine.turn.slots import expected_slot
from dialogkit.nlg import _phrases as phrases
from dialogkit.nlg._base import FallbackKind, NLGKind, NLGRequest
from dialogkit.nlg._dedupe import said_before
from dialogkit.nlu._acts import is_question
from dialogkit.scenario.model import Node
from dialogkit.scenario.templates import render, variants
from dialogkit.skills._base import SkillOutcome

FALLBACK_ATTEMPTS = 3
"""Texts a fallback asks the language model for before it gives up on a new sentence."""


@dataclass(slots=True, frozen=True)
class Replies:
    """The texts of one turn, rendered in its scope; ``filled`` are the slot values the
    turn accepted (the language model is told about them)."""

    moment: Moment
    filled: Mapping[str, Any] = field(default_factory=dict)

    def template(self, node: Node, *keys: str) -> str:
        """The node's template for the first key it has (else the scenario's), rendered.

        Of a list of variants, the first one not said before is used, else the first.
        """
        for source in (node.responses, self.moment.scenario.document.responses):
            for key in keys:
                text = self.variant(source.get(key))
                if text:
                    return text
        return ""

    def variant(self, template: str | list[str] | None) -> str:
        scope = self.moment.scope()
        texts = [text for text in (render(v, scope) for v in variants(template)) if text]
        if not texts:
            return ""
        earlier = self.moment.state.assistant_messages()
        return next((text for text in texts if not said_before(text, earlier)), texts[0])

    def question(self, node: Node) -> str:
        """What the node asks for now: the prompt of its next missing slot, if any."""
        expected = expected_slot(node, self.moment.state.slots)
        slot = self.moment.scenario.slot(expected) if expected else None
        return render(slot.prompt, self.moment.scope()) if slot and slot.prompt else ""

    def already_asks(self, node: Node, text: str) -> bool:
        """Whether the node's declared reply is itself the question for its first slot ("How
        many packs of metformin?"): then the slot's prompt is not said a second time. Once the
        first slot has a value the reply no longer asks what the node expects, so the next
        slot's prompt is added."""
        expected = expected_slot(node, self.moment.state.slots)
        if not node.collect_slots or expected != node.collect_slots[0]:
            return False
        return is_question(text, self.moment.scenario.language)

    def help(self, node: Node) -> str:
        """The node's help (else the language's), then its question."""
        language = self.moment.scenario.language
        help_text = self.template(node, "help") or phrases.help_text(language)
        return " ".join(part for part in (help_text, self.question(node)) if part)

    async def node_reply(
        self,
        node: Node,
        skill: SkillOutcome | None,
        *,
        greeting: bool,
        entering: bool = True,
    ) -> str:
        """The reply of the node the session is at: it always asks for what the node expects.

        ``skill`` is this turn's outcome of the node's skill; said verbatim when entering in
        direct mode (a failure reply too, even with a language model configured); only
        ``response_mode: nlg`` hands the output to NLG.
        """
        question = self.question(node)
        default = self.variant(node.responses.get("default"))
        reference = "" if node.collect_slots and not entering else default
        direct = skill if entering else None
        if greeting and default:
            text = default
        elif direct is not None and direct.mode == "direct" and direct.reply:
            text = direct.reply
        else:
            kind: NLGKind = "greeting" if greeting else "reply"
            text = await self.generate(kind, node, reference, question, skill) or reference
        if greeting and not text:
            text = phrases.greeting(self.moment.scenario.language)
        if (
            question
            and question not in text
            and not (greeting and default)  # a declared greeting is said as written
            and not (text == default and self.already_asks(node, text))
        ):
            text = f"{text} {question}".strip()
        self.moment.state.last_question = question or text
        return text

    async def generate(
        self,
        kind: NLGKind,
        node: Node,
        reference: str,
        question: str,
        skill: SkillOutcome | None,
    ) -> str:
        facts: dict[str, Any] = {"slots_filled": dict(self.filled), "question": question}
        if skill is not None:
            facts["skill_status"] = skill.status
            if skill.mode == "nlg" and skill.status == "success":
                facts["skill_output"] = skill.output
                facts["citations"] = skill.citations
        request = self.nlg_request(kind, node, reference, facts=facts, question=question)
        return (await self.moment.runtime.nlg_provider.generate(request) or "").strip()

    def nlg_request(self, kind: NLGKind, node: Node, reference: str, **extra: Any) -> NLGRequest:
        runtime, state = self.moment.runtime, self.moment.state
        return NLGRequest(
            kind=kind,
            scenario=runtime.scenario,
            node=node,
            reference=reference,
            user_system_prompt=runtime.config.user_system_prompt,
            history=state.history[-RECENT_HISTORY:],
            user=runtime.config.user,
            user_text=self.moment.turn_input.text,
            model=runtime.nlg_model,
            usage=state.usage,
            deadline=runtime.deadline,
            **extra,
        )

    async def fallback(self, kind: FallbackKind, node: Node, step: int) -> str:
        """The ``step``-th re-ask in a row at ``node``: never an earlier assistant sentence."""
        earlier = self.moment.state.assistant_messages()
        declared = self.template(node, kind)
        avoid: list[str] = []
        duplicate_seen = False
        for attempt in range(1, FALLBACK_ATTEMPTS + 1):
            request = self.nlg_request(
                "fallback",
                node,
                declared,
                fallback_kind=kind,
                question=self.moment.state.last_question,
                avoid=avoid,
                attempt=attempt,
            )
            text = (await self.moment.runtime.nlg_provider.generate(request) or "").strip()
            if not text:
                break
            if not said_before(text, earlier):
                return text
            duplicate_seen = True
            avoid = [text, *earlier[-RECENT_HISTORY:]]
        if not duplicate_seen and declared and not said_before(declared, earlier):
            return declared
        return phrases.safe_fallback(self.moment.scenario.language, kind, step, earlier)
