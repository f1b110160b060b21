"""What an evaluation says in words: the summary, success per persona, the failure kinds,
warnings, and one failing transcript per top failure kind, turn by turn.

``dialogkit eval`` prints this; ``Results.report()`` returns it for a notebook. A transcript
shows, for every user turn, the node before and after, what NLU made of the utterance
(intent and entities) and the slots the session held afterwards, so a failure can be read
without opening the tables.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from dialogkit.evaluate.failures import KINDS

if TYPE_CHECKING:
    from dialogkit.evaluate.results import Results

NONSENSE_WARNING_SHARE = 0.5
"""Warn when at least this share of the runs that reached a success end were nonsense."""
TOP_KINDS = 3
"""Failure kinds that get a transcript in the report."""


def report(results: Results, *, transcripts: int = TOP_KINDS) -> str:
    """The whole report as text: tables, warnings and ``transcripts`` failing transcripts."""
    parts = [_table(results.summary()), "success per persona:", _table(results.by_persona())]
    kinds = results.failure_kinds()
    if len(kinds):
        parts.append("failure kinds:")
        for row in kinds.itertuples(index=False):
            parts.append(f"  {row.count:6d}  {row.model}  {row.kind}: {KINDS.get(row.kind, '')}")
    parts += [f"warning: {text}" for text in warnings(results)]
    for kind, conversation in examples(results, transcripts):
        parts += [f"--- a {kind} conversation ({conversation}):", transcript(results, conversation)]
    return "\n".join(parts) + "\n"


def warnings(results: Results) -> list[str]:
    """One warning per model whose would-be successes are mostly nonsense runs."""
    table = results.conversations
    out = []
    for model in results.models:
        mine = table[table["model"] == model]
        nonsense = int(mine["nonsense"].sum()) if "nonsense" in mine else 0
        wins = int(mine["success"].astype(bool).sum())
        if nonsense and nonsense / (nonsense + wins) >= NONSENSE_WARNING_SHARE:
            out.append(
                f"{model}: {nonsense} of {nonsense + wins} runs that ended well by the graph "
                "are nonsense (see the asked_nothing / loop / goal_unaskable kinds); the "
                "success rate says little about this scenario"
            )
    return out


def examples(results: Results, top: int) -> list[tuple[str, str]]:
    """(kind, conversation id): the first failing conversation of each of the ``top`` kinds."""
    table = results.conversations
    if not top or "kind" not in table or not table["kind"].notna().any():
        return []
    failed = table[table["kind"].notna()]
    found = []
    for kind in failed["kind"].value_counts().head(top).index:
        found.append((str(kind), str(failed[failed["kind"] == kind].iloc[0]["conversation_id"])))
    return found


def transcript(results: Results, conversation_id: str) -> str:
    """One conversation turn by turn: node before -> after, utterance, NLU, reply, slots."""
    table = results.conversations
    row = table[table["conversation_id"] == conversation_id].iloc[0]
    lines = [
        f"persona {row['persona']}; goal {json.dumps(_goal_of(row), ensure_ascii=False)}",
        f"result: {row['failure'] if isinstance(row['failure'], str) else 'success'}",
    ]
    turns = results.turns
    mine = turns[turns["conversation_id"] == conversation_id] if len(turns) else turns
    for turn in mine.to_dict("records"):
        intent, fallback = turn.get("intent"), turn.get("fallback")
        nlu = intent if isinstance(intent, str) and intent else "-"
        entities = turn.get("entities")
        if isinstance(entities, dict) and entities:
            nlu += " " + json.dumps(entities, ensure_ascii=False, default=str)
        if isinstance(fallback, str) and fallback:
            nlu += f" (fallback {fallback})"
        lines += [
            f"{turn['turn']:>3} [{turn['node_before']} -> {turn['node_after']}]",
            f"      user: {turn['user_text']!r}"
            + (f" (confidence {turn['confidence']})" if turn["confidence"] else ""),
            f"      nlu:  {nlu}",
            f"      bot:  {turn['reply']}",
            f"      slots: {json.dumps(turn.get('slots') or {}, ensure_ascii=False, default=str)}",
        ]
    return "\n".join(lines)


def _goal_of(row: Any) -> dict[str, Any]:
    goal = row.get("goal") if hasattr(row, "get") else None
    return goal if isinstance(goal, dict) else {}


def _table(frame: Any) -> str:
    text: str = frame.to_string(float_format=lambda value: f"{value:.3f}")
    return text
