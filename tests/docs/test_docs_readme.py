"""The README's in-process example runs and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from tests.helpers import ROOT


def test_readme_leads_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.DOTALL)
    assert first_block is not None
    assert first_block.group(1).split()[:2] == ["make", "run"]
    assert "make test" in first_block.group(1)


def test_readme_python_example(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", readme, re.DOTALL)
    assert code is not None
    monkeypatch.chdir(ROOT)
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code.group(1), "README.md", "exec"), {})
    expected = [
        line.split("# ", 1)[1].strip()
        for line in code.group(1).splitlines()
        if line.startswith("print(") and "# " in line
    ]
    printed = output.getvalue().splitlines()
    for shown, actual in zip(expected, printed, strict=True):
        assert actual.startswith(shown.rstrip(". ")), (shown, actual)
