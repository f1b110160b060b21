"""mkdocs hooks: the scenario JSON Schema is published with the documentation.

The schema lives in the repository at ``scenarios/scenario.schema.json`` (``make schema``), and
the docs link to that file, a link that works wherever the repository is browsed. mkdocs only
serves what is under ``docs/``, so the build adds the file to the site and points the link
at the site's copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

SCHEMA = Path(__file__).resolve().parents[1] / "scenarios" / "scenario.schema.json"
REPOSITORY_LINK = "](../scenarios/scenario.schema.json)"
SITE_NAME = "scenario.schema.json"


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, SITE_NAME, abs_src_path=str(SCHEMA)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return markdown.replace(REPOSITORY_LINK, f"]({SITE_NAME})")
