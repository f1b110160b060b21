"""``dialogkit --help`` and every subcommand's ``--help`` say what each argument is for."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import pytest

from dialogkit.cli import build_parser


def _commands(parser: argparse.ArgumentParser, prefix: str) -> Iterator[tuple[str, Any]]:
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, f"{prefix} {name}")


COMMANDS = dict(_commands(build_parser(), "dialogkit"))


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_argument_and_command_is_described(command: str) -> None:
    parser = COMMANDS[command]
    undescribed = [
        action.dest
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction) and not action.help
    ]
    assert not undescribed, f"{command}: arguments without help: {undescribed}"
    if command != "dialogkit":
        assert parser.description, f"{command} --help has no description"


def test_the_top_level_help_names_every_command_and_where_to_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for command in ("serve", "chat", "validate", "test", "eval", "schema", "skills"):
        assert f"    {command} " in out
    assert "``" not in out
    assert "dialogkit chat docs/examples/coffee.json" in " ".join(out.split())
