"""Builders and doubles shared by tests (import as ``tests.helpers``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dialogkit.engine.state import TurnRecord
from dialogkit.skills._base import SkillCall, SkillOutcome

ROOT = Path(__file__).resolve().parents[1]
COFFEE = ROOT / "docs" / "examples" / "coffee.json"

CARD_ISSUANCE_TURNS = [
    "체크카드 만들고 싶어요",
    "김민수입니다",
    "1990년 5월 17일이요",
    "010-1234-5678",
    "서울시 강남구 테헤란로 123, 101동 1001호요",
    "네 맞아요",
]
"""A card_issuance conversation from the card type to the issue_card skill (user 김민수)."""


def make_graph(
    nodes: list[dict[str, Any]],
    *,
    entry: str | None = None,
    language: str = "en",
    **top: Any,
) -> dict[str, Any]:
    """A valid scenario document around ``nodes`` (first node is the entry by default)."""
    graph_extra = {k: top.pop(k) for k in ("bot_first", "global_transitions") if k in top}
    return {
        "metadata": {
            "slug": "t",
            "name": "Test",
            "description": "A test graph.",
            "language": language,
            "version": "1",
        },
        "prompts": {"bot": "Be brief."},
        **top,
        "graph": {"entry": entry or nodes[0]["id"], "nodes": nodes, **graph_extra},
    }


class RecordingSkills:
    """A skill runner double: records calls and answers scripted outcomes."""

    def __init__(self, *outcomes: SkillOutcome) -> None:
        self.calls: list[SkillCall] = []
        self.outcomes = list(outcomes)

    async def run(self, call: SkillCall) -> SkillOutcome:
        self.calls.append(call)
        if self.outcomes:
            return self.outcomes.pop(0)
        return SkillOutcome(status="success", reply=f"ran {call.node.params.skill}")


def transcript_row(turn: int, user: str | None, reply: str) -> TurnRecord:
    """A transcript row; ``user`` None is a turn without input (the opening)."""
    return TurnRecord(
        turn=turn,
        user_text=user or "",
        confidence=None if user is None else 0.0,
        node_before="a",
        node_after="a",
        reply=reply,
    )
