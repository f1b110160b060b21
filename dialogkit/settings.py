"""Process settings, read from the environment (and an optional ``.env`` file)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from dialogkit.sanitize import DEFAULT_MAX_TEXT_CHARS

OFFLINE_MODEL = "offline"
"""The reserved model name that selects the built-in offline providers explicitly."""

CassetteMode = Literal["record", "replay", "record_missing"]
"""How an LLM cassette is used: see ``dialogkit.llm._cassette``."""


class Settings(BaseSettings):
    """Everything a process can configure; unset model names mean the offline providers."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    core_default_llm: str = Field("", alias="CORE_DEFAULT_LLM")
    core_nlu_llm: str = Field("", alias="CORE_NLU_LLM")
    openai_base_url: str = Field("", alias="OPENAI_BASE_URL")
    openai_api_key: str = Field("", alias="OPENAI_API_KEY")
    llm_endpoints: str = Field(
        "",
        alias="DIALOGKIT_LLM_ENDPOINTS",
        description="Per-model endpoints: JSON object or `model=url[|key];...`.",
    )
    llm_models: str = Field(
        "",
        alias="DIALOGKIT_LLM_MODELS",
        description="The only names OPENAI_BASE_URL serves besides the two defaults, "
        "comma-separated; unset or `*`: any name.",
    )
    llm_timeout_s: float = Field(
        30.0, alias="DIALOGKIT_LLM_TIMEOUT_S", gt=0, description="Read timeout of one call attempt."
    )
    llm_connect_timeout_s: float = Field(5.0, alias="DIALOGKIT_LLM_CONNECT_TIMEOUT_S", gt=0)
    llm_max_retries: int = Field(1, alias="DIALOGKIT_LLM_MAX_RETRIES", ge=0)
    llm_max_concurrency: int = Field(
        256,
        alias="DIALOGKIT_LLM_MAX_CONCURRENCY",
        gt=0,
        description="Calls in flight per endpoint and event loop; more wait in order.",
    )
    llm_cassette: str = Field("", alias="DIALOGKIT_LLM_CASSETTE")
    llm_cassette_mode: CassetteMode = Field("replay", alias="DIALOGKIT_LLM_CASSETTE_MODE")
    max_text_chars: int = Field(
        DEFAULT_MAX_TEXT_CHARS,
        alias="DIALOGKIT_MAX_TEXT_CHARS",
        gt=0,
        description="Cap on one text from a model or a skill runtime.",
    )
    hybrid_nlu: bool = Field(False, alias="DIALOGKIT_HYBRID_NLU")
    hybrid_nlu_threshold: float = Field(0.8, alias="DIALOGKIT_HYBRID_NLU_THRESHOLD")
    embedding_model: str = Field(
        "",
        alias="DIALOGKIT_EMBEDDING_MODEL",
        description="Turns the embedding tier of NLU on: a model name served at "
        "DIALOGKIT_EMBEDDING_BASE_URL, or `local` for the in-process model (`dialogkit[embed]`).",
    )
    embedding_base_url: str = Field(
        "",
        alias="DIALOGKIT_EMBEDDING_BASE_URL",
        description="OpenAI-compatible endpoint of `/embeddings`; default OPENAI_BASE_URL.",
    )
    embedding_min_score: float | None = Field(
        None,
        alias="DIALOGKIT_EMBEDDING_MIN_SCORE",
        description="Least cosine the embedding tier decides on; default: the model's own.",
    )
    embedding_min_margin: float | None = Field(
        None,
        alias="DIALOGKIT_EMBEDDING_MIN_MARGIN",
        description="Least lead over the runner-up intent; default: the model's own.",
    )
    embedding_min_answer_lead: float | None = Field(
        None,
        alias="DIALOGKIT_EMBEDDING_MIN_ANSWER_LEAD",
        description="Least lead over the node's own description (the user answering it); "
        "default: the model's own.",
    )
    embedding_min_chat_lead: float | None = Field(
        None,
        alias="DIALOGKIT_EMBEDDING_MIN_CHAT_LEAD",
        description="Least lead over the language's small talk; default: the model's own.",
    )
    skill_runtime_base_url: str = Field("", alias="SKILL_RUNTIME_BASE_URL")
    skill_runtime_timeout_s: float = Field(10.0, alias="SKILL_RUNTIME_TIMEOUT_S", gt=0)
    skill_runtime_max_response_bytes: int = Field(
        1024 * 1024, alias="SKILL_RUNTIME_MAX_RESPONSE_BYTES", gt=0
    )
    skill_runtime_max_in_flight: int = Field(
        64,
        alias="SKILL_RUNTIME_MAX_IN_FLIGHT",
        gt=0,
        description="Skill calls open at once per event loop; more wait for a free connection.",
    )
    turn_deadline_s: float = Field(
        60.0,
        alias="DIALOGKIT_TURN_DEADLINE_S",
        gt=0,
        description="Longest a turn may take; model and skill calls are cut to fit in it.",
    )
    lock_wait_s: float = Field(
        30.0,
        alias="DIALOGKIT_LOCK_WAIT_S",
        gt=0,
        description="Longest a turn waits for its session's lock (behind the session's other "
        "turns); past it the turn is answered 429 busy with nothing applied. Capped by the "
        "turn deadline.",
    )
    max_utterance_chars: int = Field(
        4000,
        alias="DIALOGKIT_MAX_UTTERANCE_CHARS",
        gt=0,
        description="Longest message_input.text the service accepts; longer gets a 422.",
    )
    max_graph_nodes: int = Field(
        1000,
        alias="DIALOGKIT_MAX_GRAPH_NODES",
        gt=0,
        description="Most nodes a posted scenario_graph may have; more gets a 400.",
    )
    max_graph_bytes: int = Field(
        1024 * 1024,
        alias="DIALOGKIT_MAX_GRAPH_BYTES",
        gt=0,
        description="Largest request body carrying a scenario_graph; larger gets a 400.",
    )
    admin_token: str = Field(
        "",
        alias="DIALOGKIT_ADMIN_TOKEN",
        description="When set, GET /v1/session/{id} needs `Authorization: Bearer <token>`, "
        "and GET /v1/ready shows its check details to requests carrying it.",
    )
    ready_cache_s: float = Field(
        5.0,
        alias="DIALOGKIT_READY_CACHE_S",
        ge=0,
        description="How long GET /v1/ready answers from its last probe (per worker).",
    )
    root_path: str = Field("", alias="DIALOGKIT_ROOT_PATH")
    backlog: int = Field(
        1024,
        alias="DIALOGKIT_BACKLOG",
        gt=0,
        description="Listen backlog of `dialogkit serve`: Sanic's 100 resets bursts of clients.",
    )
    redis_url: str = Field("", alias="DIALOGKIT_REDIS_URL")
    redis_max_connections: int = Field(
        256,
        alias="DIALOGKIT_REDIS_MAX_CONNECTIONS",
        gt=0,
        description="Connections per worker; a request past them waits for one (never fails).",
    )
    redis_pool_timeout_s: float = Field(
        10.0,
        alias="DIALOGKIT_REDIS_POOL_TIMEOUT_S",
        gt=0,
        description="How long a request waits for a free Redis connection.",
    )
    redis_lock_ttl_s: float = Field(
        10.0,
        alias="DIALOGKIT_REDIS_LOCK_TTL_S",
        gt=0,
        description="Lifetime of a session lock between renewals: how long a dead worker's "
        "lock outlives it.",
    )
    state_ttl_s: int = Field(3600, alias="DIALOGKIT_STATE_TTL_S", gt=0)
    config_ttl_s: int = Field(24 * 3600, alias="DIALOGKIT_CONFIG_TTL_S", gt=0)
    history_limit: int = Field(
        1000,
        alias="DIALOGKIT_HISTORY_LIMIT",
        gt=0,
        description="History entries (and path steps) kept per session; older ones are dropped.",
    )
    idempotency_replies: int = Field(
        64,
        alias="DIALOGKIT_IDEMPOTENCY_REPLIES",
        gt=0,
        description="Replies of Idempotency-Key turns kept per session (the most recent).",
    )
    transcript_limit: int = Field(
        1000,
        alias="DIALOGKIT_TRANSCRIPT_LIMIT",
        gt=0,
        description="Transcript rows kept per session; older ones are dropped.",
    )
