"""The embedding tier: meaning by sentence vectors, between the rules and the language model.

Rules follow the words a scenario lists; a paraphrase with none of them ("I couldn't sleep a
wink" for an intent whose examples say "I slept badly") leaves them unsure. When they are,
the utterance is embedded once and compared with the scenario's own sentences for each intent
the current node can use: the intent's examples and description (for an intent only named in
conditions, the descriptions of the nodes it leads to). An intent scores its best
cosine; the tier decides only when the best reaches the model's floor and leads the runner-up
by the model's margin (``dialogkit.llm._embeddings.Calibration``), and otherwise abstains, so
the language model or the fallback gets the turn. Values never come from here: the tier picks
intents (and with them topics and transitions); slots are still filled by the rules.

The scenario's vectors are computed once per scenario fingerprint and model, as one batch,
off the event loop (an in-process model runs in a thread, an endpoint is awaited), kept in
memory and, with a Redis store, in Redis for the other workers.
"""

from __future__ import annotations

import array
import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul
from typing import Final, Protocol, runtime_checkable

from dialogkit.llm._embeddings import Embedder, Vector
from dialogkit.logsafe import escape
from dialogkit.nlu._base import NLURequest
from dialogkit.scenario.model import Node
from dialogkit.scenario.scenario import Scenario

logger = logging.getLogger("dialogkit.nlu.embeddings")

PASSAGES_VERSION: Final = "4"
"""Changes whenever ``passages`` changes what it collects, so stored vectors are not reused."""
NODE_OWNER: Final = "@node:"
"""Owner prefix of a node description: it competes with the intents as "no intent"."""
MAX_QUERY_CHARS: Final = 1000
"""Only the start of a long utterance is embedded: the model's cost grows with the text."""
MAX_PASSAGE_CHARS: Final = 200
"""Only the start of a long description is embedded: a model's time grows faster than the
text (attention is quadratic), and the start says what the node or intent is about."""
MAX_SCENARIOS: Final = 256
"""Scenarios whose vectors a process keeps in memory (the oldest is dropped first)."""
RETRY_AFTER_S: Final = 30.0
"""After the batch of a scenario failed (model down), its turns abstain this long."""


@runtime_checkable
class VectorStore(Protocol):
    """Where vectors are shared between workers (``RedisStore`` is one)."""

    async def vectors(self, key: str) -> bytes | None: ...

    async def keep_vectors(self, key: str, data: bytes) -> None: ...


@dataclass(frozen=True)
class ScenarioVectors:
    """A scenario's sentences as vectors: ``owners[i]`` is the intent ``vectors[i]`` speaks for."""

    owners: tuple[str, ...]
    vectors: tuple[Vector, ...]

    def encode(self) -> bytes:
        """A JSON header line, then the vectors as little-endian float32."""
        dim = len(self.vectors[0]) if self.vectors else 0
        header = json.dumps({"owners": self.owners, "dim": dim}, ensure_ascii=False)
        flat = array.array("f", [v for vector in self.vectors for v in vector])
        return header.encode() + b"\n" + flat.tobytes()

    @classmethod
    def decode(cls, data: bytes) -> ScenarioVectors | None:
        """The vectors ``encode`` wrote; None for anything else."""
        try:
            head, _, body = data.partition(b"\n")
            header = json.loads(head)
            owners, dim = tuple(str(o) for o in header["owners"]), int(header["dim"])
            flat = array.array("f")
            flat.frombytes(body)
        except (ValueError, KeyError, TypeError):
            return None
        if dim <= 0 or len(flat) != dim * len(owners):
            return None
        vectors = tuple(tuple(flat[i * dim : (i + 1) * dim]) for i in range(len(owners)))
        return cls(owners, vectors)


@dataclass(frozen=True)
class Judgement:
    """What the tier found for one utterance: its best intent, the runner-up, and whether the
    calibration lets it decide."""

    intent: str | None
    score: float
    runner_up: str | None
    runner_up_score: float
    decided: bool


def passages(scenario: Scenario) -> list[tuple[str, str]]:
    """(owner, sentence) pairs the utterance is compared with, each pair once: every
    intent's examples and description, and every node's description (owner
    ``@node:ID``).

    An intent only named in conditions has no examples; its description is then the
    descriptions of the nodes its transitions lead to (``ScenarioIndex``). The descriptions
    of a declared intent's target nodes are left out: they say what the *assistant* does
    there ("explains the difference between the cards"), which resembles many a user's
    request that is not that intent ("I'd like a card"). Instead, the current node's own
    description (and its ``default_next`` node's) competes with the intents as the answer
    "no intent: the user is answering what this node asks"; when it wins, the tier abstains.
    """
    pairs: dict[tuple[str, str], None] = {}
    for name, intent in scenario.index.intents.items():
        for text in (*intent.examples, intent.description):
            if text.strip():
                pairs[(name, text.strip()[:MAX_PASSAGE_CHARS])] = None
    for node in scenario.document.graph.nodes:
        if node.description.strip():
            pairs[(NODE_OWNER + node.id, node.description.strip()[:MAX_PASSAGE_CHARS])] = None
    return list(pairs)


def _answer_owners(node: Node) -> set[str]:
    """The passages that stand for "an answer to this node, no intent": the node's own
    description and that of the node its ``default_next`` leads to."""
    owners = {NODE_OWNER + node.id}
    if node.default_next:
        owners.add(NODE_OWNER + node.default_next)
    return owners


def _cosines(query: Vector, vectors: Sequence[Vector]) -> list[float]:
    return [sum(map(mul, query, vector)) for vector in vectors]


class EmbeddingTier:
    """Scores an utterance against the intents a node can use; shared by every session."""

    def __init__(
        self,
        embedder: Embedder,
        *,
        store: VectorStore | None = None,
        min_score: float | None = None,
        min_margin: float | None = None,
    ) -> None:
        self.embedder = embedder
        self.store = store
        self.min_score = embedder.calibration.min_score if min_score is None else min_score
        self.min_margin = embedder.calibration.min_margin if min_margin is None else min_margin
        self._done: dict[str, ScenarioVectors] = {}
        self._pending: dict[tuple[str, int], asyncio.Future[ScenarioVectors | None]] = {}
        self._failed: dict[str, float] = {}

    def key(self, scenario: Scenario) -> str:
        """The cache key of a scenario's vectors: its fingerprint and the model."""
        digest = hashlib.sha256(
            f"{PASSAGES_VERSION}\0{self.embedder.model}\0{scenario.fingerprint}".encode()
        ).hexdigest()
        return digest[:32]

    async def vectors(
        self, scenario: Scenario, deadline: float | None = None
    ) -> ScenarioVectors | None:
        """The scenario's vectors, computed once (concurrent callers share the batch); None
        while the model is failing."""
        key = self.key(scenario)
        done = self._done.get(key)
        if done is not None:
            return done
        failed = self._failed.get(key)
        if failed is not None and time.monotonic() - failed < RETRY_AFTER_S:
            return None
        loop = asyncio.get_running_loop()
        pending = self._pending.get((key, id(loop)))
        if pending is None:
            # A future belongs to its loop: a batch running on the sync facade's private loop
            # cannot be awaited from an app's loop (a finished batch serves every loop).
            pending = self._pending[(key, id(loop))] = loop.create_future()
            result: ScenarioVectors | None = None
            try:
                result = await self._load(scenario, key, deadline)
            except Exception:
                logger.exception("embedding the scenario %s failed", escape(scenario.slug))
            finally:
                del self._pending[(key, id(loop))]
                pending.set_result(result)
            if result is None:
                self._failed[key] = time.monotonic()
            else:
                if len(self._done) >= MAX_SCENARIOS:
                    del self._done[next(iter(self._done))]
                self._done[key] = result
                self._failed.pop(key, None)
            return result
        return await asyncio.shield(pending)

    async def _load(
        self, scenario: Scenario, key: str, deadline: float | None
    ) -> ScenarioVectors | None:
        if self.store is not None:
            stored = await self.store.vectors(key)
            if stored is not None:
                decoded = ScenarioVectors.decode(stored)
                if decoded is not None:
                    return decoded
        pairs = passages(scenario)
        started = time.perf_counter()
        embedded = await self.embedder.embed(
            [text for _, text in pairs], "passage", deadline=deadline
        )
        if embedded is None:
            logger.warning(
                "the embedding model %s could not embed scenario %s; its turns go on without "
                "the embedding tier for %g s",
                escape(self.embedder.model),
                escape(scenario.slug),
                RETRY_AFTER_S,
            )
            return None
        vectors = ScenarioVectors(tuple(name for name, _ in pairs), tuple(embedded))
        logger.info(
            "embedded %d sentences of scenario %s with %s in %.0f ms",
            len(pairs),
            escape(scenario.slug),
            escape(self.embedder.model),
            (time.perf_counter() - started) * 1000,
        )
        if self.store is not None:
            await self.store.keep_vectors(key, vectors.encode())
        return vectors

    async def judge(self, request: NLURequest) -> Judgement | None:
        """The best intents for ``request.text`` among those the node can use; None when
        there is nothing to compare or the model failed."""
        vectors = await self.vectors(request.scenario, request.deadline)
        if vectors is None:
            return None
        usable = request.scenario.index.node(request.node.id).intents
        answers = _answer_owners(request.node)
        # Every intent of the scenario is ranked, not only the node's: an utterance nearer
        # an intent the node cannot use is ambiguous here, and the tier abstains on it.
        allowed = [
            i
            for i, owner in enumerate(vectors.owners)
            if owner in answers or owner in request.intents
        ]
        if not any(usable is None or vectors.owners[i] in usable for i in allowed):
            return None
        embedded = await self.embedder.embed(
            [request.text[:MAX_QUERY_CHARS]],
            "query",
            usage=request.usage,
            deadline=request.deadline,
        )
        if not embedded:
            return None
        cosines = _cosines(embedded[0], [vectors.vectors[i] for i in allowed])
        best: dict[str, float] = {}
        for i, cosine in zip(allowed, cosines, strict=True):
            owner = vectors.owners[i]
            best[owner] = max(cosine, best.get(owner, -1.0))
        ranked = sorted(best.items(), key=lambda item: item[1], reverse=True)
        intent: str | None
        intent, score = ranked[0]
        runner_up, second = ranked[1] if len(ranked) > 1 else (None, -1.0)
        decided = score >= self.min_score and score - second >= self.min_margin
        if intent.startswith(NODE_OWNER) or (usable is not None and intent not in usable):
            decided = False  # an answer to the node, or an intent it cannot use: abstain
        return Judgement(intent, round(score, 4), runner_up, round(second, 4), decided)
