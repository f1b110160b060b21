"""``Scenario``: a loaded graph with fast lookups, validation and loading helpers."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from dialogkit.errors import ScenarioError, ScenarioInvalid, ScenarioNotFound
from dialogkit.scenario import graphview
from dialogkit.scenario.index import ScenarioIndex
from dialogkit.scenario.model import Node, ScenarioDocument, Slot
from dialogkit.scenario.problems import Problem, errors
from dialogkit.scenario.registry import resolve_name
from dialogkit.scenario.validate import validate_document

Derived = TypeVar("Derived")


class Scenario:
    """A scenario graph, parsed once and shared by every session that runs it.

    Loading only requires that the document *parses*; ``validate()`` reports every content
    problem. The engine refuses to start a session on a scenario with error-severity problems.
    """

    def __init__(
        self,
        document: ScenarioDocument,
        raw: dict[str, Any] | None = None,
        *,
        problems: list[Problem] | None = None,
    ) -> None:
        self.document = document
        self._raw = raw if raw is not None else document.model_dump(by_alias=True)
        self._nodes = {node.id: node for node in document.graph.nodes}
        self._derived: dict[Callable[[Scenario], Any], Any] = {}
        if problems is not None:
            # The problems found while parsing ``raw``: validating it again would find the same.
            self.__dict__["_problems"] = problems

    @classmethod
    def from_dict(cls, data: Any) -> Scenario:
        """Parse a graph; raises ``ScenarioInvalid`` listing every structure problem."""
        if isinstance(data, Scenario):
            return data
        document, problems = validate_document(data)
        if document is None:
            raise ScenarioInvalid("The scenario graph cannot be parsed:", problems)
        assert isinstance(data, dict)
        return cls(document, data, problems=problems)

    @classmethod
    def from_file(cls, path: str | Path) -> Scenario:
        """Load a JSON scenario file."""
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise ScenarioNotFound(f"Scenario file {file} does not exist.") from exc
        except OSError as exc:
            raise ScenarioError(f"Cannot read scenario file {file}: {exc}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioError(
                f"{file}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from exc
        try:
            return cls.from_dict(data)
        except ScenarioInvalid as exc:
            message = f"{file}: the scenario graph cannot be parsed:"
            raise ScenarioInvalid(message, exc.problems) from None

    @classmethod
    def load(cls, name: str) -> Scenario:
        """Load a registered scenario by name (case-insensitive)."""
        return cls.from_file(resolve_name(name))

    def validate(self) -> list[Problem]:
        """Every problem of the graph; it is usable when none has severity ``error``."""
        return self._problems

    @cached_property
    def _problems(self) -> list[Problem]:
        return validate_document(self._raw)[1]

    @cached_property
    def fingerprint(self) -> str:
        """A digest of the document, computed once: sessions name their scenario by it."""
        return fingerprint_of(self._raw)

    @cached_property
    def index(self) -> ScenarioIndex:
        """Per-node facts and usable intents, built once and shared by every session."""
        return ScenarioIndex(self.document)

    def derived(self, build: Callable[[Scenario], Derived]) -> Derived:
        """``build(self)``, computed once per scenario and kept with it.

        Upper layers (the rule NLU's index, for one) attach what they derive from a scenario
        here, so it lives exactly as long as the shared scenario and is never rebuilt per turn,
        while this layer needs to know nothing of them.
        """
        if build not in self._derived:
            self._derived[build] = build(self)
        value: Derived = self._derived[build]
        return value

    @property
    def is_valid(self) -> bool:
        return not errors(self._problems)

    def ensure_valid(self) -> None:
        """Raise ``ScenarioInvalid`` when the graph has error-severity problems."""
        problems = errors(self._problems)
        if problems:
            named = f"Scenario {self.slug!r}" if self.slug else "The scenario (no metadata.slug)"
            raise ScenarioInvalid(f"{named} is invalid:", problems)

    @property
    def slug(self) -> str:
        return self.document.metadata.slug

    @property
    def name(self) -> str:
        return self.document.metadata.name

    @property
    def language(self) -> str:
        return self.document.metadata.language or "en"

    @property
    def entry(self) -> str:
        return self.document.graph.entry

    @property
    def nodes(self) -> list[Node]:
        return self.document.graph.nodes

    def node(self, node_id: str) -> Node:
        """The node with ``node_id``; raises ``ScenarioError`` when there is none."""
        try:
            return self._nodes[node_id]
        except KeyError:
            raise ScenarioError(f"Scenario {self.slug!r} has no node {node_id!r}.") from None

    def has_node(self, node_id: str) -> bool:
        return node_id in self._nodes

    def slot(self, name: str) -> Slot | None:
        return self.document.slots.get(name)

    def to_mermaid(
        self, *, path: Sequence[str] | None = None, coverage: AbstractSet[str] | None = None
    ) -> str:
        """A Mermaid flowchart: transitions with their conditions, terminal nodes marked,
        optionally the ``path`` a session took and the nodes ``coverage`` visited."""
        return graphview.to_mermaid(self, path=path, coverage=coverage)

    def to_svg(
        self, *, path: Sequence[str] | None = None, coverage: AbstractSet[str] | None = None
    ) -> str:
        """The same graph as a self-contained SVG (no JavaScript, works offline)."""
        return graphview.to_svg(self, path=path, coverage=coverage)

    def to_html(
        self, *, path: Sequence[str] | None = None, coverage: AbstractSet[str] | None = None
    ) -> str:
        """The SVG wrapped for a notebook cell or a web page."""
        return graphview.to_html(self, path=path, coverage=coverage)

    def _repr_html_(self) -> str:
        return self.to_html()

    def to_dict(self) -> dict[str, Any]:
        """The raw document as loaded (unknown keys included)."""
        return self._raw

    def __repr__(self) -> str:
        return f"Scenario(slug={self.slug!r}, nodes={len(self._nodes)})"


def fingerprint_of(document: Any) -> str:
    """The content digest of a raw scenario document (key order and spacing do not matter)."""
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:32]
