"""Hand-built parts for testing a turn's steps one at a time: a scenario, a state, a
moment, and provider doubles (no engine, no store)."""

from __future__ import annotations

from typing import Any

from dialogkit.engine.state import DialogueState, SessionConfig
from dialogkit.engine.turn.data import Moment, Runtime, TurnInput
from dialogkit.nlg._base import NLGRequest
from dialogkit.nlg._templates import TemplateNLG
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU
from dialogkit.scenario.scenario import Scenario
from tests.helpers import RecordingSkills, make_graph


def when(field: str, operator: str, value: Any = None, **rest: Any) -> dict[str, Any]:
    """A transition on one condition."""
    condition: dict[str, Any] = {"field": field, "operator": operator}
    if value is not None:
        condition["value"] = value
    return {"condition": condition, **rest}


def node(node_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "description": node_id, **fields}


def scenario(nodes: list[dict[str, Any]], **top: Any) -> Scenario:
    return Scenario.from_dict(make_graph(nodes, **top))


def state(at: str, **fields: Any) -> DialogueState:
    return DialogueState(current_node=at, **fields)


class ScriptedNLU:
    """An NLU provider that answers one fixed result and keeps the requests."""

    def __init__(self, result: NLUResult) -> None:
        self.result = result
        self.requests: list[NLURequest] = []

    async def understand(self, request: NLURequest) -> NLUResult:
        self.requests.append(request)
        return self.result


class ScriptedNLG:
    """An NLG provider that answers scripted texts in order (then None) and keeps the
    requests."""

    def __init__(self, *texts: str | None) -> None:
        self.texts = list(texts)
        self.requests: list[NLGRequest] = []

    async def generate(self, request: NLGRequest) -> str | None:
        self.requests.append(request)
        return self.texts.pop(0) if self.texts else None


def moment(
    graph: Scenario,
    working: DialogueState,
    *,
    text: str = "",
    confidence: float | None = None,
    nlu: NLUResult | None = None,
    nlg: Any = None,
    nlu_provider: Any = None,
    nlu_model: str = "",
    skills: RecordingSkills | None = None,
    user: dict[str, Any] | None = None,
) -> Moment:
    runtime = Runtime(
        scenario=graph,
        config=SessionConfig(session_id="s", scenario_key="k", user=user or {}),
        nlu_provider=nlu_provider if nlu_provider is not None else RuleNLU(),
        nlg_provider=nlg if nlg is not None else TemplateNLG(),
        skills=skills if skills is not None else RecordingSkills(),
        nlu_model=nlu_model,
    )
    return Moment(runtime, working, TurnInput(text, confidence), nlu or NLUResult())
