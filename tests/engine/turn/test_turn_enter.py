"""Entering nodes and applying moves, on a hand-built moment (no engine, no store)."""

from __future__ import annotations

from dialogkit.engine.state import Records
from dialogkit.engine.turn.data import Moment, Move
from dialogkit.engine.turn.enter import Entering, apply_effects, enter_pending, run_skill
from dialogkit.engine.turn.replies import Replies
from dialogkit.nlg import _phrases as phrases
from dialogkit.scenario.model import Transition
from dialogkit.skills._base import SkillOutcome
from tests.engine.turn.parts import moment, node, scenario, state
from tests.helpers import RecordingSkills

SLOTS = {
    "size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"},
    "cups": {"type": "integer"},
}
GRAPH = scenario(
    [
        node("start", responses={"default": "Hello."}, default_next="route"),
        node("route", wait_for_input=False, default_next="order"),
        node("order", collect_slots=["size"], responses={"default": "Let's order."}),
        node("search", params={"skill": "search"}, responses={"help": "Ask me anything."}),
        node("done", terminal=True, responses={"default": "Bye, {slots.size}."}),
    ],
    slots=SLOTS,
)


def entering(working_at: str, skills: RecordingSkills | None = None, **fields: object) -> Entering:
    here = moment(GRAPH, state(working_at, **fields), text="hi", confidence=0.0, skills=skills)
    return Entering(here, Replies(here), Records())


def visits(step: Entering) -> list[tuple[str | None, str]]:
    return [(visit.source, visit.node) for visit in step.records.visits]


async def test_entering_a_routing_node_passes_straight_on_in_silence() -> None:
    step = entering("start")
    reply = await step.enter("route", Move("goto", "route"))
    assert reply == "Let's order. Which size?"
    assert step.moment.state.current_node == "order"
    assert visits(step) == [("start", "route"), ("route", "order")]
    assert step.moment.state.last_question == "Which size?"


async def test_the_greeting_visit_has_no_source_and_a_waiting_node_stops() -> None:
    step = entering("start")
    assert await step.enter("start", None, greeting=True) == "Hello."
    assert visits(step) == [(None, "start")]


async def test_a_terminal_node_completes_the_session_with_the_move_reason() -> None:
    step = entering("order", slots={"size": "large"})
    reply = await step.take(Move("goto", "done", None, "ordered"))
    assert reply == "Bye, large."
    assert step.moment.state.session_complete
    assert step.moment.state.completion_reason == "ordered"


async def test_a_skill_runs_once_per_entry_and_its_direct_reply_is_said() -> None:
    skills = RecordingSkills(
        SkillOutcome(
            status="success",
            reply="Found it.",
            context_updates={
                "hits": 3,
                "time_of_day": "night",
                "_private": 1,
            },
        )
    )
    step = entering("start", skills)
    assert await step.enter("search", Move("goto", "search")) == "Found it."
    assert len(skills.calls) == 1
    context = step.moment.state.context
    assert context == {"hits": 3, "last_skill_status": "success"}


async def test_staying_at_a_skill_node_runs_the_skill_unless_it_ran_this_turn() -> None:
    skills = RecordingSkills()
    step = entering("search", skills)
    assert await step.apply(Move("stay"), None) == "ran search"
    assert len(skills.calls) == 1
    earlier = SkillOutcome(status="success", reply="from the entry")
    await step.apply(Move("stay"), earlier)
    assert len(skills.calls) == 1


async def test_help_repeat_back_and_restart() -> None:
    step = entering("search", last_reply="Said before.", visits=["order", "search"])
    assert await step.apply(Move("help"), None) == "Ask me anything."
    assert await step.apply(Move("repeat"), None) == "Said before."
    assert await step.apply(Move("back"), None) == "Let's order. Which size?"
    assert step.moment.state.current_node == "order"

    step = entering("order", slots={"size": "small"}, context={"x": 1, "daypart": "night"})
    assert await step.apply(Move("restart"), None) == "Hello."
    assert step.moment.state.current_node == "start"
    assert step.moment.state.slots == {}
    assert step.moment.state.context == {"daypart": "night"}


async def test_help_without_a_template_is_the_language_help_then_the_question() -> None:
    step = entering("order")
    assert await step.apply(Move("help"), None) == f"{phrases.help_text('en')} Which size?"


def test_effects_write_declared_slots_and_free_context_keys_only() -> None:
    here = moment(GRAPH, state("order", slots={"cups": 2}, context={"log": ["a"]}))
    transition = Transition.model_validate(
        {
            "target": "done",
            "set": {
                "slots.size": "large",
                "slots.other": 1,
                "context.daypart": "x",
                "context.seen": "{slots.size}",
            },
            "append": {"context.log": "b", "context.time_of_day": "x"},
            "clear_slots": ["cups"],
        }
    )
    apply_effects(here, transition)
    assert here.state.slots == {"size": "large"}
    assert here.state.context == {"log": ["a", "b"], "seen": "large"}


async def test_a_first_message_enters_a_pending_entry_once() -> None:
    skills = RecordingSkills()
    here: Moment = moment(GRAPH, state("search", pending_entry=True), skills=skills)
    records = Records()
    outcome = await enter_pending(here, records, GRAPH.node("search"))
    assert outcome is not None and outcome.reply == "ran search"
    assert await enter_pending(here, records, GRAPH.node("search")) is None
    assert [(v.source, v.node) for v in records.visits] == [(None, "search")]


async def test_a_crashing_skill_runner_is_a_failed_outcome() -> None:
    class Crashing:
        async def run(self, call: object) -> SkillOutcome:
            raise RuntimeError("boom")

    here = moment(GRAPH, state("search"), skills=Crashing())  # type: ignore[arg-type]
    outcome = await run_skill(here, GRAPH.node("search"))
    assert outcome.status == "error"
    assert here.state.context["last_skill_status"] == "error"
