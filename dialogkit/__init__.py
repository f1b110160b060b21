"""dialogkit: graph-driven dialogue, in-process or against a deployed service."""

from dialogkit.client import AsyncClient, AsyncRemoteSession, Client, RemoteSession, StartOptions
from dialogkit.engine.engine import Engine
from dialogkit.engine.session import Reply, Session
from dialogkit.errors import (
    APIError,
    BadRequest,
    ConfigurationError,
    ConnectionFailed,
    DialogkitError,
    IdempotencyKeyReused,
    InvalidOption,
    LLMError,
    RequestTimeout,
    ScenarioError,
    ScenarioInvalid,
    ScenarioNotFound,
    ServerError,
    SessionNotFound,
    SkillError,
    TransportError,
    ValidationFailed,
)
from dialogkit.scenario import Problem, Scenario
from dialogkit.settings import Settings

__version__ = "0.1.0"

__all__ = [
    "APIError",
    "AsyncClient",
    "AsyncRemoteSession",
    "BadRequest",
    "Client",
    "ConfigurationError",
    "ConnectionFailed",
    "DialogkitError",
    "Engine",
    "IdempotencyKeyReused",
    "InvalidOption",
    "LLMError",
    "Problem",
    "RemoteSession",
    "Reply",
    "RequestTimeout",
    "Scenario",
    "ScenarioError",
    "ScenarioInvalid",
    "ScenarioNotFound",
    "ServerError",
    "Session",
    "SessionNotFound",
    "Settings",
    "SkillError",
    "StartOptions",
    "TransportError",
    "ValidationFailed",
    "__version__",
]
