"""The README's in-process example runs and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator

import pytest

from dialogkit import Engine
from tests.helpers import ROOT


def test_readme_leads_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.DOTALL)
    assert first_block is not None
    assert first_block.group(1).split()[:2] == ["make", "run"]
    assert "make test" in first_block.group(1)


def python_blocks() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", readme, re.DOTALL)


def run_as_written(code: str, name: str) -> None:
    """Run one block and check each commented ``print`` against what it printed."""
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, name, "exec"), {})
    expected = [
        line.split("# ", 1)[1].strip()
        for line in code.splitlines()
        if line.strip().startswith("print(") and "# " in line
    ]
    printed = output.getvalue().splitlines()
    assert expected, f"{name}: no commented print to check"
    for shown, actual in zip(expected, printed, strict=True):
        assert actual.startswith(shown.removesuffix("...").rstrip(". ")), (shown, actual)


@pytest.fixture(scope="module")
def service_url() -> Iterator[str]:
    """A real service with the embedded skill runtime, as ``make run`` starts it."""
    from dialogkit.skills.runtime import RuntimeServer
    from dialogkit_server import create_app

    with Engine(skill_runtime="embedded") as engine, RuntimeServer(create_app(engine)) as server:
        yield server.base_url


def test_readme_has_the_blocks_this_test_runs() -> None:
    blocks = python_blocks()
    assert len(blocks) == 3
    assert 'Engine(skill_runtime="embedded")' in blocks[1]
    assert 'Client("http://127.0.0.1:8000")' in blocks[2]


@pytest.mark.parametrize("index", [0, 1], ids=["offline", "embedded-skills"])
def test_readme_in_process_examples(monkeypatch: pytest.MonkeyPatch, index: int) -> None:
    monkeypatch.chdir(ROOT)
    run_as_written(python_blocks()[index], f"README.md block {index + 1}")


def test_readme_client_example(service_url: str) -> None:
    """As written, but against a free port instead of the 8000 that ``make run`` uses."""
    code = python_blocks()[2].replace("http://127.0.0.1:8000", service_url)
    run_as_written(code, "README.md client block")


def test_readme_lists_every_worked_example_and_each_has_conversation_tests() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = sorted((ROOT / "docs" / "examples").glob("*.json"))
    assert examples
    for example in examples:
        assert f"(docs/examples/{example.name})" in readme, f"README does not list {example.name}"
        tests = ROOT / "docs" / "examples" / "tests" / example.name
        assert tests.is_file(), f"{example.name} has no conversation tests at {tests}"


def test_readme_says_how_to_get_the_command_on_path() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ". .venv/bin/activate" in readme
    assert ".venv/bin/dialogkit" in readme
