"""The named ways a simulated conversation can fail, and which of them are nonsense.

Every failed conversation carries one ``kind`` (a stable code, for tables and CI) and a
``failure`` sentence (the particulars). *Nonsense* kinds are sanity checks: the session may
well have reached a success end, but in a way that says nothing about the dialogue (it
completed without asking for anything the user wanted, it bounced between two nodes, or
the goal wanted slots the graph never asks). They never count as success, and the summary
warns when a scenario's would-be successes are mostly nonsense.
"""

from __future__ import annotations

from typing import Final, Literal

FailureKind = Literal[
    "failure_end",
    "wrong_end",
    "turn_limit",
    "user_left",
    "wrong_value",
    "uncorrectable",
    "expectation",
    "skill_rejected",
    "skill_failed",
    "asked_nothing",
    "loop",
    "goal_unaskable",
    "error",
]

KINDS: Final[dict[str, str]] = {
    "failure_end": "ended at a failure end (cancelled, skill failed, ...)",
    "wrong_end": "completed, but not at the end (node or end reason) the goal names",
    "turn_limit": "still going when the user's turns ran out",
    "user_left": "the user found no way towards its goal and left",
    "wrong_value": "a slot holds another value than the user wanted",
    "uncorrectable": "a slot holds another value and the graph never listened for it again "
    "(the user had no chance to correct it)",
    "expectation": "an assertion of the goal (slots, context, skills called) failed",
    "skill_rejected": "skill rejected the goal (the runtime refused the goal's values)",
    "skill_failed": "a skill call failed (runtime down, timeout, server error)",
    "asked_nothing": "nonsense: completed without asking for any of the goal's slots",
    "loop": "nonsense: alternated between two nodes turn after turn",
    "goal_unaskable": "nonsense: the goal wants slots the graph never asks for",
    "error": "the conversation could not run",
}
"""Every failure kind and what it means (``dialogkit eval`` prints these)."""

NONSENSE: Final = frozenset({"asked_nothing", "loop", "goal_unaskable"})
"""Kinds that flag a run as nonsense rather than as a plain dialogue failure."""

LOOP_TURNS: Final = 8
"""Consecutive user turns alternating between the same two nodes that count as a loop."""


def alternates(nodes: list[str], turns: int = LOOP_TURNS) -> tuple[str, str] | None:
    """The two nodes the last ``turns`` nodes alternate between, or None.

    ``nodes`` is where the session stood after each user turn; A, B, A, B, ... over the
    last ``turns`` entries is a loop (staying at one node is not: that is a node asking
    again).
    """
    if len(nodes) < turns:
        return None
    tail = nodes[-turns:]
    first, second = tail[0], tail[1]
    if first == second:
        return None
    if all(node == (first if i % 2 == 0 else second) for i, node in enumerate(tail)):
        return first, second
    return None
