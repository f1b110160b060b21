"""Every notebook runs top to bottom, offline, in a kernel of this interpreter."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.helpers import ROOT
from tests.notebook.conftest import ENVIRONMENT

FOLDER = ROOT / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
KERNEL = "dialogkit-tests"


@pytest.fixture(scope="module")
def jupyter_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A kernelspec running this very interpreter, whatever kernels the machine has."""
    folder = tmp_path_factory.mktemp("jupyter")
    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": KERNEL, "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(folder))
        yield folder


def kernel_environment() -> dict[str, str]:
    """The test's environment, offline, with this work tree importable; loopback unproxied."""
    env = {name: value for name, value in os.environ.items() if name not in ENVIRONMENT}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["DIALOGKIT_NOTEBOOK_USERS"] = "30"  # notebook 05 simulates 1,000 users when run by hand
    env["MPLBACKEND"] = "Agg"
    return env


def test_every_notebook_is_committed_without_outputs() -> None:
    assert [path.name for path in NOTEBOOKS] == [
        "01-quickstart.ipynb",
        "02-write-your-own-scenario.ipynb",
        "03-remote-service.ipynb",
        "04-compare-models.ipynb",
        "05-simulate-and-evaluate.ipynb",
    ]
    for path in NOTEBOOKS:
        notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        nbformat.validate(notebook)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.timeout(300)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_the_notebook_runs(path: Path, jupyter_path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=120,
        resources={"metadata": {"path": str(FOLDER)}},
    )
    client.execute(env=kernel_environment())

    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert outputs, "the notebook showed nothing"
    assert not [output for output in outputs if output.output_type == "error"]
