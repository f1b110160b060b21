"""The docs' pictures are up to date, and long code lines wrap instead of being cut off."""

from __future__ import annotations

import xml.dom.minidom

import yaml

from tests.helpers import ROOT
from tools.docs_pictures import IMAGES, pictures
from tools.docs_pictures import normalized as without_id


def test_the_committed_pictures_are_what_the_script_draws() -> None:
    drawn = pictures()
    assert set(drawn) == {"coffee-graph.svg", "chat-widget.svg"}
    for name, svg in drawn.items():
        committed = (IMAGES / name).read_text(encoding="utf-8")
        assert without_id(committed) == without_id(svg), (
            f"docs/images/{name} is out of date: run .venv/bin/python -m tools.docs_pictures"
        )
        xml.dom.minidom.parseString(committed)  # an image must be well-formed XML


def test_the_widget_picture_shows_the_conversation_and_the_graph_its_path() -> None:
    widget = (IMAGES / "chat-widget.svg").read_text(encoding="utf-8")
    for text in ("Which size: small, medium or large?", "A large latte. Is that right?"):
        assert text in widget
    assert "<foreignObject" in widget and "http://www.w3.org/1999/xhtml" in widget
    assert "take_order" in (IMAGES / "coffee-graph.svg").read_text(encoding="utf-8")


def test_the_pages_show_the_pictures() -> None:
    page = (ROOT / "docs" / "notebooks.md").read_text(encoding="utf-8")
    assert "(images/chat-widget.svg)" in page and "(images/coffee-graph.svg)" in page


def test_code_blocks_wrap_long_lines() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    [stylesheet] = config["extra_css"]
    css = (ROOT / "docs" / stylesheet).read_text(encoding="utf-8")
    assert ".md-typeset pre > code" in css and "white-space: pre-wrap" in css
