"""Skill calls: the engine-side interface, the HTTP runner, and the reference runtime."""

from dialogkit.skills.base import SkillCall, SkillOutcome, SkillRunner
from dialogkit.skills.client import HTTPSkillRunner
from dialogkit.skills.result import SkillErrorCode

__all__ = ["HTTPSkillRunner", "SkillCall", "SkillErrorCode", "SkillOutcome", "SkillRunner"]
