"""Understanding: one utterance to an ``NLUResult``, within what the current node can use.

The request names the intents and slots the node may use; whatever a provider answers, an
intent the scenario does not know and a slot the node cannot fill are dropped here.
"""

from __future__ import annotations

from dataclasses import replace

from dialogkit.engine.state import RECENT_HISTORY, DialogueState
from dialogkit.engine.turn.data import Runtime
from dialogkit.engine.turn.slots import expected_slot
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._result import NLUResult
from dialogkit.scenario.model import Node


async def understand(runtime: Runtime, state: DialogueState, node: Node, text: str) -> NLUResult:
    """What ``text`` means at ``node``, by the session's NLU provider."""
    scenario = runtime.scenario
    request = NLURequest(
        scenario=scenario,
        node=node,
        text=text,
        intents=scenario.index.intents,
        # Computed once per scenario and shared: never mutate it.
        slots=scenario.index.node(node.id).slots,
        expected_slot=expected_slot(node, state.slots),
        history=state.history[-RECENT_HISTORY:],
        filled_slots=dict(state.slots),
        user=runtime.config.user,
        model=runtime.nlu_model,
        usage=state.usage,
        deadline=runtime.deadline,
    )
    result = await runtime.nlu_provider.understand(request)
    return result if result.source == "rules" else constrain(result, request)


def constrain(result: NLUResult, request: NLURequest) -> NLUResult:
    """Whatever a provider answered, keep only the scenario's intents (declared, built in,
    or named in a condition) and the slots the node may use. Values are not coerced again:
    providers return them typed (``coerce`` is not idempotent for pattern slots, whose
    extracted value no longer carries its context)."""
    intent = result.intent if result.intent in request.intents else None
    entities = {k: v for k, v in result.entities.items() if k in request.slots}
    confidence = min(max(result.confidence, 0.0), 1.0)
    return replace(result, intent=intent, entities=entities, confidence=confidence)
