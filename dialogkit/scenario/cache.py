"""The scenario cache: every scenario is loaded, validated and indexed once per process.

Sessions never hold a scenario, only its fingerprint; a turn finds the parsed ``Scenario``
here. Registered names are resolved to files whose ``stat`` (mtime, size) is checked on each
use, so an edited file is read again and an unchanged one never is. Documents sent inline
(``POST /v1/session/json``) are keyed by their content fingerprint, so a client that sends
the same graph for every session parses it once. The cache is bounded (least recently used
first out); a session whose scenario was dropped finds it again in the session store.

A scenario enters the cache *prepared*: validated, its ``index`` built and every ``derive``
builder applied (the engine passes the rule NLU's index), so no turn builds them later. A graph
of a megabyte takes seconds to prepare, so ``aresolve`` prepares in a worker thread and the
event loop keeps serving other sessions meanwhile. It is one thread for the process
(``PREPARING``): preparing is pure Python and holds the GIL, and every further busy thread
would take the interpreter from the event loop for another switch interval. The cache's own
maps are guarded by a lock held only for dictionary operations.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from dialogkit.scenario.registry import resolve_name
from dialogkit.scenario.scenario import Scenario, fingerprint_of

CACHE_SIZE = 128
"""Scenarios kept parsed per process (each is shared by all of its sessions)."""

PREPARING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dialogkit-scenarios")
"""The one thread that loads and indexes scenarios for ``aresolve`` (see the module doc)."""


class _FileStamp(NamedTuple):
    path: Path
    mtime_ns: int
    size: int


class ScenarioCache:
    """Parsed scenarios by fingerprint, and registered names by file stamp."""

    def __init__(
        self, size: int = CACHE_SIZE, *, derive: Sequence[Callable[[Scenario], Any]] = ()
    ) -> None:
        self._size = size
        self._derive = tuple(derive)
        self._by_key: OrderedDict[str, Scenario] = OrderedDict()
        self._by_file: dict[Path, tuple[_FileStamp, str]] = {}
        self._guard = threading.Lock()

    async def aresolve(self, scenario: Scenario | dict[str, Any] | str) -> Scenario:
        """``resolve``, with anything new read, validated and indexed in the ``PREPARING``
        thread, not on the event loop. A scenario already cached (a parsed one, or a registered
        name whose file is unchanged) is answered at once, never queued behind a large graph
        that the thread is preparing."""
        cached = None
        if isinstance(scenario, Scenario):
            cached = self.get(scenario.fingerprint) if "fingerprint" in vars(scenario) else None
        elif isinstance(scenario, str):
            cached = self._by_unchanged_file(scenario)
        if cached is not None:
            return cached
        return await asyncio.get_running_loop().run_in_executor(PREPARING, self.resolve, scenario)

    def resolve(self, scenario: Scenario | dict[str, Any] | str) -> Scenario:
        """The cached, prepared scenario for a ``Scenario``, a registered name or a document."""
        if isinstance(scenario, Scenario):
            return self.put(scenario)
        if isinstance(scenario, str):
            return self.by_name(scenario)
        return self.by_document(scenario)

    def by_name(self, name: str) -> Scenario:
        """A registered scenario; its file is read again only when its stamp changed."""
        cached = self._by_unchanged_file(name)
        if cached is not None:
            return cached
        path = resolve_name(name)
        stamp = _stamp(path)
        scenario = self.put(Scenario.from_file(path))
        if stamp is not None:
            with self._guard:
                self._by_file[path] = (stamp, scenario.fingerprint)
        return scenario

    def _by_unchanged_file(self, name: str) -> Scenario | None:
        """The cached scenario of a registered name whose file has not changed since."""
        path = resolve_name(name)
        stamp = _stamp(path)
        with self._guard:
            known = self._by_file.get(path)
        if stamp is None or known is None or known[0] != stamp:
            return None
        return self.get(known[1])

    def by_document(self, document: Any) -> Scenario:
        """A scenario sent as a document; parsed only the first time its content is seen."""
        cached = self.get(fingerprint_of(document))
        return cached if cached is not None else self.put(Scenario.from_dict(document))

    def get(self, key: str) -> Scenario | None:
        with self._guard:
            scenario = self._by_key.get(key)
            if scenario is not None:
                self._by_key.move_to_end(key)
            return scenario

    def put(self, scenario: Scenario) -> Scenario:
        """Keep ``scenario``, prepared now (validated and indexed) so that later sessions
        and turns do not pay for it."""
        known = self.get(scenario.fingerprint)
        if known is not None:
            return known
        self.prepare(scenario)
        with self._guard:
            known = self._by_key.get(scenario.fingerprint)
            if known is not None:  # prepared meanwhile by another thread: keep that one
                return known
            self._by_key[scenario.fingerprint] = scenario
            while len(self._by_key) > self._size:
                self._by_key.popitem(last=False)
        return scenario

    def prepare(self, scenario: Scenario) -> None:
        """Everything a turn would otherwise build on first use: problems, the index, and
        the ``derive`` builders (only for a usable scenario: no session runs the others)."""
        scenario.validate()
        if scenario.is_valid:
            _ = scenario.index
            for build in self._derive:
                scenario.derived(build)

    def __len__(self) -> int:
        return len(self._by_key)


def _stamp(path: Path) -> _FileStamp | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _FileStamp(path, info.st_mtime_ns, info.st_size)
