"""The coordinator on its own: a ``Turn`` over a hand-built scenario and state, without an
engine or a store."""

from __future__ import annotations

from dialogkit.engine.state import SessionConfig
from dialogkit.engine.turn import Turn
from dialogkit.nlg._templates import TemplateNLG
from dialogkit.nlu._result import NLUResult
from tests.engine.turn.parts import ScriptedNLU, node, scenario, state
from tests.helpers import RecordingSkills

SLOTS = {
    "size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"},
    "note": {"type": "text"},
}
GRAPH = scenario(
    [
        node("hello", responses={"default": "Hi."}, default_next="order"),
        node("order", collect_slots=["size"], accept_slots=["note"], default_next="done"),
        node("done", terminal=True, responses={"default": "A {slots.size} one."}),
    ],
    slots=SLOTS,
)


def turn(at: str, nlu: ScriptedNLU, **fields: object) -> Turn:
    return Turn(
        scenario=GRAPH,
        config=SessionConfig(session_id="s", scenario_key="k"),
        state=state(at, **fields),
        nlu_provider=nlu,
        nlg_provider=TemplateNLG(),
        skills=RecordingSkills(),
    )


async def test_the_opening_greets_and_takes_the_first_transition() -> None:
    opening = turn("hello", ScriptedNLU(NLUResult()))
    assert await opening.open() == "Hi."  # the greeting alone: nothing of "order" appended
    assert (opening.state.current_node, opening.state.turn_count) == ("order", 1)
    assert [entry.role for entry in opening.state.history] == ["assistant"]


async def test_a_message_writes_the_values_of_the_move_it_takes() -> None:
    nlu = ScriptedNLU(NLUResult(entities={"size": "large"}))
    step = turn("order", nlu)
    outcome = await step.message("large", 0.0)
    assert (outcome.reply, outcome.fallback) == ("A large one.", None)
    assert step.state.slots == {"size": "large"}
    assert step.state.session_complete
    row = step.record(outcome, "order", 1.0)
    assert (row.node_before, row.node_after, row.user_text) == ("order", "done", "large")


async def test_a_message_that_falls_back_leaves_every_slot_as_it_was() -> None:
    nlu = ScriptedNLU(NLUResult(entities={"note": "why would I"}))
    step = turn("order", nlu, slots={"note": "earlier"})
    outcome = await step.message("why would I?", 0.0)
    assert outcome.fallback == "not_understood"
    assert step.state.slots == {"note": "earlier"}
    assert (step.state.turn_count, step.state.fallback_retries) == (0, 1)


async def test_the_gate_answers_without_asking_nlu() -> None:
    nlu = ScriptedNLU(NLUResult(intent="affirm"))
    step = turn("order", nlu)
    outcome = await step.message("   ", 0.0)
    assert (outcome.fallback, outcome.nlu.dialogue_act) == ("no_input", "silence")
    assert nlu.requests == []
