"""Scripted conversation tests: replay cases against scenarios, check replies, measure coverage.

A test file (format: ``scenarios/tests/README.md``) names a scenario and lists cases; each
case is a fresh session driven turn by turn, with expectations checked after the opening,
after every message and at the end. Offline (the default) the replies are deterministic, so
a scenario author can pin exact wording; with ``llm`` the same cases run through a model.

Skills run against the reference runtime, started in-process once per run and only when a
case needs it; a case can instead declare the runtime down, to exercise failure paths.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.session import Reply, Session
from dialogkit.errors import DialogkitError
from dialogkit.scenario.registry import resolve_name
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.skills._client import HTTPSkillRunner
from dialogkit.testing.coverage import Coverage, Edge
from dialogkit.wire import ChatbotSessionInfoResponse, ChatbotSessionUser, CompletionOptions

TESTS_FOLDER = "tests"
"""A folder given as a path is searched here first (``scenarios`` -> ``scenarios/tests``)."""

SkillRuntimeMode = Literal["reference", "down"]

# ----------------------------------------------------------------- the test-file format


class _Strict(BaseModel):
    """Unknown keys are errors: a misspelt expectation must not pass silently."""

    model_config = ConfigDict(extra="forbid")


class Expectations(_Strict):
    """What must hold after a step; only the keys that are given are checked."""

    node: str | None = None
    complete: bool | None = None
    turn_count: int | None = None
    reply: str | None = None
    reply_matches: str | None = None
    reply_contains: str | list[str] | None = None
    reply_not_contains: str | list[str] | None = None
    slots: dict[str, Any] | None = None
    slots_absent: list[str] | None = None
    context: dict[str, Any] | None = None
    intent: str | None = None
    fallback: Literal["no_input", "not_understood"] | None = None
    end_reason: str | None = None
    error: bool | None = None

    @field_validator("reply_matches")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"invalid regular expression: {exc}") from exc
        return value


class StartOptions(_Strict):
    """The ``engine.astart`` options a case may set."""

    bot_first: bool | None = None
    max_fallback_retries: int | None = Field(None, ge=0)
    stt_confidence_threshold: float | None = None
    completion_options: CompletionOptions | None = None


class TurnSpec(_Strict):
    user: str
    confidence: float = 0.0
    expect: Expectations = Field(default_factory=Expectations)


class CaseSpec(_Strict):
    name: str
    user: ChatbotSessionUser | None = None
    options: StartOptions = Field(default_factory=StartOptions)
    skill_runtime: SkillRuntimeMode = "reference"
    initial: Expectations = Field(default_factory=Expectations)
    turns: list[TurnSpec] = Field(default_factory=list)
    final: Expectations = Field(default_factory=Expectations)


class CaseFile(_Strict):
    scenario: str
    cases: list[CaseSpec]


# ----------------------------------------------------------------- results


@dataclass(frozen=True)
class Failure:
    """The first expectation of a case that did not hold."""

    step: str
    """``start``, ``initial``, ``turn N`` (1-based) or ``final``."""
    check: str
    expected: Any
    actual: Any
    reply: str = ""
    user_text: str | None = None

    def describe(self) -> str:
        said = f" (user: {self.user_text!r})" if self.user_text is not None else ""
        return (
            f"{self.step}{said}: {self.check}: expected {self.expected!r}, got {self.actual!r}\n"
            f"reply: {self.reply!r}"
        )


@dataclass
class CaseResult:
    scenario: str
    name: str
    failure: Failure | None = None
    visits: set[str] = field(default_factory=set)
    moves: set[Edge] = field(default_factory=set)

    @property
    def passed(self) -> bool:
        return self.failure is None


@dataclass
class ScenarioReport:
    """All cases of one scenario (possibly from several files) and their joint coverage."""

    scenario: str
    files: list[Path] = field(default_factory=list)
    cases: list[CaseResult] = field(default_factory=list)
    coverage: Coverage | None = None
    problem: str | None = None
    """Why the file or the scenario could not be used at all (then there are no cases)."""

    @property
    def failed(self) -> list[CaseResult]:
        return [case for case in self.cases if not case.passed]

    def below(self, bar: float) -> bool:
        coverage = self.coverage
        return coverage is not None and min(coverage.node_ratio, coverage.transition_ratio) < bar


# ----------------------------------------------------------------- loading


def discover(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """Test files under ``paths`` (files, or ``*.json`` of a folder or its ``tests/``)."""
    files: list[Path] = []
    problems: list[str] = []
    for path in paths:
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            folder = path / TESTS_FOLDER if (path / TESTS_FOLDER).is_dir() else path
            files.extend(sorted(folder.glob("*.json")))
        else:
            problems.append(f"{path}: no such file or folder")
    return list(dict.fromkeys(files)), problems


def load_test_file(path: Path) -> tuple[CaseFile, Path]:
    """The parsed file and its scenario's file; raises ``DialogkitError`` saying what is wrong.

    ``scenario`` is a path relative to the test file when it ends in ``.json`` or holds a
    ``/``, else a registered name.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DialogkitError(f"{path}: cannot read the test file: {exc}") from exc
    try:
        spec = CaseFile.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        raise DialogkitError(f"{path}: not a valid test file: {problems}") from exc
    reference = spec.scenario
    if reference.endswith(".json") or "/" in reference:
        return spec, (path.parent / reference).resolve()
    return spec, resolve_name(reference).resolve()


# ----------------------------------------------------------------- checking


@dataclass(frozen=True)
class Observation:
    """What a step produced, in the terms expectations talk about."""

    reply: Reply
    info: ChatbotSessionInfoResponse

    def actual(self, check: str) -> Any:
        reply, info, trace = self.reply, self.info, self.reply.trace
        values: dict[str, Any] = {
            "node": info.current_node,
            "complete": info.session_complete,
            "turn_count": info.turn_count,
            "reply": reply.response,
            "intent": trace.intent if trace else None,
            "fallback": trace.fallback if trace else None,
            "end_reason": reply.final_data.end_reason if reply.final_data else None,
            "error": reply.error,
        }
        return values[check]


_MISSING = "<missing>"


def check(expect: Expectations, seen: Observation) -> tuple[str, Any, Any] | None:
    """The first unmet expectation as ``(check, expected, actual)``, in the documented order."""
    given = expect.model_fields_set
    text = seen.reply.response
    for name in ("node", "complete", "turn_count", "reply"):
        if name in given and getattr(expect, name) != seen.actual(name):
            return name, getattr(expect, name), seen.actual(name)
    if expect.reply_matches is not None and not re.search(expect.reply_matches, text):
        return "reply_matches", expect.reply_matches, text
    for needle in _as_list(expect.reply_contains):
        if needle not in text:
            return "reply_contains", needle, text
    for needle in _as_list(expect.reply_not_contains):
        if needle in text:
            return "reply_not_contains", needle, text
    for name, value in (expect.slots or {}).items():
        actual = seen.info.slots.get(name, _MISSING)
        if actual != value:
            return f"slots.{name}", value, actual
    for name in expect.slots_absent or []:
        if seen.info.slots.get(name) not in (None, ""):
            return f"slots_absent.{name}", None, seen.info.slots[name]
    if expect.context is not None:
        mismatch = _subset_mismatch(expect.context, seen.info.context, "context")
        if mismatch is not None:
            return mismatch
    for name in ("intent", "fallback", "end_reason", "error"):
        if name in given and getattr(expect, name) != seen.actual(name):
            return name, getattr(expect, name), seen.actual(name)
    return None


def _as_list(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else value


def _subset_mismatch(expected: Any, actual: Any, path: str) -> tuple[str, Any, Any] | None:
    """Objects match when every expected key matches (recursively); anything else by ``==``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}", value, _MISSING
            mismatch = _subset_mismatch(value, actual[key], f"{path}.{key}")
            if mismatch is not None:
                return mismatch
        return None
    return None if expected == actual else (path, expected, actual)


# ----------------------------------------------------------------- running


class _Engines:
    """One engine per skill-runtime mode, created on first use and closed at the end."""

    def __init__(self, llm: str | None, stack: ExitStack) -> None:
        self._llm = llm
        self._stack = stack
        self._engines: dict[SkillRuntimeMode, Engine] = {}

    def get(self, mode: SkillRuntimeMode) -> Engine:
        if mode not in self._engines:
            # Offline, chat models stay off whatever the environment says; an embedding
            # model (DIALOGKIT_EMBEDDING_MODEL) still adds its tier to the rules.
            settings = Settings(core_default_llm=self._llm or "", core_nlu_llm=self._llm or "")
            url = self._reference_url() if mode == "reference" else _closed_port_url()
            skills = HTTPSkillRunner(settings, base_url=url)
            router = None if self._llm or settings.embedding_model else OfflineRouter()
            self._engines[mode] = Engine(settings, router=router, skills=skills)
        return self._engines[mode]

    def _reference_url(self) -> str:
        # Imported here: the runtime's web framework is only loaded when a case needs it.
        from dialogkit.skills.runtime import RuntimeServer

        return self._stack.enter_context(RuntimeServer()).base_url

    async def aclose(self) -> None:
        for engine in self._engines.values():
            await engine.aclose()


def _closed_port_url() -> str:
    """A loopback address nothing listens on: connections are refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def _verify(
    session: Session, step: str, user_text: str | None, expect: Expectations, reply: Reply
) -> Failure | None:
    unmet = check(expect, Observation(reply, await session.ainfo()))
    if unmet is None:
        return None
    return Failure(step, *unmet, reply=reply.response, user_text=user_text)


async def run_case(engine: Engine, scenario: Scenario, case: CaseSpec) -> CaseResult:
    """Drive one session through the case; stop at the first unmet expectation."""
    result = CaseResult(scenario=scenario.slug, name=case.name)
    options = case.options.model_dump(exclude_none=True)
    try:
        session = await engine.astart(scenario, user=case.user, **options)
    except (DialogkitError, ValidationError) as exc:
        result.failure = Failure("start", "session", "a session", str(exc))
        return result
    reply = session.initial_reply
    failure = await _verify(session, "initial", None, case.initial, reply)
    for index, turn in enumerate(case.turns, 1):
        if failure is not None:
            break
        reply = await session.asend(turn.user, turn.confidence)
        failure = await _verify(session, f"turn {index}", turn.user, turn.expect, reply)
    if failure is None:
        failure = await _verify(session, "final", None, case.final, reply)
    result.failure = failure
    records = await engine.arecords(session.id, "visits")
    result.visits = set(records.path)
    result.moves = set(records.transitions)
    return result


async def arun(
    paths: list[Path], *, llm: str | None = None
) -> tuple[list[ScenarioReport], list[str]]:
    """Run every case under ``paths``; reports per scenario, plus paths that do not exist."""
    files, missing = discover(paths)
    reports: dict[str, ScenarioReport] = {}
    scenarios: dict[str, Scenario] = {}
    with ExitStack() as stack:
        engines = _Engines(llm, stack)
        try:
            for path in files:
                try:
                    spec, scenario_file = load_test_file(path)
                    scenario = Scenario.from_file(scenario_file)
                except DialogkitError as exc:
                    reports[str(path)] = ScenarioReport(path.name, [path], problem=str(exc))
                    continue
                key = str(scenario_file)
                report = reports.setdefault(key, ScenarioReport(scenario.slug))
                report.files.append(path)
                scenarios[key] = scenario
                for case in spec.cases:
                    engine = engines.get(case.skill_runtime)
                    report.cases.append(await run_case(engine, scenario, case))
        finally:
            await engines.aclose()
    for key, scenario in scenarios.items():
        report = reports[key]
        visits = set().union(*(case.visits for case in report.cases))
        moves = set().union(*(case.moves for case in report.cases))
        report.coverage = Coverage.of(scenario, visits, moves)
    return list(reports.values()), missing


# ----------------------------------------------------------------- reporting


def _percent(ratio: float) -> str:
    return f"{ratio * 100:.0f}%"


def write_report(
    reports: list[ScenarioReport],
    missing: list[str],
    min_coverage: float,
    out: TextIO,
    *,
    list_passed: bool = False,
) -> int:
    """Print the results; the exit code is 1 when anything failed or coverage is too low.

    One summary line per scenario (cases passed and failed, coverage), each failure in full
    below it; passing cases get a line of their own only with ``list_passed``, so that a run
    of hundreds of cases reads at a glance.
    """
    passed = failed = 0
    low: list[str] = []
    for problem in missing:
        out.write(f"ERROR {problem}\n")
        failed += 1
    for report in reports:
        files = ", ".join(map(str, report.files))
        if report.problem is not None:
            out.write(f"{report.scenario} ({files})\n  ERROR {report.problem}\n")
            failed += 1
            continue
        passing = len(report.cases) - len(report.failed)
        summary = f"{report.scenario}: {passing} passed, {len(report.failed)} failed"
        coverage = report.coverage
        if coverage is not None:
            summary += (
                f"; coverage: nodes {len(coverage.visited_nodes)}/{len(coverage.nodes)} "
                f"({_percent(coverage.node_ratio)}), transitions "
                f"{len(coverage.taken)}/{len(coverage.edges)} "
                f"({_percent(coverage.transition_ratio)})"
            )
        out.write(f"{summary} ({files})\n")
        for case in report.cases:
            if case.failure is not None:
                out.write(f"  FAIL {case.name}\n")
                for line in case.failure.describe().splitlines():
                    out.write(f"       {line}\n")
            elif list_passed:
                out.write(f"  PASS {case.name}\n")
        passed += passing
        failed += len(report.failed)
        if coverage is None:
            continue
        if coverage.unvisited_nodes:
            out.write(f"  unvisited nodes: {', '.join(coverage.unvisited_nodes)}\n")
        if coverage.untaken_edges:
            edges = ", ".join(f"{source} -> {target}" for source, target in coverage.untaken_edges)
            out.write(f"  untaken transitions: {edges}\n")
        if report.below(min_coverage):
            low.append(report.scenario)
    if low:
        out.write(f"coverage below {_percent(min_coverage)}: {', '.join(low)}\n")
    if passed + failed == 0:
        out.write("no test cases found\n")
        return 1
    out.write(f"{passed} passed, {failed} failed\n")
    return 1 if failed or low else 0


def run_paths(
    paths: list[Path],
    *,
    llm: str | None = None,
    min_coverage: float = 0.0,
    out: TextIO = sys.stdout,
    list_passed: bool = False,
) -> int:
    """``dialogkit test``: run the cases under ``paths``, print a report, return the exit code."""
    reports, missing = asyncio.run(arun(paths, llm=llm))
    return write_report(reports, missing, min_coverage, out, list_passed=list_passed)
