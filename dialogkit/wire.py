"""pydantic models of the HTTP API, shared by the server, the remote client and the engine.

Field names, types and defaults follow ``shared/spec/http-api.md`` exactly. Request models
ignore unknown fields; responses drop null values when serialized (see ``to_json``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError, PydanticSerializationError, to_json

MAX_SHORT_TEXT_CHARS = 256
"""Cap on a short text a session keeps for its life: a user id, name, text location, locale,
time zone or date-time, and a model name."""
MAX_PROMPT_CHARS = 8000
"""Cap on ``user_system_prompt``, kept in the session and sent with every generated reply."""
MAX_OBJECT_BYTES = 16 * 1024
"""Cap on ``user.profile`` and ``user.metadata``, each measured as compact JSON."""

ShortText = Annotated[str, Field(max_length=MAX_SHORT_TEXT_CHARS)]


def _bounded_object(value: dict[str, Any]) -> dict[str, Any]:
    """An object a session keeps for its life, refused (422) above ``MAX_OBJECT_BYTES``."""
    size = len(to_json(value, fallback=str))
    if size > MAX_OBJECT_BYTES:
        raise PydanticCustomError(
            "object_too_large",
            "Object should have at most {limit} bytes of JSON, not {size}",
            {"limit": MAX_OBJECT_BYTES, "size": size},
        )
    return value


BoundedObject = Annotated[
    dict[str, Any],
    AfterValidator(_bounded_object),
    Field(description=f"At most {MAX_OBJECT_BYTES} bytes as compact JSON."),
]


def dump_json(
    model: BaseModel, *, exclude_none: bool = False, exclude_defaults: bool = False
) -> bytes:
    """The model as UTF-8 JSON, written by pydantic-core in one pass.

    Text that UTF-8 cannot carry (a lone surrogate, e.g. from a ``\\ud800`` escape in a
    request) makes that fail; then the text is repaired (U+FFFD) instead of failing the
    request or the save: every JSON this returns parses again.
    """
    try:
        return model.__pydantic_serializer__.to_json(
            model, exclude_none=exclude_none, exclude_defaults=exclude_defaults
        )
    except PydanticSerializationError:
        data = model.model_dump(
            mode="json", exclude_none=exclude_none, exclude_defaults=exclude_defaults
        )
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


class WireModel(BaseModel):
    """Base of every wire model: unknown request fields are ignored."""

    model_config = ConfigDict(extra="ignore")

    def to_json(self) -> dict[str, Any]:
        """The JSON body as the service sends it: null-valued fields omitted."""
        return self.model_dump(mode="json", exclude_none=True)


class RootInfo(WireModel):
    message: str = "dialogkit: graph-driven dialogue service"
    version: str = ""
    docs: str = "/docs"
    redoc: str = "/redoc"
    openapi: str = "/openapi.json"
    api: str = ""


class ChatbotSessionLocation(WireModel):
    latitude: float = Field(ge=-90, le=90, description="WGS84 latitude.")
    longitude: float = Field(ge=-180, le=180, description="WGS84 longitude.")


class ChatbotSessionUser(WireModel):
    id: ShortText = ""
    name: ShortText = ""
    age: int | None = None
    location: ChatbotSessionLocation | ShortText = ""
    profile: BoundedObject = Field(default_factory=dict)
    locale: ShortText = ""
    timezone: ShortText = ""
    date_time: ShortText = ""
    metadata: BoundedObject = Field(default_factory=dict)

    def sent_values(self) -> dict[str, Any]:
        """Only the values actually sent: non-default and non-null, as stored in the session."""
        return self.model_dump(exclude_defaults=True, exclude_none=True)


class CompletionOptions(WireModel):
    include_slots: bool = True
    include_history: bool = False


class ChatbotSessionCreateRequest(WireModel):
    user: ChatbotSessionUser = Field(default_factory=ChatbotSessionUser)
    scenario_name: str = ""
    llm_choice: ShortText = ""
    nlu_llm_choice: ShortText = ""
    user_system_prompt: str = Field("", max_length=MAX_PROMPT_CHARS)
    bot_first: bool | None = None
    max_fallback_retries: int | None = Field(None, ge=0)
    stt_confidence_threshold: float = -0.7
    completion_options: CompletionOptions = Field(default_factory=CompletionOptions)
    scenario_graph: dict[str, Any] = Field(default_factory=dict)


class ChatbotSessionCreateResponse(WireModel):
    session_id: str = ""
    message: str = "Session created"
    llm_choice: str = ""
    nlu_llm_choice: str = ""
    user_system_prompt: str = ""
    completion_options: CompletionOptions = Field(default_factory=CompletionOptions)
    initial_response: str = ""
    initial_current_node: str = ""
    initial_turn_count: int = 0
    initial_processing_time_ms: float = 0.0
    initial_session_complete: bool = False


class ChatbotValidateRequest(WireModel):
    scenario_graph: dict[str, Any] = Field(default_factory=dict)


class ChatbotValidateResponse(WireModel):
    status: str = ""
    message: str = ""


class UserInput(WireModel):
    id: str = ""
    name: str = ""
    age: int = 0


class RequeryContext(WireModel):
    requery_id: str = ""
    trigger_type: str = ""
    consecutive_attempt: int = Field(0, ge=0)


class MessageInput(WireModel):
    text: str = ""
    confidence: float = 0.0
    duration: float = 0.0
    emotion: str = ""
    requery_required: bool = False
    requery_context: RequeryContext = Field(default_factory=RequeryContext)


class ChatbotRequest(WireModel):
    session_id: str = ""
    user_input: UserInput = Field(default_factory=UserInput)
    message_input: MessageInput = Field(default_factory=MessageInput)


class HistoryEntry(WireModel):
    role: str
    message: str


class ChatbotFinalData(WireModel):
    end_reason: str = "completed"
    slots: dict[str, Any] | None = None
    conversation_history: list[HistoryEntry] | None = None


class ChatbotMessageResponse(WireModel):
    session_id: str = ""
    response: str = ""
    current_node: str = ""
    turn_count: int = 0
    processing_time_ms: float = 0.0
    session_complete: bool = False
    final_data: ChatbotFinalData | None = None
    error: bool = False


class ChatbotSessionInfoResponse(WireModel):
    session_id: str = ""
    current_node: str = ""
    turn_count: int = 0
    session_complete: bool = False
    slots: dict[str, Any] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    expires_at: str | None = None
    ttl_seconds: int | None = None


class ErrorDetail(WireModel):
    """The body of a 400 or 404: ``{"detail": "..."}``."""

    detail: str


class ValidationErrorItem(WireModel):
    type: str
    loc: list[str | int]
    msg: str
    input: Any = None


class ValidationErrorBody(WireModel):
    """The body of a 422, in the FastAPI style the reference service uses."""

    detail: list[ValidationErrorItem]


# Skill runtime contract (outbound: POST {skill_runtime_url}/v1/skills/execute).


class SkillContext(WireModel):
    request_id: str = ""
    session_id: str = ""
    skill_version: str = ""
    locale: str = ""
    timezone: str = ""


class SkillRequest(WireModel):
    skill_id: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    context: SkillContext = Field(default_factory=SkillContext)


class SkillResponse(BaseModel):
    """A runtime's answer; ``result`` must be an object (checked strictly, not coerced)."""

    model_config = ConfigDict(extra="ignore")

    success: bool = True
    result: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)


class ReadinessCheck(WireModel):
    ready: bool
    detail: str = ""


class ReadinessResponse(WireModel):
    """``GET /v1/ready``, an addition to the contract: 200 when ``ready``, else 503.

    ``not_ready`` names the failing checks (``skill_runtime``, ``models``, ``store``).
    """

    ready: bool
    not_ready: list[str] = Field(default_factory=list)
    checks: dict[str, ReadinessCheck] = Field(default_factory=dict)
