"""Draw the documentation's pictures of the graph view and the chat widget, offline.

Both come from one real conversation with the example coffee scenario (offline providers):
the graph as ``Scenario.to_svg`` draws it with the path the conversation took, and the chat
widget as its static snapshot (``ChatWidget.snapshot_html``, the HTML a notebook shows without
a kernel), wrapped in an SVG ``foreignObject`` so that the page embeds it as an image::

    .venv/bin/python -m tools.docs_pictures          # rewrite docs/images/*.svg
    .venv/bin/python -m tools.docs_pictures --check  # exit 1 if a picture is out of date

tests/docs/test_docs_pictures.py runs the check (modulo the session id).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
COFFEE = ROOT / "docs" / "examples" / "coffee.json"
CONVERSATION = ["I'd like a latte", "large", "yes"]
WIDGET_SIZE = (760, 380)
SESSION_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<=dk-snapshot-)[0-9a-f]{32}"
)


def pictures() -> dict[str, str]:
    """File name -> SVG text of every picture, from a fresh conversation."""
    from dialogkit import Engine, Scenario
    from dialogkit.notebook import ChatWidget, Transcript

    scenario = Scenario.from_file(COFFEE)
    with Engine() as engine:
        session = engine.start(scenario)
        chat = ChatWidget(session)
        for text in CONVERSATION:
            chat.send(text)
        path = Transcript.from_session(session).path
        widget = chat.snapshot_html()
        chat.close()
    width, height = WIDGET_SIZE
    # SVG is XML: the snapshot is well-formed XHTML once it has the XHTML namespace.
    widget_svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
        f'<foreignObject x="8" y="8" width="{width - 16}" height="{height - 16}">'
        f'<div xmlns="http://www.w3.org/1999/xhtml">{widget}</div></foreignObject></svg>\n'
    )
    return {"coffee-graph.svg": scenario.to_svg(path=path), "chat-widget.svg": widget_svg}


def normalized(svg: str) -> str:
    """The picture without its session id and widget id, which change on every run."""
    return SESSION_ID.sub("<id>", svg)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a picture is stale")
    args = parser.parse_args(argv)
    stale = []
    IMAGES.mkdir(exist_ok=True)
    for name, svg in pictures().items():
        target = IMAGES / name
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if normalized(current) == normalized(svg):
            continue
        stale.append(name)
        if not args.check:
            target.write_text(svg, encoding="utf-8")
    if args.check and stale:
        print(
            f"out of date: {', '.join(stale)}: run python -m tools.docs_pictures", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
