"""Pictures of a scenario graph: Mermaid text for documents, a self-contained SVG for notebooks.

Mermaid needs its JavaScript (usually from a CDN) to draw anything, and notebooks are often
run offline, so the SVG is laid out here with no dependency: nodes sit in rows by their
breadth-first distance from the entry, edges are curves between the rows. It is meant to be
read, not to win a layout contest; the Mermaid text is there for prettier rendering.

Both renderers draw the same picture. Edges come from ``next_nodes`` (labelled with a compact
condition), ``default_next`` (dashed, "default"), ``turn_limit_next`` ("turn limit") and the
global transitions (from a ``*`` pseudo-node); actions are self-loops labelled with the
action. ``path`` (the nodes a session went through, in order) is highlighted and
``coverage`` (visited nodes) is shaded.
"""

from __future__ import annotations

import hashlib
import html
import json
import unicodedata
from collections import deque
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal

from dialogkit.scenario.model import AllOf, AnyOf, ConditionExpr, Not, Transition

if TYPE_CHECKING:
    # Only for annotations: scenario.py may import this module for Scenario.to_svg() & co.
    from dialogkit.scenario.scenario import Scenario

__all__ = [
    "GLOBAL",
    "GraphEdge",
    "condition_text",
    "graph_edges",
    "to_html",
    "to_mermaid",
    "to_svg",
]

GLOBAL = "*"
"""The pseudo-node global transitions start from."""

MAX_LABEL = 48
"""Longer edge labels are cut (with an ellipsis) so that they do not swamp the picture."""

EdgeKind = Literal["transition", "default", "turn_limit", "action"]

_SYMBOLS = {"equals": "=", "not_equals": "≠", "gt": ">", "gte": "≥", "lt": "<", "lte": "≤"}


@dataclass(frozen=True)
class GraphEdge:
    """One line of the picture; an action is a self-loop (``target == source``)."""

    source: str
    target: str
    label: str
    kind: EdgeKind


def condition_text(expr: ConditionExpr | None) -> str:
    """A condition as a reader would say it: ``intent = affirm``, ``any(slots.x exists, …)``.

    The ``nlu.`` prefix is dropped because nearly every condition reads NLU results.
    """
    if expr is None:
        return ""
    if isinstance(expr, AllOf):
        return f"all({', '.join(condition_text(item) for item in expr.all)})"
    if isinstance(expr, AnyOf):
        return f"any({', '.join(condition_text(item) for item in expr.any)})"
    if isinstance(expr, Not):
        return f"not({condition_text(expr.not_)})"
    name = expr.field.removeprefix("nlu.")
    operator = expr.operator
    if operator in ("exists", "not_exists"):
        return f"{name} {operator.replace('_', ' ')}"
    if operator in ("in", "not_in"):
        values = expr.value if isinstance(expr.value, list) else [expr.value]
        listed = ", ".join(_value(v) for v in values)
        return f"{name} {operator.replace('_', ' ')} [{listed}]"
    return f"{name} {_SYMBOLS.get(operator, operator)} {_value(expr.value)}"


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _transition_edge(source: str, transition: Transition) -> GraphEdge | None:
    condition = condition_text(transition.condition)
    if transition.target is not None:
        return GraphEdge(source, transition.target, _shorten(condition), "transition")
    if transition.action is not None:
        label = f"{transition.action} if {condition}" if condition else transition.action
        return GraphEdge(source, source, _shorten(label), "action")
    return None


def graph_edges(scenario: Scenario) -> list[GraphEdge]:
    """Every edge of the picture, global transitions first, then node by node."""
    graph = scenario.document.graph
    edges = [_transition_edge(GLOBAL, t) for t in graph.global_transitions]
    for node in graph.nodes:
        edges += [_transition_edge(node.id, t) for t in node.next_nodes]
        if node.default_next is not None:
            edges.append(GraphEdge(node.id, node.default_next, "default", "default"))
        if node.params.turn_limit_next is not None:
            edges.append(
                GraphEdge(node.id, node.params.turn_limit_next, "turn limit", "turn_limit")
            )
    return [edge for edge in edges if edge is not None]


@dataclass
class _Picture:
    """What both renderers need: nodes, edges, and which of them to emphasise."""

    scenario: Scenario
    edges: list[GraphEdge]
    missing: list[str]
    on_path: set[str]
    path_edges: set[int]
    visited: set[str]
    keys: dict[str, str]
    """Node id -> a short id that is safe in Mermaid and SVG."""

    @classmethod
    def of(
        cls,
        scenario: Scenario,
        path: Sequence[str] | None,
        coverage: AbstractSet[str] | None,
    ) -> _Picture:
        edges = graph_edges(scenario)
        known = {node.id for node in scenario.nodes}
        missing = list(
            dict.fromkeys(e.target for e in edges if e.target not in known and e.target != GLOBAL)
        )
        steps = [node for node in path or () if node in known]
        keys = {node.id: f"n{i}" for i, node in enumerate(scenario.nodes)}
        keys.update({node: f"m{i}" for i, node in enumerate(missing)})
        keys[GLOBAL] = "g"
        return cls(
            scenario=scenario,
            edges=edges,
            missing=missing,
            on_path=set(steps),
            path_edges=_path_edges(edges, steps),
            visited=set(coverage or ()) & known,
            keys=keys,
        )

    @property
    def has_global(self) -> bool:
        return any(edge.source == GLOBAL for edge in self.edges)


def _path_edges(edges: list[GraphEdge], steps: list[str]) -> set[int]:
    """Indexes of the edges a path used: a node's own edge, else a global transition's."""
    used: set[int] = set()
    for before, after in pairwise(steps):
        own = [i for i, e in enumerate(edges) if (e.source, e.target) == (before, after)]
        if not own:
            own = [i for i, e in enumerate(edges) if (e.source, e.target) == (GLOBAL, after)]
        used.update(own[:1])
    return used


# ------------------------------------------------------------------------------ Mermaid

_MERMAID_CLASSES = {
    "entry": "stroke-width:3px",
    "terminal": "fill:#f1f3f5,stroke:#495057",
    "missing": "fill:#fff5f5,stroke:#e03131,stroke-dasharray:4 3",
    "visited": "fill:#d0ebff",
    "path": "stroke:#e8590c,stroke-width:3px",
}


def _mermaid_text(text: str) -> str:
    """Text inside a quoted Mermaid label: quotes and angle brackets as entity codes."""
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def to_mermaid(
    scenario: Scenario,
    *,
    path: Sequence[str] | None = None,
    coverage: AbstractSet[str] | None = None,
) -> str:
    """A Mermaid ``flowchart TD`` of the graph (see the module docstring for the legend)."""
    picture = _Picture.of(scenario, path, coverage)
    keys = picture.keys
    lines = ["flowchart TD"]
    if picture.has_global:
        lines.append(f'    {keys[GLOBAL]}(("{GLOBAL}"))')
    for node in scenario.nodes:
        label = _mermaid_text(node.id)
        if node.name and node.name != node.id:
            label += f"<br/>{_mermaid_text(node.name)}"
        shape = '(["{}"])' if node.terminal else '["{}"]'
        lines.append(f"    {keys[node.id]}{shape.format(label)}")
    for missing in picture.missing:
        lines.append(f'    {keys[missing]}["{_mermaid_text(missing)} (missing)"]')
    for edge in picture.edges:
        arrow = "-.->" if edge.kind == "default" else "-->"
        label = f'|"{_mermaid_text(edge.label)}"|' if edge.label else ""
        lines.append(f"    {keys[edge.source]} {arrow}{label} {keys[edge.target]}")
    for name, style in _MERMAID_CLASSES.items():
        lines.append(f"    classDef {name} {style}")
    members = {
        "entry": [scenario.entry] if scenario.has_node(scenario.entry) else [],
        "terminal": [node.id for node in scenario.nodes if node.terminal],
        "missing": picture.missing,
        "visited": sorted(picture.visited, key=list(keys).index),
        "path": sorted(picture.on_path, key=list(keys).index),
    }
    for name, nodes in members.items():
        if nodes:
            lines.append(f"    class {','.join(keys[n] for n in nodes)} {name}")
    if picture.path_edges:
        indexes = ",".join(str(i) for i in sorted(picture.path_edges))
        lines.append(f"    linkStyle {indexes} stroke:#e8590c,stroke-width:3px")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ SVG

_FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\""
_INK, _MUTED, _HIGHLIGHT, _ALERT = "#343a40", "#868e96", "#e8590c", "#e03131"
_ROW_GAP, _COLUMN_GAP, _MARGIN, _LINE = 70, 36, 24, 16


def _text_width(text: str, size: float) -> float:
    """An estimate (no font metrics offline): wide East Asian characters count double."""
    units = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return units * size * 0.6


@dataclass
class _Box:
    node: str
    lines: list[str]
    x: float = 0.0
    y: float = 0.0
    row: int = 0

    @property
    def width(self) -> float:
        return max(80.0, max(_text_width(line, 12) for line in self.lines) + 24)

    @property
    def height(self) -> float:
        return 16.0 + _LINE * len(self.lines)

    @property
    def cx(self) -> float:
        return self.x + self.width / 2


def _rows(picture: _Picture) -> list[list[str]]:
    """Breadth-first rows from the entry; ``*`` gets a row of its own above it, global
    targets that nothing else reaches come next, and unreachable nodes go at the bottom."""
    scenario = picture.scenario
    order = list(dict.fromkeys([node.id for node in scenario.nodes] + picture.missing))
    successors: dict[str, list[str]] = {node: [] for node in [*order, GLOBAL]}
    for edge in picture.edges:
        if edge.source != edge.target:
            successors[edge.source].append(edge.target)
    depth: dict[str, int] = {}

    def walk(seeds: list[str], start: int) -> None:
        queue = deque((seed, start) for seed in seeds if seed not in depth)
        for seed, _ in queue:
            depth[seed] = start
        while queue:
            node, level = queue.popleft()
            for child in successors[node]:
                if child not in depth:
                    depth[child] = level + 1
                    queue.append((child, level + 1))

    top = 1 if picture.has_global else 0
    if scenario.entry in successors:
        walk([scenario.entry], top)
    walk(successors[GLOBAL], top + 1)
    for node in order:
        if node not in depth:
            walk([node], max(depth.values(), default=top - 1) + 1)
    rows: list[list[str]] = [[] for _ in range(max(depth.values(), default=top) + 1)]
    for node in order:
        rows[depth[node]].append(node)
    if picture.has_global:
        rows[0].append(GLOBAL)
    return _untangle(rows, successors)


def _untangle(rows: list[list[str]], successors: dict[str, list[str]]) -> list[list[str]]:
    """One downward barycentre pass: each node moves under the parents that point at it."""
    position = {node: i for i, node in enumerate(rows[0])}
    for index in range(1, len(rows)):
        previous = rows[index - 1]

        def centre(node: str, previous: list[str] = previous) -> float:
            parents = [position[p] for p in previous if node in successors[p]]
            return sum(parents) / len(parents) if parents else float(len(previous))

        rows[index] = sorted(rows[index], key=centre)
        position.update({node: i for i, node in enumerate(rows[index])})
    return rows


def _boxes(picture: _Picture) -> dict[str, _Box]:
    names = {node.id: node.name for node in picture.scenario.nodes}
    boxes: dict[str, _Box] = {}
    rows = _rows(picture)
    for number, row in enumerate(rows):
        for node in row:
            lines = [node]
            if node in picture.missing:
                lines.append("(missing)")
            elif names.get(node) and names[node] != node:
                lines.append(names[node])
            boxes[node] = _Box(node, lines, row=number)
    widths = [sum(boxes[n].width for n in row) + _COLUMN_GAP * (len(row) - 1) for row in rows]
    widest = max(widths, default=0.0)
    y = float(_MARGIN)
    for row, row_width in zip(rows, widths, strict=True):
        x = _MARGIN + (widest - row_width) / 2
        for node in row:
            boxes[node].x, boxes[node].y = x, y
            x += boxes[node].width + _COLUMN_GAP
        y += max((boxes[n].height for n in row), default=0.0) + _ROW_GAP
    return boxes


Point = tuple[float, float]


@dataclass(frozen=True)
class _Route:
    """The SVG path of one edge, where its label goes, and the points that bound it."""

    d: str
    label_at: Point
    anchor: str
    bounds: tuple[Point, ...]


def _point(points: tuple[Point, Point, Point, Point], at: float) -> Point:
    """The point of parameter ``at`` on a cubic Bezier curve."""
    weights = ((1 - at) ** 3, 3 * at * (1 - at) ** 2, 3 * at**2 * (1 - at), at**3)
    return (
        sum(w * x for w, (x, _) in zip(weights, points, strict=True)),
        sum(w * y for w, (_, y) in zip(weights, points, strict=True)),
    )


def _bezier(points: tuple[Point, Point, Point, Point], at: float = 0.5) -> _Route:
    """A cubic curve labelled at the point of parameter ``at``."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    d = f"M{x0:.1f},{y0:.1f} C{x1:.1f},{y1:.1f} {x2:.1f},{y2:.1f} {x3:.1f},{y3:.1f}"
    return _Route(d, _point(points, at), "middle", points)


def _rounded(points: list[Point], radius: float = 8.0) -> str:
    """A polyline through ``points`` with rounded corners."""

    def toward(corner: Point, other: Point) -> str:
        dx, dy = other[0] - corner[0], other[1] - corner[1]
        length = max(abs(dx), abs(dy)) or 1.0
        step = min(radius, length / 2) / length
        return f"{corner[0] + dx * step:.1f},{corner[1] + dy * step:.1f}"

    d = f"M{points[0][0]:.1f},{points[0][1]:.1f}"
    for before, corner, after in zip(points, points[1:], points[2:], strict=False):
        d += f" L{toward(corner, before)} Q{corner[0]:.1f},{corner[1]:.1f} {toward(corner, after)}"
    return d + f" L{points[-1][0]:.1f},{points[-1][1]:.1f}"


def _routes(picture: _Picture, boxes: dict[str, _Box]) -> list[_Route]:
    """One route per edge, in edge order.

    Downward edges leave a box's bottom and enter the lower box's top, their ends spread
    along both sides in the order of the boxes at the other end, so siblings do not cross.
    Edges to the same row or upwards go right to a channel beyond every box they pass, up,
    and into their target from below. Self-loops (actions) hang on the right of their box,
    each one larger than the previous.
    """
    edges = picture.edges
    down = [boxes[e.target].row > boxes[e.source].row for e in edges]
    leaving: dict[str, list[int]] = {}
    entering: dict[str, list[int]] = {}
    for index in sorted(range(len(edges)), key=lambda i: boxes[edges[i].target].x):
        if down[index]:
            leaving.setdefault(edges[index].source, []).append(index)
    for index in sorted(range(len(edges)), key=lambda i: boxes[edges[i].source].x):
        if down[index]:
            entering.setdefault(edges[index].target, []).append(index)
    loops: dict[str, int] = {}
    lanes: list[int] = []
    right = {node: box.x + box.width for node, box in boxes.items()}
    for edge in edges:
        lane = loops[edge.source] = loops.get(edge.source, -1) + (edge.source == edge.target)
        lanes.append(lane)
        if edge.source == edge.target:
            label = _text_width(edge.label, 11) + 6
            reach = boxes[edge.source].x + boxes[edge.source].width + _loop_reach(lane)
            right[edge.source] = max(right[edge.source], reach + 4 + label)
    channels = 0
    routes: list[_Route] = []
    for index, edge in enumerate(edges):
        source, target = boxes[edge.source], boxes[edge.target]
        if edge.source == edge.target:
            side, top, bottom = source.x + source.width, source.y + 6, source.y + source.height - 6
            reach = side + _loop_reach(lanes[index])
            loop = _bezier(((side, top), (reach, top - 14), (reach, bottom + 14), (side, bottom)))
            middle = source.y + source.height / 2 + 14 * lanes[index] + 4
            routes.append(_Route(loop.d, (reach + 4, middle), "start", loop.bounds))
        elif down[index]:
            start = (_port(source, leaving[edge.source], index), source.y + source.height)
            end = (_port(target, entering[edge.target], index), target.y)
            bend = (end[1] - start[1]) / 2
            curve = (start, (start[0], start[1] + bend), (end[0], end[1] - bend), end)
            # Labels go in the gap above the target, off the boxes that a long edge crosses;
            # labels of edges from or into the same box sit at different heights.
            shift = 15 * (_rank(leaving[edge.source], index) + _rank(entering[edge.target], index))
            height = min(end[1] - 12, max(end[1] - _ROW_GAP + 12, end[1] - _ROW_GAP / 2 + shift))
            routes.append(_bezier(curve, _at_height(curve, height)))
        else:
            # The vertical part crosses the rows between the two (or their own row).
            crossed = range(target.row + 1, source.row) if target.row < source.row else {source.row}
            ends = [source.x + source.width * 0.8, target.x + target.width * 0.8]
            passed = [right[n] for n, b in boxes.items() if b.row in crossed]
            channel = max(ends + passed) + 24 + 18 * channels
            over = source.y - 12 - 6 * channels
            under = target.y + target.height + 14 + 6 * channels
            channels += 1
            points = [
                (source.x + source.width * 0.8, source.y),
                (source.x + source.width * 0.8, over),
                (channel, over),
                (channel, under),
                (target.x + target.width * 0.8, under),
                (target.x + target.width * 0.8, target.y + target.height),
            ]
            share = _CHANNEL_LABELS[(channels - 1) % len(_CHANNEL_LABELS)]
            label_at = (channel + 4, over + (under - over) * share + 4)
            routes.append(_Route(_rounded(points), label_at, "start", tuple(points)))
    return routes


_CHANNEL_LABELS = (0.5, 0.3, 0.7, 0.4, 0.6, 0.2, 0.8)
"""Where along its channel each successive upward edge is labelled, to keep labels apart."""


def _at_height(points: tuple[Point, Point, Point, Point], height: float) -> float:
    """The parameter where a downward curve is at ``height`` (bisection: y grows with t)."""
    low, high = 0.0, 1.0
    for _ in range(24):
        middle = (low + high) / 2
        low, high = (middle, high) if _point(points, middle)[1] < height else (low, middle)
    return (low + high) / 2


def _loop_reach(lane: int) -> float:
    """How far right of its box the ``lane``-th self-loop reaches."""
    return 34.0 + 14 * lane


def _rank(siblings: list[int], index: int) -> float:
    """Where ``index`` is among ``siblings``, centred on 0."""
    return siblings.index(index) - (len(siblings) - 1) / 2


def _port(box: _Box, indexes: list[int], index: int) -> float:
    """Where edge ``index`` meets ``box``: its share of the box's side."""
    return box.cx + box.width * _rank(indexes, index) / (len(indexes) + 1)


def _svg_label(text: str, route: _Route, color: str) -> tuple[str, Point]:
    """The label's SVG, and its bottom-right corner."""
    width = _text_width(text, 11) + 6
    x, y = route.label_at
    left = x - width / 2 if route.anchor == "middle" else x - 3
    svg = (
        f'<rect x="{left:.1f}" y="{y - 9:.1f}" width="{width:.1f}" height="14" rx="3" '
        f'fill="#ffffff" fill-opacity="0.85"/>'
        f'<text x="{x:.1f}" y="{y + 2:.1f}" text-anchor="{route.anchor}" font-size="11" '
        f'fill="{color}" {_FONT}>{html.escape(text)}</text>'
    )
    return svg, (left + width, y + 5)


def _svg_node(picture: _Picture, box: _Box, key: str) -> str:
    node = box.node
    if node == GLOBAL:
        radius = box.height / 2
        return (
            f'<g class="dk-global"><circle cx="{box.cx:.1f}" cy="{box.y + radius:.1f}" '
            f'r="{radius:.1f}" fill="#f8f9fa" stroke="{_MUTED}" stroke-width="1.5"/>'
            f'<text x="{box.cx:.1f}" y="{box.y + radius + 5:.1f}" text-anchor="middle" '
            f'font-size="16" fill="{_MUTED}" {_FONT}>{GLOBAL}</text></g>'
        )
    scenario = picture.scenario
    terminal = scenario.has_node(node) and scenario.node(node).terminal
    classes = ["dk-node"]
    fill, stroke, width, dash = "#ffffff", _INK, 1.5, ""
    if terminal:
        classes.append("dk-terminal")
        fill = "#f1f3f5"
    if node == scenario.entry:
        classes.append("dk-entry")
        width = 3.0
    if node in picture.missing:
        classes.append("dk-missing")
        fill, stroke, dash = "#fff5f5", _ALERT, ' stroke-dasharray="4 3"'
    if node in picture.visited:
        classes.append("dk-visited")
        fill = "#d0ebff"
    if node in picture.on_path:
        classes.append("dk-path")
        stroke, width = _HIGHLIGHT, 3.0
    radius = box.height / 2 if terminal else 6
    text = "".join(
        f'<tspan x="{box.cx:.1f}" dy="{0 if i == 0 else _LINE}" font-weight="{weight}">'
        f"{html.escape(line)}</tspan>"
        for i, (line, weight) in enumerate(zip(box.lines, ("600", "400"), strict=False))
    )
    return (
        f'<g class="{" ".join(classes)}" data-node="{html.escape(node)}" id="{key}">'
        f"<title>{html.escape(node)}</title>"
        f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.width:.1f}" '
        f'height="{box.height:.1f}" rx="{radius:.1f}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{width}"{dash}/>'
        f'<text x="{box.cx:.1f}" y="{box.y + 8 + 12:.1f}" text-anchor="middle" font-size="12" '
        f'fill="{_INK}" {_FONT}>{text}</text></g>'
    )


def to_svg(
    scenario: Scenario,
    *,
    path: Sequence[str] | None = None,
    coverage: AbstractSet[str] | None = None,
) -> str:
    """A standalone SVG document of the graph, drawn without JavaScript or network."""
    picture = _Picture.of(scenario, path, coverage)
    boxes = _boxes(picture)
    # Several pictures can share one notebook page, where ids are global: make them unique.
    digest = hashlib.sha1(
        repr((scenario.to_dict(), list(path or ()), sorted(coverage or ()))).encode()
    ).hexdigest()[:8]
    prefix = f"dk{digest}"
    markers = "".join(
        f'<marker id="{prefix}-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" '
        f'markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>'
        for name, color in (("ink", _INK), ("muted", _MUTED), ("hot", _HIGHLIGHT))
    )
    corners = [(b.x + b.width, b.y + b.height) for b in boxes.values()]
    curves: list[str] = []
    labels: list[str] = []
    for index, (edge, route) in enumerate(zip(picture.edges, _routes(picture, boxes), strict=True)):
        hot = index in picture.path_edges
        tone = "hot" if hot else "muted" if edge.source == GLOBAL else "ink"
        color = {"hot": _HIGHLIGHT, "muted": _MUTED, "ink": _INK}[tone]
        dash = {"default": ' stroke-dasharray="6 4"', "turn_limit": ' stroke-dasharray="2 3"'}
        curves.append(
            f'<path class="dk-edge" d="{route.d}" fill="none" stroke="{color}" '
            f'stroke-width="{2.5 if hot else 1.3}"{dash.get(edge.kind, "")} '
            f'marker-end="url(#{prefix}-{tone})"/>'
        )
        corners += route.bounds
        if edge.label:
            label, corner = _svg_label(edge.label, route, color)
            labels.append(label)
            corners.append(corner)
    nodes = [_svg_node(picture, box, f"{prefix}-{picture.keys[n]}") for n, box in boxes.items()]
    width = max((x for x, _ in corners), default=0.0) + _MARGIN
    height = max((y for _, y in corners), default=0.0) + _MARGIN
    title = html.escape(scenario.name or scenario.slug or "scenario")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img">'
        f"<title>{title}</title><defs>{markers}</defs>"
        f"{''.join(curves)}{''.join(nodes)}{''.join(labels)}</svg>"
    )


_LEGEND = (
    "bold outline: entry · rounded: terminal · dashed: default_next · grey: global transitions "
    "from * · loops: actions"
)


def to_html(
    scenario: Scenario,
    *,
    path: Sequence[str] | None = None,
    coverage: AbstractSet[str] | None = None,
) -> str:
    """The SVG with a legend and the Mermaid source, as one HTML fragment (works offline)."""
    legend = _LEGEND
    if coverage:
        legend += " · blue: visited"
    if path:
        legend += " · orange: the session's path"
    mermaid = html.escape(to_mermaid(scenario, path=path, coverage=coverage))
    return (
        '<div class="dialogkit-graph" style="overflow-x:auto">'
        f"{to_svg(scenario, path=path, coverage=coverage)}"
        f'<div style="font-size:11px;color:{_MUTED}">{html.escape(legend)}</div>'
        '<details><summary style="font-size:11px">Mermaid source</summary>'
        f"<pre>{mermaid}</pre></details></div>"
    )
