"""``GraphView``: a scenario graph that a notebook cell displays, offline, as a picture."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from dialogkit.notebook.transcript import Transcript
from dialogkit.scenario.graphview import to_html, to_mermaid, to_svg
from dialogkit.scenario.scenario import Scenario

__all__ = ["GraphView"]


@dataclass(frozen=True)
class GraphView:
    """The graph with an optional highlighted ``path`` and shaded ``coverage``.

    The rendering functions return strings, which a notebook shows as text; this object
    is what a cell should end with to see the picture.
    """

    scenario: Scenario
    path: Sequence[str] | None = None
    coverage: AbstractSet[str] | None = None

    @classmethod
    def of_transcript(cls, scenario: Scenario, transcript: Transcript) -> GraphView:
        """The path a conversation took, its nodes shaded as visited."""
        path = transcript.path
        return cls(scenario, path=path, coverage=set(path))

    def to_mermaid(self) -> str:
        return to_mermaid(self.scenario, path=self.path, coverage=self.coverage)

    def to_svg(self) -> str:
        return to_svg(self.scenario, path=self.path, coverage=self.coverage)

    def _repr_html_(self) -> str:
        return to_html(self.scenario, path=self.path, coverage=self.coverage)
