"""Scenario regexes run in linear time (RE2); what RE2 cannot run is reported or bounded."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from dialogkit.scenario import validate_document
from dialogkit.scenario.conditions import evaluate
from dialogkit.scenario.model import Condition
from dialogkit.scenario.patterns import (
    FALLBACK_SEARCH_TIMEOUT_S,
    compile_pattern,
    linear_pattern,
    pattern_error,
)
from tests.helpers import make_graph

HOSTILE = "^(a+)+$"
"""Exponential under a backtracking engine: ~4 s for 28 characters with Python's ``re``."""


def matches(value: str, text: str) -> bool:
    condition = Condition(field="input.text", operator="matches", value=value)
    return evaluate(condition, {"input": {"text": text}})


def test_a_catastrophic_pattern_answers_at_once_on_a_long_text() -> None:
    # Backtracking would need 2**4000 steps; RE2 answers in one pass over the text.
    assert not matches(HOSTILE, "a" * 4000 + "!")
    assert matches(HOSTILE, "a" * 4000)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"^\w+$", "안녕하세요"),
        (r"^\d+$", "١٢٣"),
        (r"[\w-]+요$", "좋아-요"),
        (r"^a\sb$", "a\u3000b"),
        (r"^\S+$", "日本語"),
        (r"[]x]", "]"),
        (r"^\\d$", "\\d"),
        ("떨어|없어|다 먹", "다 먹었어"),
        ("^YES$", "yes"),
    ],
)
def test_patterns_keep_pythons_unicode_and_case_insensitive_meaning(
    pattern: str, text: str
) -> None:
    assert matches(pattern, text)


def test_lookaround_is_not_run_by_matches() -> None:
    assert linear_pattern(r"(?<!\d)\d{3}") is None
    assert not matches(r"(?<!\d)\d{3}", "x123")


def test_slot_patterns_with_lookaround_run_with_a_time_limit() -> None:
    compiled = compile_pattern(r"(?<!\d)(?P<value>\d{3})(?!\d)")
    assert compiled is not None
    match = compiled.search("grid 123 now")
    assert match is not None and match.group("value") == "123"

    hostile = compile_pattern(r"^(a|a)*(?!x)$")
    assert hostile is not None
    started = time.monotonic()
    assert hostile.search("a" * 40 + "!") is None
    # Unbounded, this search takes longer than the age of the universe.
    assert time.monotonic() - started < FALLBACK_SEARCH_TIMEOUT_S + 5


def test_an_invalid_pattern_is_invalid_for_both_engines() -> None:
    assert pattern_error("[") is not None
    assert compile_pattern("[") is None


def graph_with(condition_value: Any = "^ok$", slot_pattern: str | None = None) -> dict[str, Any]:
    slots = {}
    if slot_pattern is not None:
        slots["code"] = {"type": "pattern", "pattern": slot_pattern}
    matches_text = {"field": "input.text", "operator": "matches", "value": condition_value}
    node = {
        "id": "start",
        "description": "Start.",
        "next_nodes": [
            {
                "condition": {"all": [matches_text]},
                "target": "end",
            }
        ],
        "default_next": "end",
    }
    end = {"id": "end", "description": "End.", "terminal": True}
    return make_graph([node, end], slots=slots)


def problems(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p.path: (p.severity, p.message) for p in validate_document(data)[1]}


def test_matches_with_a_pattern_re2_cannot_run_is_an_error_at_its_path() -> None:
    found = problems(graph_with(r"(?=a)b"))
    severity, message = found["graph.nodes[0].next_nodes[0].condition.all[0].value"]
    assert severity == "error"
    assert "RE2" in message and "lookaround" in message


def test_an_invalid_matches_pattern_is_an_error() -> None:
    found = problems(graph_with("("))
    severity, message = found["graph.nodes[0].next_nodes[0].condition.all[0].value"]
    assert severity == "error" and "Invalid regular expression" in message


def test_the_hostile_pattern_itself_is_valid_because_re2_runs_it() -> None:
    assert problems(graph_with(HOSTILE)) == {}


def test_a_slot_pattern_with_lookaround_is_a_warning() -> None:
    found = problems(graph_with(slot_pattern=r"(?<!\d)\d{3}"))
    severity, message = found["slots.code.pattern"]
    assert severity == "warning" and "limit per search" in message


async def test_slow_lookaround_patterns_share_one_budget_per_turn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Forty slow intent patterns cost one turn's budget, not forty time limits."""
    from dialogkit.engine.engine import Engine
    from dialogkit.engine.providers import OfflineRouter
    from dialogkit.scenario.patterns import TURN_SEARCH_BUDGET_S

    intents = {f"slow{i}": {"patterns": [r"^(a|a)*(?!x)$"]} for i in range(40)}
    start = {"id": "start", "description": "Start.", "default_next": "start"}
    async with Engine(router=OfflineRouter()) as engine:
        session = await engine.astart(make_graph([start], intents=intents), bot_first=False)
        with caplog.at_level(logging.WARNING, logger="dialogkit.patterns"):
            reply = await session.asend("a" * 40 + "!")
    assert not reply.error
    gave_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    # Each search that runs out of time spends FALLBACK_SEARCH_TIMEOUT_S of the budget.
    assert 1 <= len(gave_up) <= TURN_SEARCH_BUDGET_S / FALLBACK_SEARCH_TIMEOUT_S + 1
    assert len(gave_up) < len(intents) // 4


def test_honest_turns_keep_their_lookaround_matches_when_the_process_share_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scenario's own lookaround patterns take microseconds; a busy process running many
    such turns back to back (an evaluation, a conversation test) must never find them
    counted as no match because slow patterns elsewhere spent the shared budget."""
    from dialogkit.scenario import patterns

    drained = patterns.SharedSearchTime(share=0.0, burst=0.0)
    monkeypatch.setattr(patterns, "SHARED_SEARCH", drained)
    callsign = compile_pattern(r"(?<!\d)(?P<value>[A-Z][a-z]+ \d-\d)(?!\d)")
    assert callsign is not None and linear_pattern(r"(?<!\d)a") is None  # a bounded pattern
    for _ in range(1000):  # every turn has its own free allowance
        with patterns.search_budget():
            found = callsign.search("Hammer 6, this is Eagle 2-4, over")
            assert found is not None and found.group("value") == "Eagle 2-4"
    with patterns.search_budget():
        hostile = compile_pattern(r"^(a|a)*(?!x)$")
        assert hostile is not None
        started = time.perf_counter()
        assert hostile.search("a" * 40 + "!") is None  # cut at the turn's allowance
        assert time.perf_counter() - started < FALLBACK_SEARCH_TIMEOUT_S
        assert callsign.search("this is Eagle 2-4") is None  # nothing left for this turn


@pytest.mark.timeout(20)
def test_a_process_share_overdrawn_past_the_free_allowance_never_lifts_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a busy machine searches take longer than they are given, and the shared share goes
    below zero. A time limit of the share plus the turn's allowance may then be zero or
    negative, which ``regex`` reads as *no* limit: one hostile search held the server for
    minutes. It must count as no match at once."""
    from dialogkit.scenario import patterns

    overdrawn = patterns.SharedSearchTime(share=0.0, burst=0.0)
    overdrawn.spend(1.0)
    monkeypatch.setattr(patterns, "SHARED_SEARCH", overdrawn)
    hostile = compile_pattern(r"^(?=(a|a)+b)")
    assert hostile is not None
    with patterns.search_budget():
        started = time.perf_counter()
        assert hostile.search("a" * 3000 + "!") is None
        assert time.perf_counter() - started < FALLBACK_SEARCH_TIMEOUT_S
