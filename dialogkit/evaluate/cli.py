"""``dialogkit eval``: run an evaluation from the command line and gate CI on its success."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TextIO

from dialogkit.errors import DialogkitError
from dialogkit.evaluate.results import Results
from dialogkit.evaluate.runner import evaluate
from dialogkit.scenario.scenario import Scenario


def run_eval(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Evaluate, print the summary table, save; exit 1 when a model is below ``--min-success``."""
    # Simulated users reach failing skills and bad input on purpose; the table says enough.
    quiet = logging.getLogger("dialogkit")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        results = _evaluate(args)
    except (DialogkitError, ValueError) as exc:
        out.write(f"error: {exc}\n")
        return 2
    finally:
        quiet.setLevel(level)
    write_summary(results, out)
    if args.out:
        out.write(f"saved to {results.save(args.out)}\n")
    return gate(results, args.min_success, out)


def _evaluate(args: argparse.Namespace) -> Results:
    models = [name.strip() for name in args.models.split(",") if name.strip()]
    target = args.scenario
    local = Path(target).exists()
    scenario = Scenario.from_file(target) if local else Scenario.load(target)
    return evaluate(
        target if args.server and not local else scenario,
        args.users,
        persona=args.persona,
        models=models,
        repeats=args.repeats,
        seed=args.seed,
        concurrency=args.concurrency,
        max_turns=args.max_turns,
        progress=not args.no_progress,
        server=args.server,
        engine_options={"skill_runtime": args.skill_runtime} if args.skill_runtime else None,
    )


def write_summary(results: Results, out: TextIO) -> None:
    table = results.summary()
    out.write(table.to_string(float_format=lambda value: f"{value:.3f}") + "\n")
    failures = results.conversations["failure"].dropna()
    if len(failures):
        out.write("most common failures:\n")
        for reason, count in failures.value_counts().head(5).items():
            out.write(f"  {count:6d}  {reason}\n")


def gate(results: Results, min_success: float | None, out: TextIO) -> int:
    if min_success is None:
        return 0
    low = {m: s for m, s in results.summary()["success"].items() if s < min_success}
    for model, success in low.items():
        out.write(f"FAIL {model}: success {success:.3f} < {min_success:.3f}\n")
    return 1 if low else 0
