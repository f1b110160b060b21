"""The chat widget in a static render: nbconvert's HTML shows the conversation, no kernel.

A notebook saved from JupyterLab keeps no widget state by default, and repository viewers run
no widget code, so a static render shows a widget's ``text/html`` or nothing; ``jupyter
nbconvert --execute`` does store the state, and then renders the widget-view output as a live
widget that needs a CDN. The snapshot is therefore an output of its own.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import IPython.display
import nbformat
import pytest
from bs4 import BeautifulSoup, Tag
from nbclient import NotebookClient
from nbconvert import HTMLExporter

from dialogkit import Session
from dialogkit.notebook import ChatWidget
from tests.notebook.test_notebook_execution import KERNEL, jupyter_path, kernel_environment

__all__ = ["jupyter_path"]  # the kernelspec fixture, shared with the execution tests

CELLS = [
    "from pathlib import Path\n"
    "import dialogkit as dk\n"
    "from dialogkit.notebook import ChatWidget\n"
    'coffee = dk.Scenario.from_file(Path("docs") / "examples" / "coffee.json")\n'
    "chat = ChatWidget(dk.Engine().start(coffee))\n"
    "chat",
    'chat.send("I\'d like a latte")\nchat.send("large")\nchat',
]


def test_the_display_is_a_static_snapshot_then_the_widget_view(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[dict[str, Any]] = []
    monkeypatch.setattr(IPython.display, "display", lambda bundle, raw: shown.append(bundle))
    chat = ChatWidget(session)
    chat.send("I'd like a latte")
    chat.display()
    snapshot, view = shown
    assert list(snapshot) == ["text/html"]
    assert html.escape("I'd like a latte") in snapshot["text/html"]
    assert "Which size: small, medium or large?" in snapshot["text/html"]
    assert "take_order" in snapshot["text/html"]  # the side panel's node
    assert "<style>" not in snapshot["text/html"]  # never hides itself
    assert set(view) == {"application/vnd.jupyter.widget-view+json", "text/plain"}
    assert view["text/plain"].startswith("ChatWidget(2 replies")
    # The rule that hides the snapshot lives in the live view only.
    hiding = f".dk-snapshot-{chat.view.model_id}{{display:none}}"
    assert f'class="dialogkit-chat dk-snapshot-{chat.view.model_id}"' in snapshot["text/html"]
    assert any(hiding in getattr(child, "value", "") for child in chat.view.children)


@pytest.mark.timeout(180)
def test_nbconvert_html_shows_the_conversation(jupyter_path: Path) -> None:
    notebook = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]  # type: ignore[no-untyped-call]
    root = Path(__file__).resolve().parents[2]
    NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=120,
        resources={"metadata": {"path": str(root)}},
        store_widget_state=False,  # as JupyterLab saves by default
    ).execute(env=kernel_environment())

    page, _ = HTMLExporter().from_notebook_node(notebook)  # type: ignore[no-untyped-call]

    assert "Hi! Welcome to the coffee bar. What can I get you?" in page  # first cell
    assert page.count('class="dk-user"') == 2  # the user's two messages (snapshot of cell 2)
    for text in ("Which size: small, medium or large?", "A large latte. Is that right?"):
        assert text in page, text
    assert page.count('<div class="dialogkit-chat ') == 2  # both cells, rendered as HTML


def visible_snapshots(page: str) -> list[Tag]:
    """The snapshots a browser without network shows: markup outside every script (nothing
    inside a script renders offline), not hidden by an inline style or a style sheet."""
    soup = BeautifulSoup(page, "html.parser")
    sheets = " ".join(style.get_text() for style in soup.find_all("style"))
    shown = []
    for snapshot in soup.select("div.dialogkit-chat"):
        hidden_inline = any(
            "display:none" in str(node.get("style", "")).replace(" ", "")
            for node in (snapshot, *snapshot.parents)
            if isinstance(node, Tag)
        )
        hidden_by_sheet = any(
            name.startswith("dk-snapshot-") and f".{name}" in sheets
            for name in snapshot.get_attribute_list("class")
        )
        if not (hidden_inline or hidden_by_sheet or snapshot.find_parent("script")):
            shown.append(snapshot)
    return shown


@pytest.mark.timeout(300)
def test_jupyter_nbconvert_execute_shows_the_snapshot_offline(tmp_path: Path) -> None:
    """The exact command of a new user, run on the quickstart notebook (its ``python3``
    kernel pinned to this interpreter; the page written outside the work tree)."""
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Python 3", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    jupyter = Path(sys.executable).with_name("jupyter")
    command = [str(jupyter), "nbconvert", "--to", "html", "--execute"]
    notebook = "notebooks/01-quickstart.ipynb"
    done = subprocess.run(
        [*command, notebook, "--output-dir", str(tmp_path)],
        cwd=root,
        env={**kernel_environment(), "JUPYTER_PATH": str(tmp_path / "jupyter")},
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "01-quickstart.html").read_text(encoding="utf-8")

    # nbconvert stored the widget state: the live form is there too (it needs the CDN).
    assert "application/vnd.jupyter.widget-state+json" in page
    assert 'type="application/vnd.jupyter.widget-view+json"' in page
    (snapshot,) = visible_snapshots(page)
    text = snapshot.get_text(" ")
    assert "Hi! Welcome to the coffee bar. What can I get you?" in text
    assert "welcome" in text  # the side panel's node


def test_the_dom_check_sees_a_hidden_snapshot() -> None:
    """The check above can fail: a snapshot in a script, or hidden by a rule, is not shown."""
    snapshot = '<div class="dialogkit-chat dk-snapshot-1">Hi</div>'
    assert visible_snapshots(snapshot)
    assert not visible_snapshots(f'<script type="text/html">{snapshot}</script>')
    assert not visible_snapshots(f"<style>.dk-snapshot-1{{display:none}}</style>{snapshot}")
    assert not visible_snapshots(f'<div style="display: none">{snapshot}</div>')
