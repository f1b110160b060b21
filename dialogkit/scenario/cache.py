"""The scenario cache: every scenario is loaded, validated and indexed once per process.

Sessions never hold a scenario, only its fingerprint; a turn finds the parsed ``Scenario``
here. Registered names are resolved to files whose ``stat`` (mtime, size) is checked on each
use, so an edited file is read again and an unchanged one never is. Documents sent inline
(``POST /v1/session/json``) are keyed by their content fingerprint, so a client that sends
the same graph for every session parses it once. The cache is bounded (least recently used
first out); a session whose scenario was dropped finds it again in the session store.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import Any, NamedTuple

from dialogkit.scenario.registry import resolve_name
from dialogkit.scenario.scenario import Scenario, fingerprint_of

CACHE_SIZE = 128
"""Scenarios kept parsed per process (each is shared by all of its sessions)."""


class _FileStamp(NamedTuple):
    path: Path
    mtime_ns: int
    size: int


class ScenarioCache:
    """Parsed scenarios by fingerprint, and registered names by file stamp."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._by_key: OrderedDict[str, Scenario] = OrderedDict()
        self._by_file: dict[Path, tuple[_FileStamp, str]] = {}

    def by_name(self, name: str) -> Scenario:
        """A registered scenario; its file is read again only when its stamp changed."""
        path = resolve_name(name)
        stamp = _stamp(path)
        known = self._by_file.get(path)
        if stamp is not None and known is not None and known[0] == stamp:
            cached = self.get(known[1])
            if cached is not None:
                return cached
        scenario = Scenario.from_file(path)
        if stamp is not None:
            self._by_file[path] = (stamp, scenario.fingerprint)
        return self.put(scenario)

    def by_document(self, document: Any) -> Scenario:
        """A scenario sent as a document; parsed only the first time its content is seen."""
        cached = self.get(fingerprint_of(document))
        return cached if cached is not None else self.put(Scenario.from_dict(document))

    def get(self, key: str) -> Scenario | None:
        scenario = self._by_key.get(key)
        if scenario is not None:
            self._by_key.move_to_end(key)
        return scenario

    def put(self, scenario: Scenario) -> Scenario:
        """Keep ``scenario`` (validated now, so that later sessions do not pay for it)."""
        key = scenario.fingerprint
        known = self._by_key.get(key)
        if known is not None:
            self._by_key.move_to_end(key)
            return known
        scenario.validate()
        self._by_key[key] = scenario
        while len(self._by_key) > self._size:
            self._by_key.popitem(last=False)
        return scenario

    def __len__(self) -> int:
        return len(self._by_key)


def _stamp(path: Path) -> _FileStamp | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _FileStamp(path, info.st_mtime_ns, info.st_size)
