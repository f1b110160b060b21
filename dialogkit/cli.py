"""The ``dialogkit`` command: serve, chat, validate, test, eval, schema, and the skill runtime."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from dialogkit.errors import (
    ConfigurationError,
    DialogkitError,
    ScenarioInvalid,
    ScenarioNotFound,
)
from dialogkit.scenario.model import ScenarioDocument
from dialogkit.scenario.problems import NEAR_MISS_KEY, Problem
from dialogkit.scenario.registry import REGISTRY_FILE, registered_names
from dialogkit.scenario.scenario import Scenario


def _serve(args: argparse.Namespace) -> int:
    from dialogkit.settings import Settings
    from dialogkit_server.app import serve

    settings = Settings()
    if args.backlog is not None:
        settings = settings.model_copy(update={"backlog": args.backlog})
    try:
        serve(
            args.host,
            args.port,
            settings,
            with_skill_runtime=args.with_skill_runtime,
            workers=args.workers,
        )
    except ConfigurationError as exc:
        print(f"dialogkit serve: {exc}", file=sys.stderr)
        return 2
    return 0


def _skills_serve(args: argparse.Namespace) -> int:
    from dialogkit.skills.runtime import serve

    serve(args.host, args.port)
    return 0


def _validate(args: argparse.Namespace) -> int:
    """One verdict line per scenario, then its problems; messages never repeat the file name,
    which starts the line. A target that names a file (a path or ``.json``) is read as one,
    so a missing file is reported as missing, not as an unregistered name. An unknown key one
    edit away from a known one counts as an error here: the engine runs the graph without
    that field, which is almost never what the author meant."""
    failed = 0
    for target in args.scenarios:
        other = _other_json(target)
        if other:
            # `dialogkit validate scenarios/*.json` also names these; they are not scenarios.
            print(f"{target}: skipped, {other}")
            continue
        try:
            scenario = (
                Scenario.from_file(target) if _names_a_file(target) else Scenario.load(target)
            )
        except ScenarioNotFound:
            print(f"{target}: {_not_found(target)}")
            failed += 1
            continue
        except ScenarioInvalid as exc:
            print(f"{target}: invalid, the graph cannot be parsed")
            for problem in map(_as_cli_finding, exc.problems):
                print(f"  {problem}")
            failed += 1
            continue
        except DialogkitError as exc:
            print(f"{target}: {str(exc).removeprefix(f'{target}: ')}")
            failed += 1
            continue
        problems = [_as_cli_finding(problem) for problem in scenario.validate()]
        errors = [p for p in problems if p.severity == "error"]
        warnings = len(problems) - len(errors)
        failed += bool(errors) or (args.strict and bool(warnings))
        verdict = "invalid" if errors else "valid"
        print(
            f"{target}: {verdict} ({_count(len(errors), 'error')}, {_count(warnings, 'warning')})"
        )
        for problem in problems:
            print(f"  {problem}")
    return 1 if failed else 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _as_cli_finding(problem: Problem) -> Problem:
    if problem.code == NEAR_MISS_KEY:
        return problem.model_copy(update={"severity": "error"})
    return problem


def _not_found(target: str) -> str:
    if _names_a_file(target):
        return "the file does not exist."
    return f"not a file, nor a registered scenario ({', '.join(registered_names())})."


def _other_json(target: str) -> str:
    """What a JSON file beside the scenarios is when it is not one: the registry or a schema."""
    path = Path(target)
    if path.suffix.lower() != ".json" or not path.is_file():
        return ""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return ""  # reading it as a scenario reports the problem
    if not isinstance(data, dict) or "metadata" in data or "graph" in data:
        return ""
    if "$schema" in data:
        return "a JSON Schema, not a scenario."
    if (
        path.name == REGISTRY_FILE
        and data
        and all(isinstance(file, str) and file.endswith(".json") for file in data.values())
    ):
        return "the scenario registry (names to files), not a scenario: validate the names."
    return ""


def _names_a_file(target: str) -> bool:
    path = Path(target)
    return path.exists() or path.suffix.lower() == ".json" or len(path.parts) > 1


def _test(args: argparse.Namespace) -> int:
    from dialogkit.testing.conversations import run_paths

    if not args.verbose:
        # Skill failures are expected in "down" cases; the report says what matters.
        logging.getLogger("dialogkit").setLevel(logging.ERROR)
    paths = [Path(p) for p in (args.paths or ["scenarios"])]
    return run_paths(paths, llm=args.llm, min_coverage=args.min_coverage, list_passed=args.verbose)


def schema_json() -> str:
    """The JSON Schema of scenario files, as committed in ``scenarios/scenario.schema.json``."""
    schema = ScenarioDocument.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "dialogkit scenario"
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def _schema(_args: argparse.Namespace) -> int:
    sys.stdout.write(schema_json())
    return 0


def _chat(args: argparse.Namespace) -> int:
    from dialogkit.terminal import chat

    return chat(args.scenario, llm=args.llm, server=args.server)


def _eval(args: argparse.Namespace) -> int:
    from dialogkit.evaluate.cli import run_eval

    return run_eval(args)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


class _DefaultsShown(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, unless it has none or its help already says it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default is None or isinstance(action.default, bool) or "default" in text:
            return text
        return super()._get_help_string(action)


def _eval_arguments(evaluation: argparse.ArgumentParser) -> None:
    from dialogkit.evaluate.clock import DEFAULT_TIMEZONE, FIXED_DATE_TIME
    from dialogkit.evaluate.users import MIX, PERSONA_HELP

    personas = "; ".join(f"{name}: {text}" for name, text in PERSONA_HELP.items())
    evaluation.add_argument("scenario", metavar="SCENARIO", help="a scenario file or name")
    evaluation.add_argument("--users", type=_positive_int, default=100, help="goals to sample")
    evaluation.add_argument(
        "--goals",
        metavar="FILE",
        default=None,
        help="goals to use instead of sampling: a JSON list or JSON Lines of goals "
        '({"slots": {...}, "say": {...}, "end_node": ...})',
    )
    evaluation.add_argument(
        "--persona",
        default=MIX,
        choices=[MIX, *PERSONA_HELP],
        metavar="PERSONA",
        help=f"how users talk; {MIX} gives each user one of the personas. {personas}",
    )
    evaluation.add_argument(
        "--end-node",
        default=None,
        help="the terminal node every goal must end at (default: any success end: nodes "
        'with "outcome": "success", else judged from the graph)',
    )
    evaluation.add_argument("--models", default="offline", help="comma-separated model choices")
    evaluation.add_argument(
        "--repeats", type=_positive_int, default=1, help="trials per goal (pass^k)"
    )
    evaluation.add_argument("--seed", default="0", help="seed of goals and users")
    evaluation.add_argument(
        "--date-time",
        default=FIXED_DATE_TIME,
        help="when goals are drawn and sessions take place (ISO 8601), or 'now'",
    )
    evaluation.add_argument(
        "--timezone", default=DEFAULT_TIMEZONE, help="the simulated users' time zone"
    )
    evaluation.add_argument(
        "--concurrency", type=_positive_int, default=16, help="conversations at a time"
    )
    evaluation.add_argument(
        "--max-turns",
        type=_positive_int,
        default=None,
        help="user utterances per conversation (default: 30, or twice the goal's slots plus "
        "10 when that is more)",
    )
    evaluation.add_argument("--server", default=None, help="URL of a deployed service")
    evaluation.add_argument(
        "--skill-runtime",
        choices=["embedded"],
        default=None,
        help="run the reference skill runtime in-process; without it and without "
        "SKILL_RUNTIME_BASE_URL, a scenario that calls skills starts it anyway (and says so)",
    )
    evaluation.add_argument(
        "--transcripts",
        type=int,
        default=3,
        help="failure kinds to show one failing transcript of (0: none)",
    )
    evaluation.add_argument(
        "--out", default=None, help="folder to save the tables, meta and report in"
    )
    evaluation.add_argument(
        "--min-success", type=float, default=None, help="exit 1 if any model is below this"
    )
    evaluation.add_argument("--no-progress", action="store_true", help="no progress bar")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dialogkit",
        description="Graph-driven dialogue: serve scenarios over HTTP, chat with them in the "
        "terminal, validate and test them, and evaluate them with simulated users.",
        epilog="Run 'dialogkit COMMAND --help' for a command's options. Start with "
        "'dialogkit chat docs/examples/coffee.json' or 'dialogkit serve --with-skill-runtime' "
        "(what 'make run' does). Guides: docs/getting-started.md.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser(
        "serve",
        help="serve the HTTP API",
        description="Serve the HTTP API (docs/http-api.md); once it listens it prints where "
        "the API docs are. Settings come from the environment (DIALOGKIT_*, CORE_DEFAULT_LLM, "
        "CORE_NLU_LLM, SKILL_RUNTIME_BASE_URL; see docs/deployment.md).",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--with-skill-runtime",
        action="store_true",
        help="also start the reference skill runtime in-process (unless SKILL_RUNTIME_BASE_URL)",
    )
    serve.add_argument(
        "--workers",
        type=_positive_int,
        default=1,
        help="worker processes (default: %(default)s); more than one needs DIALOGKIT_REDIS_URL",
    )
    serve.add_argument(
        "--backlog",
        type=_positive_int,
        default=None,
        help="listen backlog: connections the kernel queues before accepting "
        "(default: DIALOGKIT_BACKLOG, else 1024)",
    )
    serve.set_defaults(handler=_serve, sanic_logging=True)

    skills = commands.add_parser(
        "skills",
        help="the reference skill runtime",
        description="The reference skill runtime: the HTTP service that runs the skills "
        "scenario nodes call (POST /v1/skills/execute; see docs/skills.md).",
    )
    skills_commands = skills.add_subparsers(dest="skills_command", required=True)
    skills_serve = skills_commands.add_parser(
        "serve",
        help="serve the reference skill runtime",
        description="Serve the reference skill runtime alone; point the service at it with "
        "SKILL_RUNTIME_BASE_URL (docs/skills.md).",
    )
    skills_serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    skills_serve.add_argument(
        "--port", type=int, default=8100, help="port to listen on (default: %(default)s)"
    )
    skills_serve.set_defaults(handler=_skills_serve, sanic_logging=True)

    validate = commands.add_parser(
        "validate",
        help="validate scenario files or names",
        description="Check scenarios without running them: one verdict line per scenario, "
        "then every problem with its JSON path and a hint. Exits 1 if any has an error.",
    )
    validate.add_argument(
        "scenarios",
        nargs="+",
        metavar="SCENARIO",
        help="a scenario JSON file or a registered name (e.g. card_issuance)",
    )
    validate.add_argument(
        "--strict", action="store_true", help="exit non-zero on warnings too (typos, hints)"
    )
    validate.set_defaults(handler=_validate)

    test = commands.add_parser(
        "test",
        help="run conversation tests with coverage",
        description="Replay scripted conversation tests (format: scenarios/tests/README.md) "
        "and report failures and node/transition coverage per scenario. Exits 1 if a case "
        "fails or a scenario's coverage is below --min-coverage.",
    )
    test.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="test files, or folders of them (a folder's tests/ subfolder is searched first); "
        "default: scenarios",
    )
    test.add_argument("--llm", default=None, help="run with this model instead of offline")
    test.add_argument(
        "--min-coverage",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="fail when a scenario's coverage is below this fraction, e.g. 0.9 (default: 0)",
    )
    test.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list passing cases too, and show engine warnings",
    )
    test.set_defaults(handler=_test)

    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of scenario files",
        description="Print the JSON Schema of scenario files to stdout (committed as "
        "scenarios/scenario.schema.json; editors use it to complete and check scenarios).",
    )
    schema.set_defaults(handler=_schema)

    chat = commands.add_parser(
        "chat",
        help="chat with a scenario in the terminal",
        description="Chat with a scenario in the terminal until it completes (its final data "
        "is printed), /quit, or end of input. In-process by default, starting the reference "
        "skill runtime when the scenario calls skills and SKILL_RUNTIME_BASE_URL is unset.",
        epilog="Commands while chatting: /info shows the session state, /conf VALUE TEXT "
        "sends TEXT with an STT confidence, /quit leaves. Models: CORE_NLU_LLM and "
        "CORE_DEFAULT_LLM (see docs/llm.md); unset, the offline rule NLU and template NLG run.",
    )
    chat.add_argument(
        "scenario",
        help="a registered scenario name (e.g. card_issuance) or a scenario JSON file",
    )
    chat.add_argument(
        "--llm",
        default=None,
        metavar="MODEL",
        help="model for both understanding and replies, for this session (default: "
        "CORE_NLU_LLM / CORE_DEFAULT_LLM, else offline; 'offline' forces the offline ones)",
    )
    chat.add_argument(
        "--server",
        default=None,
        metavar="URL",
        help="base URL of a deployed service to chat through, e.g. http://127.0.0.1:8000 "
        "(with its path prefix, if any); default: run the session in this process",
    )
    chat.set_defaults(handler=_chat)

    evaluation = commands.add_parser(
        "eval",
        help="simulate users and measure a scenario across model choices",
        description="Simulate users with goals the scenario allows and measure how many reach "
        "a success end, per model choice and persona; failures are named by kind and the most "
        "common ones are shown as transcripts. See docs/evaluate.md.",
        formatter_class=_DefaultsShown,
    )
    _eval_arguments(evaluation)
    evaluation.set_defaults(handler=_eval)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not getattr(args, "sanic_logging", False):
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    handler = args.handler
    code: int = handler(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
