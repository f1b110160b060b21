"""The embedding tier's decision, with a model whose vectors the test chooses per sentence.

Each sentence the tier may compare is given a direction: the intents' examples, the node's
description, the language pack's ``no_intent`` sentences. Which one an utterance is nearest
to, and by how much, is then exact, so each rule of the decision is checked alone: the acts
the rules read first, "no intent" competing, questions never meaning actions, yes and no
left to the rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from dialogkit.llm._embeddings import Calibration, Embedder, Kind, Vector
from dialogkit.nlu import _embeddings as tier_module
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._embeddings import (
    NO_INTENT,
    EmbeddingTier,
    asked_intents,
    language_passages,
    no_intent_sentences,
)
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu.lang import PACKS
from dialogkit.scenario.scenario import Scenario
from tests.helpers import make_graph
from tests.nlu.test_change_requests import read_back

BOOK = (1.0, 0.0, 0.0, 0.0, 0.0)
HOURS = (0.0, 1.0, 0.0, 0.0, 0.0)
ANSWER = (0.0, 0.0, 1.0, 0.0, 0.0)
CHAT = (0.0, 0.0, 0.0, 1.0, 0.0)
YES = (0.0, 0.0, 0.0, 0.0, 1.0)
ELSEWHERE = (5**-0.5,) * 5


def toward(direction: Vector, off: Vector, weight: float) -> Vector:
    """A unit vector mostly along ``direction``, tilted toward ``off`` by ``weight``."""
    raw = [a + weight * b for a, b in zip(direction, off, strict=True)]
    norm = math.sqrt(sum(v * v for v in raw))
    return tuple(v / norm for v in raw)


class ChosenVectors(Embedder):
    """Vectors looked up by text; a text nobody chose points nowhere in particular."""

    def __init__(self, chosen: dict[str, Vector]) -> None:
        self.model = "chosen"
        self.calibration = Calibration(
            0.8, min_margin=0.05, min_answer_lead=0.05, min_chat_lead=0.05
        )
        self.chosen = chosen
        self.queries: list[str] = []

    async def _embed(
        self, texts: list[str], kind: Kind, deadline: float | None
    ) -> tuple[list[Vector] | None, int]:
        if kind == "query":
            self.queries.extend(texts)
        return [self.chosen.get(text, ELSEWHERE) for text in texts], 0


def start_graph(
    names: Sequence[str], intents: dict[str, list[str]], language: str = "en", **top: Any
) -> Scenario:
    """A graph whose start node may lead to each intent of ``names`` (``intents``: the
    declared ones, by their examples)."""
    return Scenario.from_dict(
        make_graph(
            [
                {
                    "id": "start",
                    "description": "Ask what the guest needs.",
                    "responses": {"default": "Hello! What can I do for you?"},
                    "wait_for_input": True,
                    "collect_slots": list(top.get("slots", {})),
                    "next_nodes": [
                        {
                            "condition": {"field": "nlu.intent", "operator": "equals", "value": n},
                            "target": n,
                        }
                        for n in names
                    ],
                },
                *({"id": name, "terminal": True} for name in names),
            ],
            language=language,
            intents={name: {"examples": examples} for name, examples in intents.items()},
            **top,
        )
    )


def scenario(language: str = "en") -> Scenario:
    return start_graph(
        ("book", "hours", "affirm", "help"),
        {"book": ["I'd like to book a table"], "hours": ["when do you open?"]},
        language,
        slots={"party": {"type": "number", "kind": "count", "nouns": ["people"]}},
    )


def chosen(language: str = "en", **extra: Vector) -> dict[str, Vector]:
    """Every sentence of the scenario pointed its way; the pack's small talk at CHAT."""
    vectors: dict[str, Vector] = {
        "I'd like to book a table": BOOK,
        "when do you open?": HOURS,
        "Ask what the guest needs.": ANSWER,
        **{sentence: CHAT for sentence in no_intent_sentences(language)},
    }
    for name, intent in scenario(language).index.intents.items():
        if name == "affirm":
            vectors.update({example: YES for example in intent.examples})
    vectors.update(extra)
    return vectors


def at(graph: Scenario, text: str, node: str = "start") -> NLURequest:
    """The request of ``text`` at ``node`` of ``graph``, which asks for no slot."""
    return NLURequest(
        scenario=graph, node=graph.node(node), text=text, intents=graph.index.intents, slots={}
    )


def request(text: str, **fields: Any) -> NLURequest:
    graph = scenario()
    node = graph.node("start")
    return NLURequest(
        scenario=graph,
        node=node,
        text=text,
        intents=graph.index.intents,
        slots=graph.document.slots,
        **fields,
    )


async def judge(text: str, query: Vector, moved: dict[str, Vector] | None = None) -> Any:
    """What the tier makes of ``text`` (embedded as ``query``, with the scenario's sentences
    ``moved`` as given) when the rules heard nothing."""
    tier = EmbeddingTier(ChosenVectors(chosen() | (moved or {}) | {text: query}))
    return await tier.judge(request(text), NLUResult())


async def test_an_utterance_near_an_intent_and_far_from_no_intent_decides() -> None:
    judgement = await judge("we would love to sit somewhere", query=toward(BOOK, ANSWER, 0.2))
    assert (judgement.intent, judgement.decided) == ("book", True)


async def test_small_talk_nearer_the_language_pack_than_any_intent_is_no_intent() -> None:
    judgement = await judge("the magpies were loud", query=toward(CHAT, BOOK, 0.5))
    assert (judgement.intent, judgement.decided) == (NO_INTENT, False)


async def test_an_intent_that_barely_leads_no_intent_abstains() -> None:
    # Near the booking example, but nearly as near one of the pack's small talk sentences
    # (itself half about tables): the best, yet under the lead.
    chat = no_intent_sentences("en")[0]
    moved = {chat: toward(CHAT, BOOK, 1.0)}
    judgement = await judge("a table, the magpies", toward(BOOK, CHAT, 0.4), moved)
    assert (judgement.intent, judgement.runner_up) == ("book", NO_INTENT)
    assert judgement.score >= 0.8 and not judgement.decided
    clear = await judge("a table, the magpies", toward(BOOK, CHAT, 0.1), moved)
    assert clear.decided


async def test_an_intent_that_barely_leads_the_nodes_own_answer_abstains() -> None:
    moved = {"Ask what the guest needs.": toward(ANSWER, BOOK, 1.0)}
    judgement = await judge("a table, as you asked", toward(BOOK, ANSWER, 0.4), moved)
    assert (judgement.intent, judgement.runner_up) == ("book", "@node:start")
    assert judgement.score >= 0.8 and not judgement.decided
    clear = await judge("a table, as you asked", toward(BOOK, ANSWER, 0.1), moved)
    assert clear.decided


async def test_a_question_never_means_an_intent_whose_examples_do_not_ask() -> None:
    judgement = await judge("which tables are free at 8?", query=BOOK)
    assert judgement.intent != "book" and not judgement.decided
    assert "book" not in asked_intents(scenario()) and "hours" in asked_intents(scenario())


async def test_not_knowing_means_no_intent_but_help() -> None:
    # Nearest the booking example, yet "not sure yet" books nothing ...
    judgement = await judge("not sure yet, maybe a table", query=BOOK)
    assert judgement.intent != "book" and not judgement.decided
    # ... while "I don't know what to say" may be a plea for help.
    helping = {example: HOURS for example in scenario().index.intents["help"].examples}
    plea = await judge("I don't know what I should say", HOURS, helping)
    assert (plea.intent, plea.decided) == ("help", True)


async def test_a_yes_is_ranked_but_never_decided_by_the_tier() -> None:
    judgement = await judge("sounds perfect to me", query=YES)
    assert judgement.intent == "affirm" and not judgement.decided


async def test_a_no_is_decided_only_when_it_negates_nothing_itself() -> None:
    # "no mistake in it" may be a yes the vectors cannot tell from a no.
    graph = start_graph(["deny", "hours"], {"hours": ["when do you open?"]})
    noes = {example: BOOK for example in graph.index.intents["deny"].examples}
    tier = EmbeddingTier(ChosenVectors(chosen() | noes))

    async def judged(text: str) -> Any:
        got = at(graph, text)
        tier.embedder.chosen[text] = BOOK  # type: ignore[attr-defined]
        return await tier.judge(got, NLUResult())

    turned_down = await judged("one thing on it is off")
    assert (turned_down.intent, turned_down.decided) == ("deny", True)
    negated = await judged("there is no mistake in it")
    assert negated.intent == "deny" and not negated.decided


@pytest.mark.parametrize(
    ("text", "heard", "reason"),
    [
        ("we would love to sit", NLUResult(intent="book", confidence=0.4), "the rules heard it"),
        ("four of us", NLUResult(entities={"party": 4}), "it answers the node"),
        ("hold on, my phone is ringing", None, "it is said aside"),
        ("nice weather today", None, "it chats"),
        ("why do you need to know how many people?", None, "it remarks on giving the value"),
    ],
)
async def test_turns_the_rules_read_as_no_intent_are_not_embedded(
    text: str, heard: NLUResult | None, reason: str
) -> None:
    embedder = ChosenVectors(chosen() | {text: BOOK})
    tier = EmbeddingTier(embedder)
    got = await tier.judge(request(text, expected_slot="party"), heard or NLUResult())
    assert got is None, reason
    assert embedder.queries == []


def test_no_intent_sentences_are_the_scenarios_language_or_every_packs() -> None:
    assert no_intent_sentences("ko-KR") == PACKS["ko"].no_intent
    every = no_intent_sentences("fr")
    assert all(set(pack.no_intent) <= set(every) for pack in PACKS.values())
    owners = {owner for owner, _ in language_passages("ja")}
    assert NO_INTENT in owners
    sentences: Sequence[str] = [
        text for owner, text in language_passages("ja") if owner == NO_INTENT
    ]
    assert tuple(sentences) == PACKS["ja"].no_intent


def test_stored_vectors_are_not_reused_once_the_packs_sentences_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tier = EmbeddingTier(ChosenVectors({}))
    before = tier.key(scenario())
    monkeypatch.setattr(tier_module, "no_intent_sentences", lambda language: ("a new remark",))
    tier_module.language_digest.cache_clear()
    tier_module.language_passages.cache_clear()
    assert tier.key(scenario()) != before
    monkeypatch.setattr(tier_module, "concept_sentences", lambda language: {"price": ("$?",)})
    tier_module.language_digest.cache_clear()
    tier_module.language_passages.cache_clear()
    changed = tier.key(scenario())
    monkeypatch.undo()
    tier_module.language_digest.cache_clear()
    tier_module.language_passages.cache_clear()
    assert tier.key(scenario()) == before != changed


PRICE = HOURS  # the graphs below have no hours intent of that direction
PARKING = toward(ANSWER, CHAT, 1.0)
OFF_PRICE = toward(PRICE, BOOK, 1.0)
"""An author's price question, worded unlike the pack's: 0.71 from its sentences."""


def priced(*intents: tuple[str, list[str]]) -> Scenario:
    """A graph whose start node may lead to each of ``intents`` (name, examples)."""
    return start_graph([name for name, _ in intents], dict(intents))


CONCEPTS: dict[str, tuple[str, ...]] = {
    "price": ("what's the damage?", "what will it set me back?", "is it pricey?"),
    "parking": ("where do I leave the car?", "is there a car park?"),
}


@contextmanager
def replaced_pack_sentences(reader: str, sentences: dict[str, tuple[str, ...]]) -> Iterator[None]:
    """The packs' sentences that ``reader`` of the tier gives replaced by ``sentences``
    inside the block (the vectors' key forgets the old ones, and the new ones after it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tier_module, reader, lambda language: sentences)
        tier_module.language_digest.cache_clear()
        tier_module.language_passages.cache_clear()
        yield
    tier_module.language_digest.cache_clear()
    tier_module.language_passages.cache_clear()


@pytest.fixture
def concepts() -> Iterator[None]:
    """The packs' concepts replaced by ``CONCEPTS``."""
    with replaced_pack_sentences("concept_sentences", CONCEPTS):
        yield


def price_vectors(**examples: Vector) -> dict[str, Vector]:
    """The concepts' sentences along PRICE and PARKING, the graph's own as given."""
    return {
        **{sentence: PRICE for sentence in CONCEPTS["price"]},
        **{sentence: PARKING for sentence in CONCEPTS["parking"]},
        "Ask what the guest needs.": ANSWER,
        **{sentence: CHAT for sentence in no_intent_sentences("en")},
        **examples,
    }


async def owners_and_judgement(
    graph: Scenario, vectors: dict[str, Vector], text: str
) -> tuple[dict[str, str], Any]:
    """Who owns each concept sentence once the scenario is loaded, and what the tier makes
    of ``text`` at the start node when the rules heard nothing."""
    tier = EmbeddingTier(ChosenVectors(vectors))
    loaded = await tier.vectors(graph)
    assert loaded is not None
    sentences = dict(zip(loaded.vectors, loaded.owners, strict=False))
    owners = {s: sentences.get(v, "") for s, v in vectors.items() if s in CONCEPTS["price"]}
    got = at(graph, text)
    return owners, await tier.judge(got, NLUResult())


@pytest.mark.usefixtures("concepts")
async def test_a_question_intent_takes_the_sentences_of_the_concept_it_is_about() -> None:
    graph = priced(("fees", ["how much is it?", "what does it cost?"]), ("book", ["book me in"]))
    vectors = price_vectors(**{"how much is it?": OFF_PRICE, "what does it cost?": OFF_PRICE})
    # Worded as the pack's price sentences, not as the author's examples (0.71 from them).
    owners, judgement = await owners_and_judgement(graph, vectors, "is it pricey?")
    assert set(owners.values()) == {"fees"}
    assert (judgement.intent, judgement.decided) == ("fees", True)


@pytest.mark.usefixtures("concepts")
async def test_a_concept_two_intents_are_about_is_taken_by_neither() -> None:
    graph = priced(
        ("kids_price", ["how much for a kid?"]), ("adult_price", ["how much for an adult?"])
    )
    tilted = toward(OFF_PRICE, CHAT, 0.01)
    vectors = price_vectors(**{"how much for a kid?": OFF_PRICE, "how much for an adult?": tilted})
    owners, judgement = await owners_and_judgement(graph, vectors, "is it pricey?")
    assert set(owners.values()) == {""}  # dropped
    assert not judgement.decided


@pytest.mark.usefixtures("concepts")
async def test_an_action_never_takes_a_concept() -> None:
    graph = priced(("pay", ["I'll pay now", "take my money"]), ("hours", ["when do you open?"]))
    vectors = price_vectors(**{"I'll pay now": OFF_PRICE, "take my money": OFF_PRICE})
    owners, judgement = await owners_and_judgement(graph, vectors, "time to pay up")
    assert set(owners.values()) == {""}
    assert judgement.intent != "pay" or not judgement.decided


async def test_a_request_worded_as_a_question_may_mean_an_action() -> None:
    # "which tables are free at 8?" asks about tables (above); this one asks to be booked.
    judgement = await judge("could you send someone over tonight?", query=BOOK)
    assert (judgement.intent, judgement.decided) == ("book", True)


async def test_a_declared_intent_no_condition_names_may_be_decided_anywhere() -> None:
    # The rules score such an intent at every node; taking it moves nothing, yet templates,
    # skill inputs and the transcript see it.
    graph = start_graph(["hours"], {"hours": ["when do you open?"], "order": ["a coffee please"]})
    tier = EmbeddingTier(ChosenVectors(chosen() | {"a coffee please": BOOK, "one latte": BOOK}))
    got = at(graph, "one latte")
    judgement = await tier.judge(got, NLUResult())
    assert (judgement.intent, judgement.decided) == ("order", True)


WITHDRAW = toward(YES, CHAT, 1.0)
"""Where the pack's withdrawal sentences point: far from the author's own cancel example."""
ACTS: dict[str, tuple[str, ...]] = {
    "withdraw": ("we'll sort something else out", "let's leave the whole thing"),
    "repeat": ("the line cut out, again please",),
    "goodbye": ("I'm off to bed now",),
}


@pytest.fixture
def acts() -> Iterator[None]:
    """The packs' act sentences replaced by ``ACTS``."""
    with replaced_pack_sentences("act_sentences", ACTS):
        yield


async def act_owners_and_judgement(graph: Scenario, text: str) -> tuple[dict[str, str], Any]:
    """Who owns each act sentence once ``graph`` is loaded, and what the tier makes of
    ``text`` (pointing the way of the withdrawal sentences) when the rules heard nothing."""
    vectors = chosen() | {s: WITHDRAW for s in ACTS["withdraw"]} | {text: WITHDRAW}
    tier = EmbeddingTier(ChosenVectors(vectors | {"call it off": BOOK}))
    loaded = await tier.vectors(graph)
    assert loaded is not None
    owned = dict(zip(loaded.owners, loaded.owners, strict=True))
    owners = {
        sentence: owner
        for (owner, sentence) in tier_module.language_passages("en")
        if owner.startswith(tier_module.ACT_OWNER)
    }
    given = tier_module.act_owners(graph)
    got = at(graph, text)
    assert all(owner in given or owner not in owned for owner in owners.values())
    return (
        {sentence: given.get(owner, "") for sentence, owner in owners.items()},
        await tier.judge(got, NLUResult()),
    )


@pytest.mark.usefixtures("acts")
async def test_every_way_of_withdrawing_goes_to_the_scenarios_own_cancel_intent() -> None:
    # The author wrote one example, itself one of the pack's withdrawal phrases: the rules
    # know "stop" is the way out, and the tier hears every wording of it there.
    graph = start_graph(["stop", "hours"], {"stop": ["call it off"], "hours": ["when?"]})
    owners, judgement = await act_owners_and_judgement(graph, "we're going elsewhere")
    assert owners == {
        "we'll sort something else out": "stop",
        "let's leave the whole thing": "stop",
        "the line cut out, again please": "repeat",
        "I'm off to bed now": "goodbye",
    }
    assert (judgement.intent, judgement.decided) == ("stop", True)


@pytest.mark.usefixtures("acts")
async def test_without_a_cancel_intent_the_withdrawal_sentences_are_dropped() -> None:
    graph = start_graph(["book", "hours"], {"book": ["a table"], "hours": ["when?"]})
    owners, judgement = await act_owners_and_judgement(graph, "we're going elsewhere")
    assert owners["we'll sort something else out"] == ""
    assert owners["I'm off to bed now"] == "goodbye"
    assert judgement.intent not in {"book", "hours"} or not judgement.decided


async def test_a_question_that_only_asks_about_a_value_is_judged() -> None:
    # "How much is it for 4?" names a party of 4 to ask a price, not to give the party ...
    asked = NLUResult(entities={"party": 4}, confidence=0.5)
    tier = EmbeddingTier(ChosenVectors(chosen() | {"how long is the wait for 4?": HOURS}))
    judged = await tier.judge(request("how long is the wait for 4?", expected_slot="party"), asked)
    assert judged is not None and (judged.intent, judged.decided) == ("hours", True)
    # ... while "can we come as 4?" offers it: the node's answer, not embedded.
    offered = await tier.judge(request("can we come as 4?", expected_slot="party"), asked)
    assert offered is None


async def test_half_an_intents_sentences_with_a_clear_plurality_adopt_a_concept() -> None:
    # Two of four sentences near the price wordings, one near parking, one near opening
    # hours: half, and more than any other concept. Two against two adopts nothing.
    hours_sentence, hours_way = "until when are you open?", YES
    three = CONCEPTS | {"opening_hours": (hours_sentence,)}
    examples = ["how much?", "what's the fee?", "where do I park to pay?", "open late to pay?"]
    split = {examples[0]: OFF_PRICE, examples[1]: OFF_PRICE, examples[2]: PARKING}
    plural = price_vectors(**split, **{examples[3]: hours_way, hours_sentence: hours_way})
    tied = plural | {examples[1]: PARKING}
    with replaced_pack_sentences("concept_sentences", three):
        owners, _ = await owners_and_judgement(priced(("fees", examples)), plural, "pricey?")
        assert set(owners.values()) == {"fees"}
        owners, _ = await owners_and_judgement(priced(("fees", examples)), tied, "pricey?")
        assert set(owners.values()) == {""}


async def test_a_hold_on_that_goes_on_to_say_something_is_judged() -> None:
    # The rules cannot tell "hold on, we're going elsewhere" from "hold on, the kids are
    # home"; the tier weighs it against small talk. A hold-on alone or with an aside is not.
    text = "hold on, we found a place nearer home"
    tier = EmbeddingTier(ChosenVectors(chosen() | {text: HOURS}))
    judged = await tier.judge(request(text, expected_slot="party"), NLUResult())
    assert judged is not None and judged.intent == "hours"
    for aside in ("hold on", "hold on, my phone is ringing", "hang on, let me check my notes"):
        assert await tier.judge(request(aside, expected_slot="party"), NLUResult()) is None


async def test_a_remark_that_names_no_value_asked_for_is_judged() -> None:
    # "do I have to ..." remarks on giving the party size only when it names it.
    tier = EmbeddingTier(ChosenVectors(chosen() | {"do I have to show ID?": HOURS}))
    judged = await tier.judge(request("do I have to show ID?", expected_slot="party"), NLUResult())
    assert judged is not None and (judged.intent, judged.decided) == ("hours", True)


def cancel_or_book() -> Scenario:
    """Booking moves on to the party size; cancelling ends the conversation."""
    on = [("book", "ask_party"), ("cancel", "cancelled")]
    return Scenario.from_dict(
        make_graph(
            [
                {
                    "id": "start",
                    "description": "Ask what the guest needs.",
                    "wait_for_input": True,
                    "next_nodes": [
                        {
                            "condition": {"field": "nlu.intent", "operator": "equals", "value": i},
                            "target": target,
                        }
                        for i, target in on
                    ],
                },
                {"id": "ask_party", "description": "Ask how many.", "default_next": "done"},
                {"id": "done", "terminal": True},
                {"id": "cancelled", "terminal": True},
            ],
            intents={"book": {"examples": ["a table"]}, "cancel": {"examples": ["call it off"]}},
        )
    )


async def test_ending_the_conversation_takes_twice_the_lead() -> None:
    # The same lead (0.07 over the runner-up, calibrated margin 0.05) takes the booking,
    # which the next turn could still undo, but not the cancel, which no turn can.
    graph = cancel_or_book()
    assert graph.index.ending_intents == {"cancel"}
    nearest, next_nearest = toward(BOOK, ANSWER, 0.2), toward(BOOK, HOURS, 0.45)
    text = "we would rather not, I think"
    for intent, rival, decided in (("cancel", "a table", False), ("book", "call it off", True)):
        own = "call it off" if intent == "cancel" else "a table"
        vectors = chosen() | {own: nearest, rival: next_nearest, text: BOOK}
        tier = EmbeddingTier(ChosenVectors(vectors))
        got = at(graph, text)
        judged = await tier.judge(got, NLUResult())
        assert judged is not None and (judged.intent, judged.decided) == (intent, decided)


def test_each_kinds_change_goes_to_the_intent_that_changes_its_one_slot() -> None:
    assert tier_module.change_owners(read_back("en", own_changes=True)) == {
        "time": "other_hour",
        "person_name": "rename",
    }
    # Two date slots each with its own change: "that week is no good" could mean either.
    document = read_back("en", own_changes=True).document.model_dump(mode="json")
    document["slots"]["time"] = {"type": "date", "prompt": "When do you arrive?"}
    document["slots"]["name"] = {"type": "date", "prompt": "When do you leave?"}
    assert tier_module.change_owners(Scenario.from_dict(document)) == {}


async def test_a_reason_a_value_will_not_do_is_the_scenarios_change_of_it() -> None:
    graph = read_back("en", own_changes=True)
    reason, said = "I'm stuck at work then", "we're at the office till late, sorry"
    with replaced_pack_sentences("act_sentences", {"change:time": (reason,)}):
        tier = EmbeddingTier(ChosenVectors(chosen() | {reason: HOURS, said: HOURS}))
        got = at(graph, said, "confirm")
        judged = await tier.judge(got, NLUResult())
    assert judged is not None and (judged.intent, judged.decided) == ("other_hour", True)
