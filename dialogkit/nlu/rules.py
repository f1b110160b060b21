"""The offline NLU: intents from examples, keywords and patterns; entities by slot type.

Examples are compared by character n-grams (Dice coefficient over 2- and 3-grams with word
boundary marks), which works for Korean and Japanese without a tokenizer and is fully
deterministic. Keywords and patterns are stronger signals than examples.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from dialogkit.nlu.base import NLURequest
from dialogkit.nlu.entities import INVALID, contains_word, extract
from dialogkit.nlu.frame import Frame
from dialogkit.nlu.result import NLUResult
from dialogkit.scenario.conditions import compile_pattern
from dialogkit.scenario.model import Intent, Slot

INTENT_THRESHOLD: Final = 0.5
"""At or below this score an utterance has no intent (which is not, by itself, a fallback).

Ties between intents go to the one listed first: the scenario's own intents come before the
built-in ones, so a scenario's wording wins over the generic sentences."""

CONTROL_INTENTS: Final = frozenset({"help", "repeat", "goodbye"})
"""Intents that mean the user is not answering the question, so no text slot is filled."""

DIALOGUE_ACTS: Final = {
    "affirm": "affirm",
    "deny": "deny",
    "greet": "greeting",
    "goodbye": "closing",
    "help": "request_help",
    "repeat": "request_repeat",
    "thanks": "thanks",
}
_QUESTION = re.compile(r"[?？]\s*$|(까요|나요|니까|ですか|ますか|かな)\s*$")
_STRIP = re.compile(r"[\s\W_]+", re.UNICODE)


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """Lower-case, NFKC, punctuation and spaces removed: what n-grams are taken from."""
    return _STRIP.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()


@lru_cache(maxsize=4096)
def ngrams(text: str) -> frozenset[str]:
    grams: set[str] = set()
    for word in normalize(text).split():
        padded = f"^{word}$"
        for n in (2, 3):
            grams.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return frozenset(grams)


def similarity(left: str, right: str) -> float:
    """Dice coefficient of the character n-grams of two texts."""
    a, b = ngrams(left), ngrams(right)
    if not a or not b:
        return 0.0
    return 2 * len(a & b) / (len(a) + len(b))


def score_intent(intent: Intent, text: str) -> float:
    """How well ``text`` fits ``intent``, from 0 to 1."""
    lowered = normalize(text)
    best = 0.0
    for pattern in intent.patterns:
        compiled = compile_pattern(pattern)
        if compiled is not None and compiled.search(text):
            return 1.0
    for keyword in intent.keywords:
        needle = normalize(keyword)
        if needle and contains_word(lowered, needle):
            best = max(best, 0.85 + min(len(needle), 10) / 100)
    for example in intent.examples:
        if normalize(example) == lowered:
            return 1.0
        best = max(best, similarity(example, text))
    return best


def _accepted_by_pattern(request: NLURequest, name: str, slot: Slot) -> bool:
    """A text slot the node accepts and that has a pattern is read like an asked-for slot,
    so a confirmation step can take "이름은 김민준이에요" as a correction."""
    return slot.type == "text" and bool(slot.pattern) and name in request.node.accept_slots


class RuleNLU:
    """Deterministic NLU from the scenario's own declarations."""

    async def understand(self, request: NLURequest) -> NLUResult:
        return self.analyse(request)

    def analyse(self, request: NLURequest) -> NLUResult:
        text = request.text
        if not text.strip():
            return NLUResult(dialogue_act="silence", source="rules")
        intent, confidence = None, 0.0
        for name, definition in request.intents.items():
            score = score_intent(definition, text)
            if score > confidence:
                intent, confidence = name, score
        if confidence <= INTENT_THRESHOLD:
            intent = None
        entities = {}
        frame = Frame.of(request.user)
        for name, slot in request.slots.items():
            expected = name == request.expected_slot or _accepted_by_pattern(request, name, slot)
            if expected and slot.type == "text" and intent in CONTROL_INTENTS and confidence >= 0.8:
                continue
            value = extract(slot, text, expected=expected, frame=frame, name=name)
            if value is not INVALID:
                entities[name] = value
        return NLUResult(
            intent=intent,
            entities=entities,
            confidence=round(confidence if intent else (1.0 if entities else 0.0), 3),
            dialogue_act=self._dialogue_act(text, intent, bool(entities)),
            source="rules",
        )

    @staticmethod
    def _dialogue_act(text: str, intent: str | None, has_entities: bool) -> str:
        if intent in DIALOGUE_ACTS:
            return DIALOGUE_ACTS[intent]
        if _QUESTION.search(text.strip()):
            return "question"
        return "inform" if has_entities or intent else "statement"
