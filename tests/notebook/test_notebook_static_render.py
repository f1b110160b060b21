"""The chat widget in a static render: nbconvert's HTML shows the conversation, no kernel.

A notebook saved from JupyterLab keeps no widget state by default, and repository viewers run
no widget code, so a static render shows a widget's ``text/html`` or nothing.
"""

from __future__ import annotations

import html
from pathlib import Path

import nbformat
import pytest
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


def test_the_bundle_has_the_widget_view_and_a_static_snapshot(session: Session) -> None:
    chat = ChatWidget(session)
    chat.send("I'd like a latte")
    bundle = chat._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    snapshot = bundle["text/html"]
    assert html.escape("I'd like a latte") in snapshot
    assert "Which size: small, medium or large?" in snapshot
    assert "take_order" in snapshot  # the side panel's node
    assert bundle["text/plain"].startswith("ChatWidget(2 replies")


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
    assert page.count('<div class="dialogkit-chat"') == 2  # both cells, rendered as HTML
