"""``dialogkit validate scenarios/*.json``: the registry and the schema beside the scenarios are
named as what they are and skipped, while every scenario is still checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dialogkit.cli import main
from tests.helpers import ROOT


def test_the_registry_and_the_schema_are_skipped_not_failed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    targets = sorted(str(path) for path in (ROOT / "scenarios").glob("*.json"))
    assert main(["validate", *targets]) == 0
    verdicts = [line for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    assert len(verdicts) == len(targets)
    skipped = [line for line in verdicts if ": skipped, " in line]
    assert len(skipped) == 2
    assert any("registry.json: skipped, the scenario registry" in line for line in skipped)
    assert any("scenario.schema.json: skipped, a JSON Schema" in line for line in skipped)
    assert sum(": valid (" in line for line in verdicts) == len(targets) - 2


def test_a_json_file_that_only_looks_unrelated_is_still_validated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stray = tmp_path / "registry.json"
    stray.write_text(json.dumps({"slots": {}}), encoding="utf-8")
    assert main(["validate", str(stray)]) == 1
    assert ": invalid (" in capsys.readouterr().out
