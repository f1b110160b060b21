"""The batch runner: many simulated users, several model choices, repeated trials.

Every (task, repeat, model) triple is one conversation with a fresh session. A task is a
goal and a persona; the user of trial ``r`` of task ``i`` is seeded from ``(seed, i, r)``, so
every model choice meets exactly the same users, and the same seed gives the same results
whatever the concurrency. Conversations run on the async engine (or against a deployed
service through ``AsyncClient``), at most ``concurrency`` at a time.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dialogkit.client import AsyncClient, StartOptions
from dialogkit.engine.engine import Engine
from dialogkit.engine.session import Reply
from dialogkit.engine.state import TurnRecord
from dialogkit.engine.sync import Portal
from dialogkit.errors import DialogkitError
from dialogkit.evaluate.clock import DEFAULT_TIMEZONE, FIXED_DATE_TIME, Clock
from dialogkit.evaluate.failures import NONSENSE, alternates
from dialogkit.evaluate.goal import Goal, Trail, asked_slots
from dialogkit.evaluate.results import Results
from dialogkit.evaluate.rule_user import RuleUser
from dialogkit.evaluate.skill_watch import SkillWatch
from dialogkit.evaluate.users import MIX, PERSONAS, Persona, SimulatedUser, Situation
from dialogkit.nlu._builtin import STT_LOW_CONFIDENCE
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.wire import DEFAULT_STT_THRESHOLD, ChatbotSessionInfoResponse

DEFAULT_MAX_TURNS = 30
TURN_COLUMNS = (
    "turn",
    "user_text",
    "confidence",
    "intent",
    "entities",
    "fallback",
    "node_before",
    "node_after",
    "reply",
    "latency_ms",
    "error",
    "tier",
)
"""The columns of the engine's turn row that an evaluation's turn table keeps."""


def turn_budget(goal: Goal, max_turns: int | None) -> int:
    """User utterances a conversation may take: ``max_turns``, or by default 30, raised to
    twice the goal's slots plus 10 for long goals (a 21-item checklist), so that a user who
    loses some turns to noise is not cut off by the budget rather than by the bot."""
    if max_turns is not None:
        return max_turns
    return max(DEFAULT_MAX_TURNS, 2 * len(goal.slots) + 10)


@dataclass(frozen=True)
class Task:
    """What one simulated user wants and how it talks; repeated ``repeats`` times."""

    goal: Goal
    persona: Persona = "cooperative"


UserFactory = Callable[[Task, str], SimulatedUser]
"""Builds the user of one trial from its task and seed (``RuleUser`` by default)."""


def rule_user(task: Task, seed: str) -> SimulatedUser:
    return RuleUser(task.goal, task.persona, seed)


def make_tasks(
    scenario: Scenario,
    users: int | Sequence[Goal] | Sequence[Task],
    persona: Persona | str,
    seed: int | str,
    clock: Clock | None = None,
) -> list[Task]:
    """Tasks from a number of users to sample, goals, or tasks; ``mix`` draws personas.

    Sampled goals are drawn in ``clock`` (the one the sessions will run in)."""
    if persona != MIX and persona not in PERSONAS:
        raise ValueError(f"Unknown persona {persona!r}; use one of {', '.join(PERSONAS)} or mix.")
    if isinstance(users, int):
        goals: Sequence[Goal | Task] = Goal.sample_many(scenario, users, seed, clock)
    else:
        goals = users
    rng = random.Random(f"personas:{seed}")
    tasks: list[Task] = []
    for item in goals:
        if isinstance(item, Task):
            tasks.append(item)
            continue
        chosen = rng.choice(PERSONAS) if persona == MIX else persona
        tasks.append(Task(item, chosen))  # type: ignore[arg-type]
    return tasks


class _Conversation(Protocol):
    initial_reply: Reply

    async def asend(self, text: str, confidence: float = 0.0) -> Reply: ...

    async def ainfo(self) -> ChatbotSessionInfoResponse: ...


class _Target(Protocol):
    async def start(self, scenario: Scenario, options: dict[str, Any]) -> _Conversation: ...

    async def moves(self, session: _Conversation, seen: list[str]) -> list[tuple[str, str]]: ...

    def skill_failures(self, session: _Conversation) -> tuple[list[str], list[str]]: ...


class _Local:
    def __init__(self, engine: Engine, watch: SkillWatch | None = None) -> None:
        self.engine = engine
        self.watch = watch

    async def start(self, scenario: Scenario, options: dict[str, Any]) -> _Conversation:
        return await self.engine.astart(scenario, **options)

    async def moves(self, session: _Conversation, seen: list[str]) -> list[tuple[str, str]]:
        """Every move the session made, nodes passed through within a turn included."""
        records = await self.engine.arecords(session.initial_reply.session_id, "visits")
        return records.transitions

    def skill_failures(self, session: _Conversation) -> tuple[list[str], list[str]]:
        if self.watch is None:
            return [], []
        return self.watch.failures(session.initial_reply.session_id)


class _Remote:
    def __init__(self, client: AsyncClient, name: str | None) -> None:
        self.client = client
        self.name = name

    async def start(self, scenario: Scenario, options: dict[str, Any]) -> _Conversation:
        return await self.client.start(self.name or scenario, **options)

    async def moves(self, session: _Conversation, seen: list[str]) -> list[tuple[str, str]]:
        """A service keeps its trace: the moves are the node changes the replies show."""
        return [(a, b) for a, b in itertools.pairwise(seen) if a != b]

    def skill_failures(self, session: _Conversation) -> tuple[list[str], list[str]]:
        """A service does not show its skill calls: none are known."""
        return [], []


@dataclass(frozen=True)
class _Trial:
    task_index: int
    task: Task
    repeat: int
    model: str

    @property
    def conversation_id(self) -> str:
        return f"{self.model}/{self.task_index}/{self.repeat}"


async def _converse(
    target: _Target,
    scenario: Scenario,
    trial: _Trial,
    user: SimulatedUser,
    *,
    max_turns: int,
    options: dict[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One conversation: its row and its turn rows."""
    threshold = float(options.get("stt_confidence_threshold", DEFAULT_STT_THRESHOLD))
    base: dict[str, Any] = {
        "conversation_id": trial.conversation_id,
        "model": trial.model,
        "task": trial.task_index,
        "repeat": trial.repeat,
        "persona": trial.task.persona,
    }
    turns: list[dict[str, Any]] = []
    models = {"llm_choice": trial.model, "nlu_llm_choice": trial.model}
    session = await target.start(scenario, {**options, **models})
    reply = session.initial_reply
    seen = [reply.current_node]
    history = [("assistant", reply.response)] if reply.response else []
    left = False
    looped: tuple[str, str] | None = None
    info = await session.ainfo()
    while not reply.session_complete and len(turns) < max_turns:
        said = await user.respond(Situation(scenario, reply, info.slots, len(turns), history))
        if said is None:
            left = True
            break
        before = reply
        started = time.perf_counter()
        reply = await session.asend(said.text, said.confidence)
        elapsed_ms = (time.perf_counter() - started) * 1000
        trace = reply.trace
        if trace is not None:
            fallback, intent = trace.fallback, trace.intent
        else:
            counted = reply.turn_count > before.turn_count or reply.session_complete
            fallback, intent = (None if counted else "fallback"), None
        history += [("user", said.text), ("assistant", reply.response)]
        seen.append(reply.current_node)
        info = await session.ainfo()
        row = TurnRecord(
            turn=len(turns) + 1,
            user_text=said.text,
            confidence=said.confidence,
            intent=intent,
            entities=dict(trace.entities) if trace is not None else {},
            fallback=fallback,
            node_before=before.current_node,
            node_after=reply.current_node,
            reply=reply.response,
            latency_ms=round(elapsed_ms, 3),
            error=reply.error,
            tier=trace.tier if trace is not None else None,
        )
        stt_gate = intent == STT_LOW_CONFIDENCE or (trace is None and said.confidence <= threshold)
        slots = {k: v for k, v in info.slots.items() if v not in (None, "")}
        turns.append({**base, **row.as_dict(TURN_COLUMNS), "slots": slots, "stt_gate": stt_gate})
        looped = alternates([turn["node_after"] for turn in turns])
        if looped is not None:
            break
    moves = await target.moves(session, seen)
    path = _visited(seen, moves)
    rejections, failed_skills = target.skill_failures(session)
    heard = [(turn["node_before"], turn["slots"]) for turn in turns]
    trail = Trail(reply, info, path, left, looped, rejections, failed_skills, heard)
    verdict = trial.task.goal.judge(scenario, trail)
    usage = info.context.get("llm_usage") or {}
    by_purpose = usage.get("by_purpose", {}) if isinstance(usage, dict) else {}
    latencies = sorted(row["latency_ms"] for row in turns)
    conversation = {
        **base,
        "session_id": reply.session_id or session.initial_reply.session_id,
        "goal_end": trial.task.goal.end_node,
        "success": verdict.success,
        "kind": verdict.kind,
        "failure": verdict.failure,
        "nonsense": verdict.kind in NONSENSE,
        "complete": info.session_complete,
        "end_node": info.current_node,
        "end_reason": reply.final_data.end_reason if reply.final_data else None,
        "left": left,
        "turn_count": info.turn_count,
        "user_turns": len(turns),
        "fallbacks": sum(row["fallback"] is not None for row in turns),
        "stt_gates": sum(bool(row["stt_gate"]) for row in turns),
        "llm_calls": sum(int(u.get("calls", 0)) for u in by_purpose.values()),
        "tokens": sum(
            int(u.get("prompt_tokens", 0)) + int(u.get("completion_tokens", 0))
            for u in by_purpose.values()
        ),
        "latency_ms": round(sum(latencies), 3),
        "path": path,
        "transitions": [list(move) for move in moves],
        "slots": dict(info.slots),
        "goal": dict(trial.task.goal.slots),
        "error": None,
    }
    return conversation, turns


def _visited(seen: list[str], moves: list[tuple[str, str]]) -> list[str]:
    """Nodes in order: from the moves when known (pass-through nodes too), else as seen."""
    if not moves:
        return [node for i, node in enumerate(seen) if i == 0 or seen[i - 1] != node]
    path = [moves[0][0]]
    for _source, target in moves:
        path.append(target)
    return path


def _failed(trial: _Trial, exc: Exception) -> dict[str, Any]:
    """The row of a conversation that could not run (the service down, a bad option)."""
    return {
        "conversation_id": trial.conversation_id,
        "model": trial.model,
        "task": trial.task_index,
        "repeat": trial.repeat,
        "persona": trial.task.persona,
        "goal_end": trial.task.goal.end_node,
        "success": False,
        "kind": "error",
        "failure": f"error: {type(exc).__name__}: {exc}",
        "nonsense": False,
        "complete": False,
        "left": False,
        "turn_count": 0,
        "user_turns": 0,
        "fallbacks": 0,
        "stt_gates": 0,
        "llm_calls": 0,
        "tokens": 0,
        "latency_ms": 0.0,
        "path": [],
        "transitions": [],
        "slots": {},
        "goal": dict(trial.task.goal.slots),
        "error": f"{type(exc).__name__}: {exc}",
    }


async def aevaluate(
    scenario: Scenario | str,
    users: int | Sequence[Goal] | Sequence[Task] = 100,
    *,
    persona: Persona | str = MIX,
    models: Sequence[str] = ("offline",),
    repeats: int = 1,
    concurrency: int = 16,
    seed: int | str = 0,
    progress: bool = True,
    max_turns: int | None = None,
    engine: Engine | None = None,
    engine_options: dict[str, Any] | None = None,
    server: str | AsyncClient | None = None,
    user: UserFactory = rule_user,
    start_options: StartOptions | None = None,
    date_time: str | None = FIXED_DATE_TIME,
    timezone: str = DEFAULT_TIMEZONE,
    end_node: str | None = None,
) -> Results:
    """Run ``len(tasks) x repeats x len(models)`` simulated conversations; see ``evaluate``."""
    if repeats < 1 or concurrency < 1 or (max_turns is not None and max_turns < 1):
        raise ValueError("repeats, concurrency and max_turns must be at least 1.")
    if not models:
        raise ValueError("Give at least one model choice (offline is one).")
    if engine is not None and server is not None:
        raise ValueError("Give an engine or a server, not both.")
    loaded = scenario if isinstance(scenario, Scenario) else Scenario.load(scenario)
    if end_node is not None and not loaded.has_node(end_node):
        ends = [node.id for node in loaded.nodes if node.terminal]
        raise ValueError(f"--end-node {end_node!r} is not a node; terminal nodes: {ends}.")
    options: dict[str, Any] = dict(start_options or {})
    person = options.get("user") or {}
    person = person if isinstance(person, dict) else person.model_dump(exclude_unset=True)
    clock = Clock.of(person, Clock(date_time, timezone) if date_time else Clock.now(timezone))
    options["user"] = {**clock.user(), **person}
    tasks = make_tasks(loaded, users, persona, seed, clock)
    notices = [] if not isinstance(users, int) else unvalued_notices(loaded, tasks)
    if end_node is not None:
        tasks = [Task(t.goal.model_copy(update={"end_node": end_node}), t.persona) for t in tasks]
    trials = [
        _Trial(index, task, repeat, model)
        for model in models
        for index, task in enumerate(tasks)
        for repeat in range(repeats)
    ]
    # Built before any conversation starts: a user that cannot exist (a model nobody
    # serves) is a mistake in the call, reported at once.
    agents = [user(trial.task, f"{seed}/{trial.task_index}/{trial.repeat}") for trial in trials]
    own_engine = own_client = None
    target: _Target
    if server is not None:
        client = AsyncClient(server) if isinstance(server, str) else server
        own_client = client if isinstance(server, str) else None
        target = _Remote(client, scenario if isinstance(scenario, str) else None)
    else:
        if engine is None:
            engine = own_engine = Engine(**_engine_options(loaded, engine_options, notices))
        target = _Local(engine, SkillWatch(engine.skills))
    gate = asyncio.Semaphore(concurrency)
    bar = _progress_bar(len(trials), loaded.slug) if progress else None

    async def run(
        trial: _Trial, agent: SimulatedUser
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with gate:
            try:
                outcome = await _converse(
                    target,
                    loaded,
                    trial,
                    agent,
                    max_turns=turn_budget(trial.task.goal, max_turns),
                    options=options,
                )
            except Exception as exc:
                outcome = _failed(trial, exc), []
            if bar is not None:
                bar.update(1)
            return outcome

    watched = target.watch if isinstance(target, _Local) else None
    if engine is not None and watched is not None:
        engine.skills = watched
    try:
        outcomes = await asyncio.gather(*map(run, trials, agents))
    finally:
        if engine is not None and watched is not None:
            engine.skills = watched.inner
        if bar is not None:
            bar.close()
        if own_engine is not None:
            await own_engine.aclose()
        if own_client is not None:
            await own_client.aclose()
    meta = {
        "scenario": loaded.slug,
        "models": list(models),
        "tasks": len(tasks),
        "repeats": repeats,
        "seed": seed,
        "persona": persona,
        "max_turns": max_turns,
        "target": "service" if server is not None else "engine",
        "date_time": clock.date_time,
        "timezone": clock.timezone,
        "end_node": end_node,
        "notices": notices,
    }
    return Results(
        [conversation for conversation, _ in outcomes],
        [row for _, rows in outcomes for row in rows],
        meta,
    )


def unvalued_notices(scenario: Scenario, tasks: list[Task]) -> list[str]:
    """One line per asked slot no sampled goal holds: no value could be made for it, so
    the branch behind it goes untested unless the author gives ``eval_values``."""
    held = {name for task in tasks for name in task.goal.slots}
    return [
        f"goals: no value could be made for slot {name!r} (no examples or eval_values, and "
        "its type or pattern gives none); goals leave it out: give it eval_values"
        for name in asked_slots(scenario)
        if name not in held and tasks
    ]


def _engine_options(
    scenario: Scenario, given: dict[str, Any] | None, notices: list[str]
) -> dict[str, Any]:
    """The evaluation engine's options: the embedded skill runtime when the scenario calls
    skills and nothing else would answer them (no runtime, runner or URL configured)."""
    options = dict(given or {})
    skills = sorted({node.params.skill for node in scenario.nodes if node.params.skill})
    settings = options.get("settings") or Settings()
    configured = settings.skill_runtime_base_url or options.get("skills") is not None
    if skills and not configured and options.get("skill_runtime") is None:
        try:
            import dialogkit.skills.runtime  # noqa: F401
        except ImportError as exc:
            raise DialogkitError(
                f"The scenario calls skills ({', '.join(skills)}) and no skill runtime is "
                "configured: set SKILL_RUNTIME_BASE_URL, or install the server extra "
                "(pip install 'dialogkit[server]') for --skill-runtime embedded."
            ) from exc
        options["skill_runtime"] = "embedded"
        notices.append(
            f"skill runtime: started the embedded reference runtime for {', '.join(skills)} "
            "(none configured; set SKILL_RUNTIME_BASE_URL to use yours)"
        )
    return options


def evaluate(
    scenario: Scenario | str, users: int | Sequence[Goal] | Sequence[Task] = 100, **options: Any
) -> Results:
    """Simulate conversations and measure them, from sync code or a notebook cell.

    ``users`` is a number of goals to sample (``Goal.sample``), or goals, or tasks (goal and
    persona). Each task runs ``repeats`` times with each of ``models`` (model choices as
    sessions take them; ``offline`` is the rule NLU and template NLG), at most
    ``concurrency`` conversations at a time and at most ``max_turns`` user utterances each
    (default ``turn_budget``: 30, more for goals with many slots).
    By default an offline ``Engine(**engine_options)`` runs them; pass ``engine`` (for
    instance one with a recording or replaying model cassette) or ``server`` (a URL or an
    ``AsyncClient``) for a deployed service. ``user`` builds the simulated user of each
    trial (``RuleUser`` by default; see ``LLMUser.factory``). Goals are drawn and sessions
    take place at ``date_time`` in ``timezone`` (a fixed moment by default, so reruns and
    recorded model calls match; ``None`` for the real clock, read once) unless
    ``start_options["user"]`` gives its own. ``end_node`` makes every goal end at that
    node (default: any success end the scenario declares or the graph implies). A
    scenario that calls skills with no runtime configured gets the embedded one
    (``meta["notices"]`` says so). Keyword options are those of ``aevaluate``.
    """
    engine = options.get("engine")
    portal = engine.portal if isinstance(engine, Engine) else Portal()
    try:
        return portal.run(aevaluate(scenario, users, **options))
    finally:
        if portal is not getattr(engine, "portal", None):
            portal.close()


def _progress_bar(total: int, label: str) -> Any:
    """A tqdm bar (the notebook flavour inside Jupyter), or None without tqdm."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=f"evaluate {label}", unit="conv")
