"""The registry of named scenarios: which names the service accepts and where their files are.

The registered set is data (``scenarios/registry.json``), not code, so a deployment can point
``DIALOGKIT_SCENARIOS_DIR`` at its own folder with its own registry. Files that exist but are
not listed (such as ``general_conversation``) can still be loaded by path.
"""

from __future__ import annotations

import json
import os
from functools import cache, lru_cache
from pathlib import Path

from dialogkit.errors import ScenarioNotFound
from dialogkit.logsafe import MAX_FIELD_CHARS
from dialogkit.scenario.validate import suggestion

REGISTRY_FILE = "registry.json"


def scenarios_dir() -> Path:
    """The folder holding scenario files and the registry."""
    configured = os.environ.get("DIALOGKIT_SCENARIOS_DIR")
    if configured:
        return Path(configured)
    return _bundled_dir()


@cache
def _bundled_dir() -> Path:
    """Resolved once: ``resolve()`` stats every component, and sessions are created often."""
    return Path(__file__).resolve().parents[2] / "scenarios"


def _read_registry(folder: Path) -> dict[str, str]:
    """The registry of ``folder``, read again only when the file's mtime or size changed."""
    path = folder / REGISTRY_FILE
    try:
        info = os.stat(path)
    except OSError:
        return {}
    return _parse_registry(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=8)
def _parse_registry(path: Path, mtime_ns: int, size: int) -> dict[str, str]:
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ScenarioNotFound(f"Cannot read the scenario registry {path}: {exc}") from exc
    if not isinstance(entries, dict):
        raise ScenarioNotFound(f"The scenario registry {path} must map names to file names.")
    return {str(name).lower(): str(file) for name, file in entries.items()}


def registered_names() -> list[str]:
    """The names ``Scenario.load`` accepts, sorted."""
    return sorted(_read_registry(scenarios_dir()))


def _near_name(key: str, registry: dict[str, str]) -> str:
    """ "; did you mean `x`?" for a misspelt registered name, else a full stop. A huge name
    (a client's, echoed in a 400) is not compared: it cannot be a typo of a short one."""
    if len(key) > MAX_FIELD_CHARS:
        return "."
    return suggestion(key, registry, "; ") or "."


def resolve_name(name: str) -> Path:
    """The file of a registered scenario; the name is matched case-insensitively."""
    key = name.strip().lower()
    if not key:
        raise ScenarioNotFound("The scenario name is empty; give one of the registered names.")
    folder = scenarios_dir()
    registry = _read_registry(folder)
    if key not in registry:
        known = ", ".join(sorted(registry)) or "none"
        # A client's name is echoed in a 400: a huge one is shown as its first characters.
        shown = (
            repr(name)
            if len(name) <= MAX_FIELD_CHARS
            else f"{name[:MAX_FIELD_CHARS]!r}... ({len(name)} characters)"
        )
        raise ScenarioNotFound(
            f"Scenario {shown} is not registered (registered: {known}){_near_name(key, registry)}"
        )
    return folder / registry[key]
