"""Replies and fallbacks, on a hand-built moment with a scripted language model."""

from __future__ import annotations

from dialogkit.engine.turn.replies import FALLBACK_ATTEMPTS, Replies
from dialogkit.nlg import _phrases as phrases
from dialogkit.skills._base import SkillOutcome
from tests.engine.turn.parts import ScriptedNLG, moment, node, scenario, state

SLOTS = {"size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"}}
GRAPH = scenario(
    [
        node(
            "order",
            collect_slots=["size"],
            responses={
                "default": ["Welcome.", "Welcome back."],
                "not_understood": "Sorry, which size?",
            },
        ),
        node("plain"),
    ],
    slots=SLOTS,
)


def replies(
    at: str = "order", *texts: str | None, said: list[str] | None = None, **filled: object
) -> tuple[Replies, ScriptedNLG]:
    nlg = ScriptedNLG(*texts)
    here = moment(GRAPH, state(at, said=said or []), text="hm", confidence=0.0, nlg=nlg)
    return Replies(here, filled), nlg


async def test_a_node_reply_asks_for_what_the_node_expects() -> None:
    step, _ = replies()
    assert await step.node_reply(GRAPH.node("order"), None, greeting=False) == (
        "Welcome. Which size?"
    )
    assert step.moment.state.last_question == "Which size?"


async def test_a_variant_said_before_gives_way_to_the_next() -> None:
    step, _ = replies(said=["Welcome."])
    # A declared greeting is said as written: the slot prompt is not appended to it.
    assert await step.node_reply(GRAPH.node("order"), None, greeting=True) == "Welcome back."
    assert await step.node_reply(GRAPH.node("order"), None, greeting=False) == (
        "Welcome back. Which size?"
    )


async def test_a_language_model_text_is_used_and_the_question_not_repeated() -> None:
    step, nlg = replies("order", "Hi! Which size?", size="large")
    text = await step.node_reply(GRAPH.node("order"), None, greeting=False)
    assert text == "Hi! Which size?"
    (request,) = nlg.requests
    assert request.reference == "Welcome."
    assert request.facts == {"slots_filled": {"size": "large"}, "question": "Which size?"}
    assert request.user_text == "hm"


async def test_a_direct_skill_reply_is_said_verbatim_and_an_nlg_one_goes_to_the_model() -> None:
    direct = SkillOutcome(status="success", reply="42 results.")
    step, nlg = replies("plain", "About 42.")
    assert await step.node_reply(GRAPH.node("plain"), direct, greeting=False) == "42 results."
    assert nlg.requests == []
    told = SkillOutcome(status="success", mode="nlg", output={"n": 42}, citations=["c"])
    assert await step.node_reply(GRAPH.node("plain"), told, greeting=False) == "About 42."
    facts = nlg.requests[0].facts
    assert (facts["skill_output"], facts["citations"], facts["skill_status"]) == (
        {"n": 42},
        ["c"],
        "success",
    )


async def test_a_node_that_is_not_entered_does_not_repeat_its_skill_reply() -> None:
    direct = SkillOutcome(status="success", reply="42 results.")
    step, _ = replies("plain")
    text = await step.node_reply(GRAPH.node("plain"), direct, greeting=False, entering=False)
    assert text == ""


async def test_a_greeting_without_text_is_the_language_greeting() -> None:
    step, _ = replies("plain")
    assert await step.node_reply(GRAPH.node("plain"), None, greeting=True) == phrases.greeting("en")


async def test_a_fallback_takes_a_new_model_text() -> None:
    step, nlg = replies("order", "Pardon? Small or large?")
    assert await step.fallback("not_understood", GRAPH.node("order"), 0) == (
        "Pardon? Small or large?"
    )
    assert nlg.requests[0].reference == "Sorry, which size?"
    assert nlg.requests[0].fallback_kind == "not_understood"


async def test_a_fallback_never_repeats_an_earlier_sentence() -> None:
    said = ["Sorry, which size?"]
    step, nlg = replies("order", *said * FALLBACK_ATTEMPTS, said=said)
    text = await step.fallback("not_understood", GRAPH.node("order"), 0)
    assert text == phrases.safe_fallback("en", "not_understood", 0, said)
    assert text not in said
    assert [request.attempt for request in nlg.requests] == [1, 2, 3]
    assert nlg.requests[1].avoid == ["Sorry, which size?", "Sorry, which size?"]


async def test_without_a_model_text_the_declared_fallback_if_it_is_new() -> None:
    step, _ = replies("order")
    assert await step.fallback("not_understood", GRAPH.node("order"), 0) == "Sorry, which size?"
    step, _ = replies("order", said=["Sorry, which size?"])
    text = await step.fallback("not_understood", GRAPH.node("order"), 1)
    assert text == phrases.safe_fallback("en", "not_understood", 1, ["Sorry, which size?"])
