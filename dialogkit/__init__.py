"""dialogkit: graph-driven dialogue, in-process or against a deployed service."""

from dialogkit.client import AsyncClient, AsyncRemoteSession, Client, RemoteSession
from dialogkit.engine.engine import Engine
from dialogkit.engine.session import Reply, Session
from dialogkit.errors import (
    APIError,
    BadRequest,
    ConfigurationError,
    DialogkitError,
    LLMError,
    ScenarioError,
    ScenarioInvalid,
    ScenarioNotFound,
    ServerError,
    SessionNotFound,
    SkillError,
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
    "DialogkitError",
    "Engine",
    "LLMError",
    "Problem",
    "RemoteSession",
    "Reply",
    "Scenario",
    "ScenarioError",
    "ScenarioInvalid",
    "ScenarioNotFound",
    "ServerError",
    "Session",
    "SessionNotFound",
    "Settings",
    "SkillError",
    "ValidationFailed",
    "__version__",
]
