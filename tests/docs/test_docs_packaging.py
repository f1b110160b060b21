"""Set-up is quiet and the package metadata follows current packaging standards."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers import ROOT


def test_metadata_builds_without_any_warning(tmp_path: Path) -> None:
    """The build backend runs with warnings as errors: a deprecated field fails here first."""
    script = (
        "import sys, setuptools.build_meta as b; "
        "print(b.prepare_metadata_for_build_wheel(sys.argv[1]))"
    )
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", script, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr, result.stderr
    metadata = (tmp_path / result.stdout.strip().splitlines()[-1] / "METADATA").read_text()
    assert "License-Expression: MIT" in metadata
    assert "License-File: LICENSE" in metadata


def test_license_is_an_spdx_string_and_the_backend_supports_it() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "MIT"
    assert "setuptools>=77" in pyproject["build-system"]["requires"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def setup_recipes() -> dict[str, list[str]]:
    """The recipe lines of the Makefile's set-up targets, by target."""
    recipes: dict[str, list[str]] = {}
    target = ""
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if match := re.match(r"^([^\s:#][^:]*):", line):
            target = match.group(1)
        elif line.startswith("\t") and target in {"$(BIN)/python", "$(STAMP)", "redis"}:
            recipes.setdefault(target, []).append(line)
    return recipes


def test_set_up_prints_one_line_per_step_and_no_pip_noise() -> None:
    recipes = setup_recipes()
    assert set(recipes) == {"$(BIN)/python", "$(STAMP)", "redis"}
    steps = []
    for lines in recipes.values():
        # Every command is silenced (@): make echoes nothing but the step lines.
        assert all(line.startswith("\t@") for line in lines if not line.startswith("\t  ")), lines
        steps += re.findall(r'echo "([^"$]+)', "\n".join(lines))
    assert steps[:3] == [
        "creating the environment in ",
        "installing dialogkit and its dependencies",
        "installing redis-server",
    ]
    pip_calls = [line for lines in recipes.values() for line in lines if "pip install" in line]
    assert pip_calls and all("-qq" in line for line in pip_calls)
