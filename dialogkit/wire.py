"""pydantic models of the HTTP API, shared by the server, the remote client and the engine.

Field names, types and defaults follow ``shared/spec/http-api.md`` exactly. Request models
ignore unknown fields; responses drop null values when serialized (see ``to_json``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Self, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import PydanticCustomError, PydanticSerializationError, SchemaSerializer, to_json

T = TypeVar("T")

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
    return Codec.dump(
        model.__pydantic_serializer__,
        model,
        exclude_none=exclude_none,
        exclude_defaults=exclude_defaults,
    )


class Codec(Generic[T]):
    """JSON for plain data (a dataclass) crossing a boundary: pydantic validates what is read
    and writes what is stored, and the engine works on the plain objects in between."""

    def __init__(self, kind: type[T]) -> None:
        self._adapter: TypeAdapter[T] = TypeAdapter(kind)

    def encode(self, value: T, *, exclude_defaults: bool = False) -> bytes:
        """``value`` as UTF-8 JSON (text UTF-8 cannot carry is repaired, as by ``dump_json``)."""
        return self.dump(self._adapter.serializer, value, exclude_defaults=exclude_defaults)

    def decode(self, raw: bytes | str) -> T:
        return self._adapter.validate_json(raw)

    @staticmethod
    def dump(
        serializer: SchemaSerializer,
        value: Any,
        *,
        exclude_none: bool = False,
        exclude_defaults: bool = False,
    ) -> bytes:
        try:
            return serializer.to_json(
                value, exclude_none=exclude_none, exclude_defaults=exclude_defaults
            )
        except PydanticSerializationError:
            data = serializer.to_python(
                value, mode="json", exclude_none=exclude_none, exclude_defaults=exclude_defaults
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
    """What the final reply carries. Frozen, so every session on the defaults shares one."""

    model_config = ConfigDict(frozen=True)

    include_slots: bool = True
    include_history: bool = False


DEFAULT_STT_THRESHOLD = -0.7
"""A message whose confidence is at or below this is not understood (``stt_low_confidence``)."""

_NULL_MEANS_DEFAULT = ("user", "completion_options")
"""Options whose ``None`` means "the default" in keyword form (the wire has no null for them)."""


class SessionSettings(WireModel):
    """The start options a session keeps exactly as given: one definition for the create
    request, the engine's ``SessionConfig`` and the clients."""

    llm_choice: ShortText = ""
    nlu_llm_choice: ShortText = ""
    user_system_prompt: str = Field("", max_length=MAX_PROMPT_CHARS)
    max_fallback_retries: int | None = Field(None, ge=0)
    stt_confidence_threshold: float = DEFAULT_STT_THRESHOLD
    completion_options: CompletionOptions = CompletionOptions()


class SessionOptions(SessionSettings):
    """Every option of starting a session (``POST /v1/session``'s fields minus the scenario),
    as ``Engine.start``, ``Client.start`` and the server take them."""

    user: ChatbotSessionUser = Field(default_factory=ChatbotSessionUser)
    bot_first: bool | None = None

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Self:
        """Keyword options validated; an unknown name is a mistake (``TypeError``), and
        ``None`` for ``user`` or ``completion_options`` means their default."""
        unknown = sorted(set(options) - set(cls.model_fields))
        if unknown:
            raise TypeError(
                f"Unknown session option(s): {', '.join(unknown)}; the options are "
                f"{', '.join(sorted(cls.model_fields))}."
            )
        given = {
            name: value
            for name, value in options.items()
            if value is not None or name not in _NULL_MEANS_DEFAULT
        }
        return cls.model_validate(given)

    def keywords(self) -> dict[str, Any]:
        """The start options as keyword arguments (``Engine.astart(name, **keywords)``)."""
        return {name: getattr(self, name) for name in SessionOptions.model_fields}


class ChatbotSessionCreateRequest(SessionOptions):
    scenario_name: str = ""
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


@dataclass(slots=True)
class HistoryEntry:
    """One message of a conversation: plain data inside the engine (the dialogue state,
    provider requests); pydantic validates it only as part of a response's ``final_data``."""

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


class FrameworkError(WireModel):
    """The body Sanic answers for what never reaches a handler: a body over the size limit
    (413), an unknown path (404), a wrong method (405)."""

    description: str
    status: int
    message: str


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
