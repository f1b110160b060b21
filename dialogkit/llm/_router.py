"""Model names to providers: the offline ones, or OpenAI-compatible endpoints.

A session chooses its own model names (the contract); the operator chooses the addresses.
A name is served only where the operator said so:

* ``DIALOGKIT_LLM_ENDPOINTS`` maps names to endpoints explicitly;
* ``OPENAI_BASE_URL`` serves every name, unless ``DIALOGKIT_LLM_MODELS`` lists the names it
  serves (besides ``CORE_DEFAULT_LLM`` and ``CORE_NLU_LLM``; ``*`` there: every name again).
  A name the model server does not know gets its error, and the turn its usual fallback;
* in cassette replay mode, the names the cassette holds are served from it, with no network;
* the embedding model is the one name ``DIALOGKIT_EMBEDDING_MODEL`` gives (or the in-process
  model), served by ``DIALOGKIT_EMBEDDING_BASE_URL`` or ``OPENAI_BASE_URL``.

Any other name has no provider here; the engine then uses the process default, and an
endpoint without a base URL never gets a client (the openai client would send it to the
public OpenAI address), so nothing goes to an address the operator did not configure.
The engine resolves which name a session uses (request value, then
``CORE_DEFAULT_LLM`` or ``CORE_NLU_LLM``); the router only knows where each name is served.
"""

from __future__ import annotations

import logging
from typing import Final, TypeVar
from urllib.parse import urlsplit, urlunsplit

from pydantic import ValidationError

from dialogkit.errors import LLMError
from dialogkit.llm._cassette import Cassette
from dialogkit.llm._chat import CallPolicy, ModelCaller
from dialogkit.llm._clients import ClientOptions, ClientPool
from dialogkit.llm._embeddings import (
    LOCAL,
    LOCAL_MODELS,
    Embedder,
    EndpointEmbedder,
    LocalEmbedder,
    calibration_for,
)
from dialogkit.llm._endpoints import Endpoint, parse_endpoints
from dialogkit.nlg._base import NLGProvider
from dialogkit.nlg._llm import LLMNLG
from dialogkit.nlu._base import NLUProvider
from dialogkit.nlu._embeddings import EmbeddingTier, VectorStore
from dialogkit.nlu._hybrid import HybridNLU
from dialogkit.nlu._llm import LLMNLU
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import OFFLINE_MODEL, Settings

logger = logging.getLogger("dialogkit.llm.router")

ANY_MODEL: Final = "*"
"""In ``DIALOGKIT_LLM_MODELS``: the default endpoint serves every name."""

MAX_PROVIDERS: Final = 256
"""NLU (and NLG) providers a router keeps built, oldest dropped first."""

K = TypeVar("K")
P = TypeVar("P")


def _kept(built: dict[K, P], key: K, provider: P) -> P:
    """``provider``, kept under ``key`` in ``built``, bounded: under a ``*`` allow-list a
    client may invent model names."""
    if len(built) >= MAX_PROVIDERS:
        del built[next(iter(built))]
    built[key] = provider
    return provider


def _without_credentials(url: str) -> str:
    """``url`` with any ``user:password@`` removed, fit for a log line."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def is_offline(model: str) -> bool:
    """True for the names that select the rule NLU and the template NLG."""
    return model.strip() in ("", OFFLINE_MODEL)


class ModelRouter:
    """Builds NLU and NLG providers for model names; owns the HTTP clients they share.

    Raises ``LLMError`` at construction when ``DIALOGKIT_LLM_ENDPOINTS`` or the cassette
    cannot be read, so a misconfigured process fails at start-up rather than on a turn.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        cassette: Cassette | None = None,
        vector_store: VectorStore | None = None,
    ) -> None:
        self.settings = settings
        self.endpoints = parse_endpoints(settings.llm_endpoints)
        self.default_endpoint: Endpoint | None = None
        self._default_models: set[str] = set()
        if settings.openai_base_url.strip():
            try:
                self.default_endpoint = Endpoint(
                    base_url=settings.openai_base_url.strip(), api_key=settings.openai_api_key
                )
            except ValidationError as exc:
                raise LLMError(
                    f"OPENAI_BASE_URL {settings.openai_base_url!r} must start with http:// or "
                    "https://, e.g. http://127.0.0.1:11434/v1."
                ) from exc
            listed = {name.strip() for name in settings.llm_models.split(",")} - {""}
            self._default_models = {
                name
                for name in (settings.core_default_llm, settings.core_nlu_llm, *listed)
                if not is_offline(name)
            }
            if not listed:
                self._default_models.add(ANY_MODEL)
        if cassette is None and settings.llm_cassette:
            cassette = Cassette(settings.llm_cassette, settings.llm_cassette_mode)
        self.cassette = cassette
        self._replayed = cassette.models if cassette and cassette.mode == "replay" else set()
        self._pool = ClientPool(
            ClientOptions(
                read_timeout_s=settings.llm_timeout_s,
                connect_timeout_s=settings.llm_connect_timeout_s,
                max_concurrency=settings.llm_max_concurrency,
            )
        )
        self._policy = CallPolicy(
            max_retries=settings.llm_max_retries,
            client=self._pool.options,
            max_text_chars=settings.max_text_chars,
            cassette=cassette,
        )
        self._callers: dict[Endpoint | None, ModelCaller] = {}
        self._nlus: dict[tuple[str, bool], NLUProvider] = {}
        self._nlgs: dict[str, NLGProvider] = {}
        self.embeddings = self._embedding_tier(vector_store)
        for line in self.routes():
            logger.info("model routing: %s", line)
        for name in (settings.core_default_llm, settings.core_nlu_llm):
            if not self.serves(name):
                logger.warning(
                    "model %r is configured as a default but no endpoint serves it: set "
                    "OPENAI_BASE_URL or map it in DIALOGKIT_LLM_ENDPOINTS; using the offline "
                    "providers",
                    name,
                )

    def _embedding_tier(self, store: VectorStore | None) -> EmbeddingTier | None:
        """The embedding tier ``DIALOGKIT_EMBEDDING_MODEL`` asks for, or None when unset.

        Its model is served by the in-process model (``local``), by its own mapping in
        ``DIALOGKIT_LLM_ENDPOINTS``, by ``DIALOGKIT_EMBEDDING_BASE_URL``, by
        ``OPENAI_BASE_URL``, or in replay mode by the cassette; anything else fails here.
        """
        settings = self.settings
        name = settings.embedding_model.strip()
        if not name:
            return None
        embedder: Embedder
        if name == LOCAL or name.startswith(LOCAL + ":"):
            local = LocalEmbedder(name.partition(":")[2] or next(iter(LOCAL_MODELS)))
            local.ensure_installed()
            embedder = local
        else:
            endpoint = self.endpoints.get(name) or self._embedding_endpoint()
            replay = self.cassette is not None and self.cassette.mode == "replay"
            if endpoint is None and not replay:
                raise LLMError(
                    f"DIALOGKIT_EMBEDDING_MODEL={name!r} has no endpoint: set "
                    "DIALOGKIT_EMBEDDING_BASE_URL (or OPENAI_BASE_URL), or use `local` for the "
                    "in-process model."
                )
            factory = None if replay or endpoint is None else self._pool.factory(endpoint)
            embedder = EndpointEmbedder(
                ModelCaller(factory, self._policy), name, calibration_for(name)
            )
        return EmbeddingTier(
            embedder,
            store=store,
            min_score=settings.embedding_min_score,
            min_margin=settings.embedding_min_margin,
            min_answer_lead=settings.embedding_min_answer_lead,
            min_chat_lead=settings.embedding_min_chat_lead,
        )

    def _embedding_endpoint(self) -> Endpoint | None:
        """``DIALOGKIT_EMBEDDING_BASE_URL`` (with the OpenAI key only when it is also
        ``OPENAI_BASE_URL``), else the default endpoint."""
        base_url = self.settings.embedding_base_url.strip()
        if not base_url:
            return self.default_endpoint
        same = base_url == self.settings.openai_base_url.strip()
        try:
            return Endpoint(base_url=base_url, api_key=self.settings.openai_api_key if same else "")
        except ValidationError as exc:
            raise LLMError(
                f"DIALOGKIT_EMBEDDING_BASE_URL {base_url!r} must start with http:// or "
                "https://, e.g. http://127.0.0.1:8080/v1."
            ) from exc

    async def prepare(self, scenario: Scenario) -> None:
        """Embed the scenario's sentences (once per fingerprint and model) when the
        embedding tier is on."""
        if self.embeddings is not None:
            await self.embeddings.vectors(scenario)

    def endpoint(self, model: str) -> Endpoint | None:
        """Where ``model`` is served: its mapped endpoint, the default one, or None."""
        mapped = self.endpoints.get(model)
        if mapped is not None:
            return mapped
        if self.default_endpoint is not None and (
            model in self._default_models or ANY_MODEL in self._default_models
        ):
            return self.default_endpoint
        return None

    def routes(self) -> list[str]:
        """Which names are served where, one line per address (logged at start-up so that an
        operator sees what a session's ``llm_choice`` can reach)."""
        by_endpoint: dict[Endpoint, list[str]] = {}
        if self.default_endpoint is not None:
            names = sorted(self._default_models - {ANY_MODEL})
            if ANY_MODEL in self._default_models:
                names = ["any name"]
            by_endpoint[self.default_endpoint] = names
        for name, endpoint in self.endpoints.items():
            by_endpoint.setdefault(endpoint, []).append(name)
        lines = [
            f"{', '.join(names)} -> {_without_credentials(endpoint.base_url)}"
            for endpoint, names in by_endpoint.items()
        ]
        if self._replayed:
            lines.append(f"{', '.join(sorted(self._replayed))} -> replayed from the cassette")
        return lines or ["no model endpoint is configured: every session runs offline"]

    def serves(self, model: str) -> bool:
        """True when ``model`` is offline or some configured endpoint (or the cassette)
        serves it."""
        return is_offline(model) or model in self._replayed or self.endpoint(model) is not None

    def caller(self, model: str) -> ModelCaller | None:
        """What sends ``model``'s chat completions (None: offline, or nobody serves it), for
        callers besides NLU and NLG such as model-played simulated users."""
        return self._caller(model)

    def _caller(self, model: str) -> ModelCaller | None:
        if is_offline(model) or not self.serves(model):
            return None
        replay = self.cassette is not None and self.cassette.mode == "replay"
        # One caller per endpoint (None: answered by the cassette alone), so that names a
        # client invents under a ``*`` allow-list cannot grow this cache.
        endpoint = None if replay else self.endpoint(model)
        caller = self._callers.get(endpoint)
        if caller is None:
            factory = None if endpoint is None else self._pool.factory(endpoint)
            caller = self._callers[endpoint] = ModelCaller(factory, self._policy)
        return caller

    def nlu(self, model: str, *, hybrid: bool | None = None) -> NLUProvider:
        """The NLU for ``model``; ``hybrid`` (default: the setting) puts the rules first.

        A name nobody serves gets the rule NLU (nothing leaves the process for it), followed by
        the embedding tier when ``DIALOGKIT_EMBEDDING_MODEL`` is set; a hybrid NLU puts that
        tier between the rules and the model. Providers hold no per-turn state, so each is
        built once: every turn asks for one, and a rule-decided turn should cost no more
        than with the offline router.
        """
        hybrid = self.settings.hybrid_nlu if hybrid is None else hybrid
        provider = self._nlus.get((model, hybrid))
        if provider is None:
            provider = _kept(self._nlus, (model, hybrid), self._build_nlu(model, hybrid))
        return provider

    def _build_nlu(self, model: str, hybrid: bool) -> NLUProvider:
        from dialogkit.nlu._rules import RuleNLU

        caller = self._caller(model)
        threshold = self.settings.hybrid_nlu_threshold
        if caller is None:
            if self.embeddings is not None:
                return HybridNLU(RuleNLU(), None, threshold, embeddings=self.embeddings)
            return RuleNLU()
        provider = LLMNLU(caller, model)
        if hybrid:
            return HybridNLU(RuleNLU(), provider, threshold, embeddings=self.embeddings)
        return provider

    def nlg(self, model: str) -> NLGProvider:
        """The NLG for ``model``; a name nobody serves gets the templates."""
        from dialogkit.nlg._templates import TemplateNLG

        provider = self._nlgs.get(model)
        if provider is None:
            caller = self._caller(model)
            built = TemplateNLG() if caller is None else LLMNLG(caller, model)
            provider = _kept(self._nlgs, model, built)
        return provider

    async def aclose(self) -> None:
        """Close the HTTP clients of every event loop the router was used on."""
        await self._pool.aclose()
