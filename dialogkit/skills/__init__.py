"""Skill calls: the engine-side interface, the HTTP runner, and the reference runtime."""

from dialogkit.skills._base import SkillCall, SkillOutcome, SkillRunner
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.skills._result import SkillErrorCode

__all__ = ["HTTPSkillRunner", "SkillCall", "SkillErrorCode", "SkillOutcome", "SkillRunner"]
