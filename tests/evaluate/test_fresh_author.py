"""Goals for a graph written by a fresh author: slots with no examples and no eval_values
still get values a person would say (a real name, a phone number in the language's format,
a text the slot's pattern matches), and a wrong value the graph gave no chance to take back
is told apart from one the bot misunderstood."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.evaluate import Goal, evaluate
from dialogkit.evaluate.language import FREE_TEXT, PERSON_NAMES
from dialogkit.evaluate.pattern_values import text_matching
from tests.helpers import make_graph

DRINK = {"type": "enum", "values": ["latte", "tea"], "prompt": "Which drink?"}


def node(node_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "description": f"The {node_id} node.", **fields}


def asking(slots: dict[str, Any], language: str = "en") -> Scenario:
    """One node asking for each slot in turn, then done."""
    names = list(slots)
    nodes = [
        node(f"ask_{name}", collect_slots=[name], default_next=f"ask_{names[i + 1]}")
        for i, name in enumerate(names[:-1])
    ]
    nodes.append(node(f"ask_{names[-1]}", collect_slots=[names[-1]], default_next="done"))
    nodes.append(node("done", terminal=True))
    return Scenario.from_dict(make_graph(nodes, slots=slots, language=language))


@pytest.mark.parametrize("language", ["en", "ko", "ja"])
def test_a_person_name_without_examples_is_a_real_name_in_the_language(language: str) -> None:
    scenario = asking(
        {"guest_name": {"type": "text", "kind": "person_name", "prompt": "Name?"}}, language
    )
    names = {Goal.sample(scenario, seed).slots["guest_name"] for seed in range(12)}
    assert names <= set(PERSON_NAMES[language])
    assert not names & set(FREE_TEXT[language])
    assert len(names) > 1


@pytest.mark.parametrize(
    ("language", "prefixes"), [("ko", ("010-",)), ("ja", ("090-", "080-")), ("en", ("4", "2", "6"))]
)
def test_a_phone_is_written_the_way_the_language_writes_one(
    language: str, prefixes: tuple[str, ...]
) -> None:
    scenario = asking({"phone": {"type": "phone", "prompt": "Phone?"}}, language)
    for seed in range(8):
        goal = Goal.sample(scenario, seed)
        said = goal.say["phone"][0]
        assert said.startswith(prefixes), said
        assert not (language != "ko" and said.startswith("010"))


def test_a_pattern_slot_without_examples_gets_a_text_its_pattern_matches() -> None:
    code = r"(?:code\s*)?(?P<value>[A-Z]{2}-\d{4})\b"
    scenario = asking({"booking": {"type": "pattern", "pattern": code, "prompt": "Code?"}})
    results = evaluate(scenario, 10, persona="cooperative", progress=False)
    for goal in results.conversations["goal"]:
        assert re.fullmatch(r"[A-Z]{2}-\d{4}", goal["booking"])
    assert results.conversations["success"].all()
    assert results.meta["notices"] == []


def test_a_pattern_nothing_can_be_drawn_from_is_left_out_and_named() -> None:
    scenario = asking(
        {
            "drink": DRINK,
            "twice": {"type": "pattern", "pattern": r"(\w+)-\1", "prompt": "Twice?"},
        }
    )
    results = evaluate(scenario, 5, persona="cooperative", progress=False)
    assert all("twice" not in goal for goal in results.conversations["goal"])
    assert any(
        "'twice'" in notice and "eval_values" in notice for notice in results.meta["notices"]
    )


def test_a_time_follows_the_validation_pattern_as_said() -> None:
    scenario = asking(
        {
            "at": {
                "type": "time",
                "prompt": "When?",
                "validation": {"pattern": r"^(1\d|20):[0-5]\d$"},
            }
        }
    )
    for seed in range(10):
        goal = Goal.sample(scenario, seed)
        assert re.fullmatch(r"(1\d|20):[0-5]\d", goal.slots["at"])
        assert goal.say["at"] == [goal.slots["at"]]


@pytest.mark.parametrize(
    "pattern",
    [r"^(0[89]|1[0-8]):[0-5]\d$", r"[A-Z]{2,3}-\d{2}(?:-\d)?", r"(?i)x", r"a|b|c", r"[^a-z]{3}"],
)
def test_drawn_texts_match_their_pattern(pattern: str) -> None:
    for seed in range(20):
        text = text_matching(pattern, random.Random(seed))
        if pattern == r"(?i)x":
            assert text is None  # inline flags are not drawn from
            continue
        assert text is not None and re.search(pattern, text), (pattern, text)


def _drink_then_size(drink_heard_later: bool) -> Scenario:
    later = ["drink"] if drink_heard_later else []
    nodes = [
        node("ask_drink", collect_slots=["drink"], default_next="ask_size"),
        node("ask_size", collect_slots=["size"], accept_slots=later, default_next="done"),
        node("done", terminal=True),
    ]
    size = {"type": "enum", "values": ["small", "large"], "prompt": "Size?"}
    slots = {"drink": DRINK, "size": size}
    return Scenario.from_dict(make_graph(nodes, slots=slots))


def test_a_slip_the_graph_never_hears_again_is_uncorrectable_not_misunderstood() -> None:
    rows = evaluate(
        _drink_then_size(False), 30, persona="self_correcting", progress=False
    ).conversations
    failed = rows[~rows["success"]]
    assert len(failed) > 0
    assert set(failed["kind"]) == {"uncorrectable"}
    # A slip on the last question (size) cannot be taken back either: the session ends.
    assert failed["failure"].str.contains("never spoke where (?:drink|size) is heard").all()


def test_a_slip_the_next_node_hears_is_corrected() -> None:
    rows = evaluate(
        _drink_then_size(True), 30, persona="self_correcting", progress=False
    ).conversations
    drink_slips = rows["failure"].fillna("").str.contains("slot drink")
    assert not drink_slips.any()
    assert (rows["success"] | rows["failure"].fillna("").str.contains("slot size")).all()


def _faq_graph() -> Scenario:
    """An FAQ reached from anywhere by a global transition, which goes ``back`` after."""
    ask_price = {"examples": ["how much is a latte"], "keywords": ["how much"]}
    nodes = [
        node("ask_drink", collect_slots=["drink"], default_next="done"),
        node(
            "faq",
            responses={"default": "Lattes are 4. Shall we carry on?"},
            next_nodes=[{"action": "back"}],
        ),
        node("done", terminal=True),
    ]
    to_faq = {"condition": {"field": "nlu.intent", "operator": "equals", "value": "ask_price"}}
    return Scenario.from_dict(
        make_graph(
            nodes,
            slots={"drink": DRINK},
            intents={"ask_price": ask_price},
            global_transitions=[{**to_faq, "target": "faq"}],
        )
    )


def test_a_back_transition_is_a_way_back_to_where_the_faq_was_asked() -> None:
    from dialogkit.evaluate.routes import routes_of

    scenario = _faq_graph()
    assert {edge.target for edge in routes_of(scenario).edges["faq"]} >= {"ask_drink"}
    # A user stranded at the FAQ carries on (it used to say goodbye and leave).
    results = evaluate(
        scenario,
        [Goal(slots={"drink": "latte"}, say={"drink": ["how much is a latte"]})],
        persona="cooperative",
        progress=False,
    )
    row = results.conversations.iloc[0]
    assert "faq" in row["path"] and not row["left"]


def test_an_over_informative_user_not_understood_answers_only_the_question() -> None:
    slots = {
        "name": {"type": "text", "kind": "person_name", "prompt": "Name?"},
        "phone": {"type": "phone", "prompt": "Phone?"},
    }
    scenario = asking(slots)
    goal = Goal(slots={"name": "Emma Johnson", "phone": "4155550134"})
    results = evaluate(scenario, [goal], persona="over_informative", progress=False)
    said = list(results.turns["user_text"])
    assert said[0] == "Emma Johnson, 4155550134"
    if results.turns["fallback"].iloc[0] is not None:  # the bot did not split the two
        assert said[1] == "Emma Johnson"
    assert results.conversations["success"].all()


def test_a_node_hearing_the_slot_while_asking_an_open_question_is_no_chance() -> None:
    # "no, I meant latte" at a free-text question would be the note itself.
    nodes = [
        node("ask_drink", collect_slots=["drink"], default_next="ask_note"),
        node("ask_note", collect_slots=["note"], accept_slots=["drink"], default_next="done"),
        node("done", terminal=True),
    ]
    slots = {"drink": DRINK, "note": {"type": "text", "prompt": "Anything else?"}}
    scenario = Scenario.from_dict(make_graph(nodes, slots=slots))
    rows = evaluate(scenario, 30, persona="self_correcting", progress=False).conversations
    failed = rows[~rows["success"]]
    assert len(failed) > 0
    assert set(failed["kind"]) == {"uncorrectable"}


def test_a_name_slot_with_a_pattern_still_gets_a_real_name() -> None:
    latin = r"^(?:my name is\s+)?(?P<value>[A-Za-z]+(?:\s+[A-Za-z]+){0,2})$"
    scenario = asking({"name": {"type": "text", "kind": "person_name", "pattern": latin}})
    names = {Goal.sample(scenario, seed).slots["name"] for seed in range(10)}
    assert names <= set(PERSON_NAMES["en"])


def test_a_future_date_without_examples_is_in_every_goal_and_ahead_of_the_clock() -> None:
    from dialogkit.evaluate import Clock

    date_slot = {"type": "date", "prompt": "Which day?", "validation": {"period": "future"}}
    scenario = asking({"day": date_slot, "drink": DRINK})
    clock = Clock("2026-01-05T10:00:00+00:00")
    days = [Goal.sample(scenario, seed, clock).slots.get("day") for seed in range(20)]
    assert all(day is not None and day > "2026-01-05" for day in days)
