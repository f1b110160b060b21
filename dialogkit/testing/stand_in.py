"""``StandInModel``: a handler that makes ``ScriptedOpenAIServer`` answer like a small model.

Notebooks, benchmarks and evaluation tests compare model choices without a real model: a
stand-in reads the engine's own requests (the NLU JSON schema lists the allowed intents and
slots; an NLG request carries a reference text) and answers from the scenario's examples,
keywords and value extractors. Two stand-ins with different ``miss_rate``, ``style`` and
``latency_s`` behave measurably differently, which is what a comparison needs. A miss is
chosen by a hash of the utterance, so the same text is always understood the same way.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any, Literal

from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._entities import INVALID, contains_word, extract, is_open
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.testing.openai_server import (
    Delay,
    ErrorReply,
    RecordedRequest,
    Reply,
    ScriptedOpenAIServer,
)

REFERENCE_MARK = "Reference text"


class StandInModel:
    """Call it with a recorded request; give it to ``ScriptedOpenAIServer(handler=...)``."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        miss_rate: float = 0.0,
        style: Literal["plain", "chatty"] = "plain",
        latency_s: float = 0.0,
    ) -> None:
        self.scenario = scenario
        self.miss_rate = miss_rate
        self.style = style
        self.latency_s = latency_s

    def __call__(self, request: RecordedRequest) -> Reply:
        answer = self._understand(request) if request.response_format else self._say(request)
        return Delay(self.latency_s, answer) if self.latency_s > 0 else answer

    def _understand(self, request: RecordedRequest) -> Reply:
        text = (request.last_user or "").strip()
        lowered = text.casefold()
        schema = (request.response_format or {}).get("json_schema", {}).get("schema", {})
        properties = schema.get("properties", {})
        allowed = [name for name in properties.get("intent", {}).get("enum", []) if name]
        slots = list(properties.get("entities", {}).get("properties", {}))
        # Hashing the conversation so far, not just the utterance: the same words can be
        # missed once and understood when said again later, yet every rerun is identical.
        # (System prompts hold the time of day and are left out.)
        seen = "\n".join(text for role in ("user", "assistant") for text in request.contents(role))
        missed = zlib.crc32(f"{request.model}:{seen}".encode()) % 1000 < self.miss_rate * 1000
        intent = None if missed else self._intent(lowered, allowed)
        entities: dict[str, Any] = dict.fromkeys(slots)
        open_slots = []
        for name in slots:
            slot = self.scenario.slot(name)
            if slot is None or missed:
                continue
            if is_open(slot):
                open_slots.append(name)
                continue
            value = extract(slot, text, expected=False)
            entities[name] = None if value is INVALID else value
        if len(open_slots) == 1 and intent is None and text:
            slot = self.scenario.slot(open_slots[0])
            value = extract(slot, text, expected=True) if slot is not None else INVALID
            entities[open_slots[0]] = None if value is INVALID else value
        return {
            "intent": intent,
            "entities": entities,
            "confidence": 0.9 if intent else 0.5,
            "dialogue_act": "inform",
        }

    def _intent(self, lowered: str, allowed: list[str]) -> str | None:
        for name in allowed:
            declared = self.scenario.document.intents.get(name) or BUILTIN_INTENTS.get(name)
            if declared is None:
                continue
            if any(example.casefold() == lowered for example in declared.examples):
                return name
            if any(contains_word(lowered, word.casefold()) for word in declared.keywords):
                return name
        return None

    def _say(self, request: RecordedRequest) -> Reply:
        reference = next(
            (
                line.split("): ", 1)[1]
                for line in request.system.splitlines()
                if line.startswith(REFERENCE_MARK) and "): " in line
            ),
            "",
        )
        if self.style == "chatty":
            return f"Sure thing! {reference}".strip()
        return reference or "OK."


class StandInServer(ScriptedOpenAIServer):
    """A scripted server serving several stand-in models, each under its own name."""

    def __init__(self, models: Mapping[str, StandInModel]) -> None:
        super().__init__(handler=self._dispatch, models=list(models))
        self.stand_ins = dict(models)

    def _dispatch(self, request: RecordedRequest) -> Reply:
        model = self.stand_ins.get(request.model)
        if model is None:
            return ErrorReply(404, f"The model {request.model!r} does not exist.")
        return model(request)

    def settings(self, **overrides: Any) -> Settings:
        """Settings routing every stand-in's name to this server (no retries: failures show)."""
        endpoints = {
            name: {"base_url": self.base_url, "api_key": "stand-in"} for name in self.stand_ins
        }
        values: dict[str, Any] = {
            "llm_endpoints": json.dumps(endpoints),
            "llm_max_retries": 0,
            "llm_timeout_s": 30,
        }
        return Settings(**(values | overrides))
