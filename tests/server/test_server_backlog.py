"""``dialogkit serve --backlog N``: the listen queue reaches Sanic, from the flag or the setting."""

from __future__ import annotations

from typing import Any

import pytest
from sanic import Sanic

from dialogkit.cli import build_parser
from dialogkit.settings import Settings
from dialogkit_server import app as app_module


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake_run(self: Sanic, **options: Any) -> None:  # type: ignore[type-arg]
        calls.append(options)

    monkeypatch.setattr(Sanic, "run", fake_run)
    return calls


def test_the_default_backlog_is_1024(runs: list[dict[str, Any]]) -> None:
    app_module.serve("127.0.0.1", 0, Settings())
    assert runs[-1]["backlog"] == 1024


def test_the_setting_and_the_argument_set_the_backlog(runs: list[dict[str, Any]]) -> None:
    app_module.serve("127.0.0.1", 0, Settings(DIALOGKIT_BACKLOG=300))
    assert runs[-1]["backlog"] == 300
    app_module.serve("127.0.0.1", 0, Settings(DIALOGKIT_BACKLOG=300), backlog=77)
    assert runs[-1]["backlog"] == 77


def test_the_flag_is_parsed_and_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert build_parser().parse_args(["serve", "--backlog", "2048"]).backlog == 2048
    assert build_parser().parse_args(["serve"]).backlog is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--backlog", "0"])
    assert "--backlog" in capsys.readouterr().err
