"""The turn pipeline: input gate, fallbacks and retries, transitions, actions, completion."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Session
from dialogkit.engine.providers import OfflineRouter
from dialogkit.nlg._dedupe import normalize
from dialogkit.nlg._phrases import FALLBACKS
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU
from tests.helpers import RecordingSkills, make_graph

INTENTS = {
    "order": {"examples": ["I want to order", "order please"], "keywords": ["order"]},
    "cancel": {"examples": ["cancel it"], "keywords": ["cancel"]},
}


def ask_node(**extra: Any) -> dict[str, Any]:
    return {
        "id": "ask",
        "description": "Ask what the user wants.",
        "responses": {"default": "What would you like?"},
        "next_nodes": [
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "order"},
                "target": "done",
                "reason": "ordered",
            },
        ],
        **extra,
    }


DONE = {"id": "done", "description": "Finish.", "responses": {"default": "Done!"}, "terminal": True}


def start(engine: Engine, nodes: list[dict[str, Any]], **options: Any) -> Session:
    top = {k: options.pop(k) for k in ("slots", "responses", "global_transitions") if k in options}
    data = make_graph(nodes, intents=INTENTS, **top)
    return engine.start(data, bot_first=options.pop("bot_first", True), **options)


class CountingNLU(RuleNLU):
    def __init__(self) -> None:
        self.calls = 0

    async def understand(self, request: NLURequest) -> NLUResult:
        self.calls += 1
        return await super().understand(request)


class CountingRouter(OfflineRouter):
    def __init__(self) -> None:
        super().__init__()
        self.counting = CountingNLU()

    def nlu(self, model: str, *, hybrid: bool | None = None) -> CountingNLU:
        return self.counting


# ----------------------------------------------------------------- the input gate


@pytest.mark.parametrize("confidence", [-0.7, -0.71, -2.0])
def test_low_stt_confidence_falls_back_without_nlu(confidence: float) -> None:
    router = CountingRouter()
    engine = Engine(router=router, skills=RecordingSkills())
    session = start(engine, [ask_node(), DONE])
    reply = session.send("order please", confidence=confidence)
    assert reply.current_node == "ask" and reply.turn_count == 1
    assert reply.trace is not None
    assert reply.trace.intent == "stt_low_confidence"
    assert reply.trace.dialogue_act is None
    assert reply.trace.fallback == "not_understood"
    assert router.counting.calls == 0


def test_confidence_just_above_the_threshold_is_processed(engine: Engine) -> None:
    reply = start(engine, [ask_node(), DONE]).send("order please", confidence=-0.69)
    assert reply.current_node == "done" and reply.turn_count == 2


def test_threshold_is_per_session_and_omitted_confidence_is_zero(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE], stt_confidence_threshold=0.0)
    reply = session.send("order please")
    assert reply.trace is not None and reply.trace.fallback == "not_understood"


def test_empty_text_is_a_no_input_fallback(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE])
    reply = session.send("   ")
    assert reply.trace is not None
    assert (reply.trace.fallback, reply.trace.dialogue_act) == ("no_input", "silence")
    assert reply.turn_count == 1 and reply.current_node == "ask"
    assert reply.response == FALLBACKS["en"]["no_input"][0]


# ----------------------------------------------------------------- fallbacks and retries


def test_declared_fallback_text_is_used_first(engine: Engine) -> None:
    node = ask_node(
        responses={
            "default": "What would you like?",
            "not_understood": "Sorry, say 'order' to order.",
        }
    )
    reply = start(engine, [node, DONE]).send("blah")
    assert reply.response == "Sorry, say 'order' to order."


def test_scenario_level_fallback_text_applies_to_every_node(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE], responses={"no_input": "Still there?"})
    assert session.send("").response == "Still there?"


def test_fallbacks_never_repeat_an_earlier_sentence(engine: Engine) -> None:
    node = ask_node(responses={"default": "What would you like?", "not_understood": "Pardon?"})
    session = start(engine, [node, DONE], max_fallback_retries=20)
    replies = [session.send("blah").response for _ in range(12)]
    normalized = [normalize(r) for r in replies]
    assert len(set(normalized)) == len(normalized)
    assert replies[0] == "Pardon?"
    assert "What would you like?" not in normalized


@pytest.mark.parametrize("language", ["ko", "ja", "en"])
def test_builtin_fallback_phrases_follow_the_retry_step(engine: Engine, language: str) -> None:
    data = make_graph([ask_node(), DONE], intents=INTENTS, language=language)
    session = engine.start(data, bot_first=True)
    replies = [session.send("zzz").response for _ in range(3)]
    assert replies == FALLBACKS[language]["not_understood"][:3]


@pytest.mark.parametrize(
    ("session_value", "node_value", "terminal", "expected"),
    [
        (None, None, False, 3),
        (1, None, False, 1),
        (None, 2, False, 2),
        (5, 2, False, 5),
        (5, 0, True, 0),
        (None, 0, False, 0),
    ],
)
def test_max_fallback_retries_precedence(
    engine: Engine,
    session_value: int | None,
    node_value: int | None,
    terminal: bool,
    expected: int,
) -> None:
    params = {} if node_value is None else {"max_fallback_retries": node_value}
    node = ask_node(params=params, terminal=terminal)
    session = start(engine, [node, DONE], max_fallback_retries=session_value)
    fallbacks = 0
    for _ in range(expected + 1):
        reply = session.send("zzz")
        assert reply.trace is not None
        if reply.trace.fallback is None:
            break
        fallbacks += 1
    assert fallbacks == expected
    assert reply.trace.fallback is None
    assert reply.turn_count == 2


def test_exhausted_retries_pass_the_input_through(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE], max_fallback_retries=1)
    assert session.send("").trace.fallback == "no_input"  # type: ignore[union-attr]
    passed = session.send("")
    assert passed.trace is not None and passed.trace.fallback is None
    assert passed.response == "What would you like?"
    assert passed.turn_count == 2
    again = session.send("zzz")
    assert again.trace is not None and again.trace.fallback == "not_understood"


def test_low_confidence_passes_through_when_exhausted(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE], max_fallback_retries=1)
    session.send("order please", confidence=-1)
    reply = session.send("order please", confidence=-1)
    assert reply.current_node == "done"


def test_retries_reset_on_a_normal_turn(engine: Engine) -> None:
    stay = {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": "cancel"},
        "action": "stay",
    }
    node = ask_node()
    node["next_nodes"].append(stay)
    session = start(engine, [node, DONE], max_fallback_retries=2)
    assert session.send("zzz").trace.fallback == "not_understood"  # type: ignore[union-attr]
    assert session.send("cancel it").trace.fallback is None  # type: ignore[union-attr]
    assert session.send("zzz").trace.fallback == "not_understood"  # type: ignore[union-attr]
    assert session.send("zzz").trace.fallback == "not_understood"  # type: ignore[union-attr]
    assert session.send("zzz").trace.fallback is None  # type: ignore[union-attr]


def test_retries_are_counted_per_node(engine: Engine) -> None:
    first = {
        "id": "first",
        "description": "First.",
        "responses": {"default": "First?"},
        "next_nodes": [
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "affirm"},
                "target": "ask",
            }
        ],
    }
    session = start(engine, [first, ask_node(), DONE], max_fallback_retries=2)
    session.send("zzz")
    session.send("zzz")
    session.send("yes")
    assert session.send("zzz").trace.fallback == "not_understood"  # type: ignore[union-attr]


# ----------------------------------------------------------------- transitions and actions


def test_unrecognised_input_still_follows_default_next(engine: Engine) -> None:
    node = {
        "id": "note",
        "description": "Take a note.",
        "responses": {"default": "Any note?"},
        "wait_for_input": True,
        "default_next": "done",
    }
    reply = start(engine, [node, DONE]).send("the weather is mild")
    assert reply.trace is not None and reply.trace.intent is None
    assert reply.current_node == "done" and reply.trace.fallback is None


def test_global_transitions_come_before_the_nodes_own(engine: Engine) -> None:
    cancelled = {
        "id": "cancelled",
        "description": "Cancelled.",
        "terminal": True,
        "responses": {"default": "Cancelled."},
    }
    node = ask_node()
    node["next_nodes"].insert(
        0,
        {
            "condition": {"field": "input.text", "operator": "contains", "value": "cancel"},
            "target": "done",
        },
    )
    glob = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "cancel"},
            "target": "cancelled",
        }
    ]
    reply = start(engine, [node, DONE, cancelled], global_transitions=glob).send("cancel it")
    assert reply.current_node == "cancelled"


def test_next_nodes_are_tried_in_order(engine: Engine) -> None:
    other = {"id": "other", "description": "Other.", "terminal": True}
    node = ask_node()
    node["next_nodes"].append(
        {
            "condition": {"field": "input.text", "operator": "contains", "value": "order"},
            "target": "other",
        }
    )
    assert start(engine, [node, DONE, other]).send("order please").current_node == "done"


def test_stay_re_asks_and_counts_as_a_turn(engine: Engine) -> None:
    node = ask_node()
    node["next_nodes"].append({"action": "stay"})
    reply = start(engine, [node, DONE]).send("something else")
    assert (reply.response, reply.turn_count, reply.current_node) == (
        "What would you like?",
        2,
        "ask",
    )


def test_repeat_says_the_last_real_reply_again_not_a_fallback(engine: Engine) -> None:
    glob = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "repeat"},
            "action": "repeat",
        }
    ]
    session = start(engine, [ask_node(), DONE], global_transitions=glob)
    session.send("")
    reply = session.send("say that again")
    assert reply.response == "What would you like?"
    assert reply.trace is not None and reply.trace.fallback is None


def test_help_gives_the_help_text_then_the_question(engine: Engine) -> None:
    collect = {
        "id": "ask",
        "description": "Ask.",
        "collect_slots": ["size"],
        "responses": {"help": "Sizes are small or large."},
        "default_next": "done",
    }
    glob = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "help"},
            "action": "help",
        }
    ]
    slots = {"size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"}}
    session = start(engine, [collect, DONE], global_transitions=glob, slots=slots)
    assert session.send("help").response == "Sizes are small or large. Which size?"


def test_back_returns_to_the_previous_node(engine: Engine) -> None:
    first = {
        "id": "first",
        "description": "First.",
        "responses": {"default": "First?"},
        "default_next": "ask",
    }
    node = ask_node()
    node["next_nodes"].append(
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"},
            "action": "back",
        }
    )
    session = start(engine, [first, node, DONE])
    session.send("fine")
    reply = session.send("no")
    assert (reply.current_node, reply.response) == ("first", "First?")


def test_restart_clears_slots_and_goes_to_the_entry(engine: Engine) -> None:
    slots = {"size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"}}
    collect = {
        "id": "size",
        "description": "Ask the size.",
        "collect_slots": ["size"],
        "default_next": "check",
    }
    check = {
        "id": "check",
        "description": "Check.",
        "responses": {"default": "{size}, ok?"},
        "next_nodes": [
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"},
                "action": "restart",
            }
        ],
    }
    session = start(engine, [collect, check], slots=slots)
    assert session.send("large").response == "large, ok?"
    reply = session.send("no")
    assert reply.current_node == "size" and reply.response == "Which size?"
    assert session.info().slots == {}


def test_transition_effects_set_append_and_clear(engine: Engine) -> None:
    slots = {"size": {"type": "enum", "values": ["small", "large"], "prompt": "Which size?"}}
    node = ask_node(accept_slots=["size"])
    node["next_nodes"] = [
        {
            "condition": {"field": "input.text", "operator": "contains", "value": "hurt"},
            "action": "stay",
            "set": {"context.alert": "pain reported: {input.text}"},
            "append": {"context.concerns": "pain"},
            "clear_slots": ["size"],
        }
    ]
    session = start(engine, [node, DONE], slots=slots)
    session.send("large")
    session.send("my knee hurt")
    session.send("it hurt again")
    info = session.info()
    assert info.context["alert"] == "pain reported: it hurt again"
    assert info.context["concerns"] == ["pain", "pain"]
    assert "size" not in info.slots


# ----------------------------------------------------------------- completion


def test_terminal_node_completes_with_final_data(engine: Engine) -> None:
    session = start(
        engine,
        [ask_node(), DONE],
        completion_options={"include_slots": True, "include_history": True},
    )
    reply = session.send("order please")
    assert reply.session_complete and reply.final_data is not None
    assert reply.final_data.end_reason == "ordered"
    assert reply.final_data.slots == {}
    history = reply.final_data.conversation_history
    assert history is not None
    assert [(h.role, h.message) for h in history] == [
        ("assistant", "What would you like?"),
        ("user", "order please"),
        ("assistant", "Done!"),
    ]


def test_final_data_respects_completion_options(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE], completion_options={"include_slots": False})
    final = session.send("order please").final_data
    assert final is not None and final.slots is None and final.conversation_history is None


def test_final_data_is_omitted_until_complete(engine: Engine) -> None:
    body = start(engine, [ask_node(), DONE]).send("zzz").to_json()
    assert "final_data" not in body and body["session_complete"] is False


def test_end_reason_defaults_to_completed(engine: Engine) -> None:
    node = {"id": "n", "description": "N.", "default_next": "done"}
    assert start(engine, [node, DONE]).send("ok").final_data.end_reason == "completed"  # type: ignore[union-attr]


def test_turn_limit_moves_on_and_is_the_end_reason(engine: Engine) -> None:
    bye = {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": "goodbye"},
        "target": "done",
        "reason": "user_left",
    }
    chat = {
        "id": "chat",
        "description": "Chat.",
        "responses": {"default": "Tell me more."},
        "params": {"turn_limit_enabled": True, "turn_limit": 2, "turn_limit_next": "done"},
        "next_nodes": [bye, {"action": "stay"}],
    }
    session = start(engine, [chat, DONE])
    assert session.send("a").current_node == "chat"
    reply = session.send("b")
    assert reply.current_node == "done"
    assert reply.final_data is not None and reply.final_data.end_reason == "turn_limit"
    second = start(engine, [chat, DONE])
    second.send("a")
    left = second.send("goodbye")
    assert left.final_data is not None and left.final_data.end_reason == "user_left"


def test_stored_end_reason_wins_over_the_transition_reason(engine: Engine) -> None:
    node = ask_node()
    node["next_nodes"][0]["set"] = {"context.end_reason": "stored_{nlu.intent}"}
    reply = start(engine, [node, DONE]).send("order please")
    assert reply.final_data is not None and reply.final_data.end_reason == "stored_order"


def test_resumed_session_keeps_its_reason_until_a_new_one_is_given(engine: Engine) -> None:
    other = {"id": "other", "description": "Other end.", "terminal": True}
    done = dict(
        DONE,
        next_nodes=[
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "affirm"},
                "target": "other",
            },
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"},
                "target": "other",
                "reason": "declined",
            },
        ],
    )
    session = start(engine, [ask_node(), done, other])
    assert session.send("order please").final_data.end_reason == "ordered"  # type: ignore[union-attr]
    assert session.send("yes").final_data.end_reason == "ordered"  # type: ignore[union-attr]
    second = start(engine, [ask_node(), done, other])
    second.send("order please")
    assert second.send("no").final_data.end_reason == "declined"  # type: ignore[union-attr]


def test_completion_never_clears_and_resume_transitions_move(engine: Engine) -> None:
    done = dict(
        DONE,
        next_nodes=[
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": "order"},
                "target": "ask",
            }
        ],
    )
    session = start(engine, [ask_node(), done])
    assert session.send("order please").session_complete
    answered = session.send("thanks")
    assert answered.session_complete and answered.response
    assert answered.final_data is not None
    resumed = session.send("order please")
    assert resumed.current_node == "ask" and resumed.session_complete


def test_turn_count_counts_logical_turns_only(engine: Engine) -> None:
    node = ask_node()
    node["next_nodes"].append({"action": "stay"})
    session = start(engine, [node, DONE])
    counts = [session.send(text).turn_count for text in ("x", "", "y")]
    assert counts == [2, 2, 3]


def test_history_records_every_message_in_order(engine: Engine) -> None:
    session = start(engine, [ask_node(), DONE])
    session.send("")
    session.send("order please")
    history = session._engine.portal.run(session._engine.arecords(session.id)).history
    assert [h.role for h in history] == ["assistant", "user", "assistant", "user", "assistant"]
    assert history[3].message == "order please"
