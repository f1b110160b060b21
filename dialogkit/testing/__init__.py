"""Test doubles users can reuse: a scripted OpenAI-compatible server, a recording skill
runtime (both real HTTP on 127.0.0.1), and the conversation test runner."""

from dialogkit.testing.openai_server import (
    Completion,
    Delay,
    ErrorReply,
    RawBody,
    ScriptedOpenAIServer,
)
from dialogkit.testing.skill_runtime import RecordingSkillRuntime, SkillReply
from dialogkit.testing.stand_in import StandInModel, StandInServer

__all__ = [
    "Completion",
    "Delay",
    "ErrorReply",
    "RawBody",
    "RecordingSkillRuntime",
    "ScriptedOpenAIServer",
    "SkillReply",
    "StandInModel",
    "StandInServer",
]
