"""Counting language-model calls and tokens per session, so researchers can compare cost."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ModelUsage(BaseModel):
    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Usage(BaseModel):
    """Per-purpose (``nlu``, ``nlg``) and per-model counters; lives in the dialogue state."""

    by_purpose: dict[str, ModelUsage] = Field(default_factory=dict)
    by_model: dict[str, ModelUsage] = Field(default_factory=dict)
    warnings: list[str] = Field(
        default_factory=list,
        description="Model choices that could not be honoured, e.g. a name no endpoint serves.",
    )

    def copied(self) -> Usage:
        """A copy whose counters can change without touching this one."""
        if not (self.by_purpose or self.by_model or self.warnings):
            return Usage()
        return Usage(
            by_purpose={k: v.model_copy() for k, v in self.by_purpose.items()},
            by_model={k: v.model_copy() for k, v in self.by_model.items()},
            warnings=list(self.warnings),
        )

    def warn(self, message: str) -> bool:
        """Note ``message`` once; True when it is new (so the caller logs it once too)."""
        if message in self.warnings:
            return False
        self.warnings.append(message)
        return True

    def record(
        self,
        purpose: str,
        model: str,
        *,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        failed: bool = False,
    ) -> None:
        for bucket in (
            self.by_purpose.setdefault(purpose, ModelUsage()),
            self.by_model.setdefault(model, ModelUsage()),
        ):
            bucket.calls += 1
            bucket.failures += int(failed)
            bucket.prompt_tokens += prompt_tokens
            bucket.completion_tokens += completion_tokens

    @property
    def calls(self) -> int:
        return sum(u.calls for u in self.by_purpose.values())

    @property
    def total_tokens(self) -> int:
        return sum(u.prompt_tokens + u.completion_tokens for u in self.by_purpose.values())
