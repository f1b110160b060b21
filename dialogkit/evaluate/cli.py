"""``dialogkit eval``: run an evaluation from the command line and gate CI on its success.

It prints one line per notice (the skill runtime it started), the summary, success per
persona, the failure kinds, warnings and one failing transcript per top failure kind;
``--out`` saves the tables, the run's parameters and that report for a notebook.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from dialogkit.errors import DialogkitError
from dialogkit.evaluate.goal import Goal
from dialogkit.evaluate.results import Results
from dialogkit.evaluate.runner import evaluate
from dialogkit.scenario.scenario import Scenario

REPORT_FILE = "report.txt"


def run_eval(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Evaluate, print the report, save; exit 1 when a model is below ``--min-success``."""
    out = out or sys.stdout
    # Simulated users reach failing skills and bad input on purpose; the report says enough.
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
    for notice in results.meta.get("notices", []):
        out.write(f"{notice}\n")
    text = results.report(transcripts=args.transcripts)
    out.write(text)
    if args.out:
        folder = results.save(args.out)
        (folder / REPORT_FILE).write_text(text, encoding="utf-8")
        out.write(f"saved to {folder}\n")
    return gate(results, args.min_success, out)


def _evaluate(args: argparse.Namespace) -> Results:
    models = [name.strip() for name in args.models.split(",") if name.strip()]
    target = args.scenario
    local = Path(target).exists()
    scenario = Scenario.from_file(target) if local else Scenario.load(target)
    users: int | list[Goal] = read_goals(args.goals) if args.goals else args.users
    return evaluate(
        target if args.server and not local else scenario,
        users,
        persona=args.persona,
        models=models,
        repeats=args.repeats,
        seed=args.seed,
        concurrency=args.concurrency,
        max_turns=args.max_turns,
        progress=not args.no_progress,
        server=args.server,
        engine_options={"skill_runtime": args.skill_runtime} if args.skill_runtime else None,
        date_time=None if args.date_time == "now" else args.date_time,
        timezone=args.timezone,
        end_node=args.end_node,
    )


def read_goals(path: str) -> list[Goal]:
    """Goals from a JSON list or JSON Lines file; errors name the file and the goal."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise DialogkitError(f"--goals {path}: cannot read it ({exc.strerror}).") from exc
    try:
        stripped = text.lstrip()
        items: list[Any] = (
            json.loads(text)
            if stripped.startswith("[")
            else [json.loads(line) for line in text.splitlines() if line.strip()]
        )
    except json.JSONDecodeError as exc:
        raise DialogkitError(
            f"--goals {path}: not JSON (line {exc.lineno}: {exc.msg}); give a list of "
            "goals or one goal per line."
        ) from exc
    goals = []
    for index, item in enumerate(items):
        try:
            goals.append(Goal.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise DialogkitError(f"--goals {path}: goal [{index}].{where}: {first['msg']}") from exc
    if not goals:
        raise DialogkitError(f"--goals {path}: the file holds no goals.")
    return goals


def gate(results: Results, min_success: float | None, out: TextIO) -> int:
    if min_success is None:
        return 0
    low = {m: s for m, s in results.summary()["success"].items() if s < min_success}
    for model, success in low.items():
        out.write(f"FAIL {model}: success {success:.3f} < {min_success:.3f}\n")
    return 1 if low else 0
