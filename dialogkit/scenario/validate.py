"""The scenario validator: every problem of a graph, each with its JSON path and a fix.

Structure errors come from pydantic (translated into paths of the raw document); content
checks run on the parsed model. Errors make a scenario unusable; warnings point at things
that are legal but probably unintended (an unreachable node, a node with no way out).
"""

from __future__ import annotations

import copy
import difflib
import re
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from dialogkit.nlu._builtin import BUILTIN_INTENT_NAMES
from dialogkit.scenario.conditions import iter_conditions
from dialogkit.scenario.model import (
    ACTIONS,
    OPERATORS,
    SKILL_PARAM_KEYS,
    Condition,
    Node,
    ScenarioDocument,
    ScenarioModel,
    Slot,
    Transition,
)
from dialogkit.scenario.paths import ROOTS, root_of
from dialogkit.scenario.patterns import FALLBACK_SEARCH_TIMEOUT_S, linear_error, pattern_error
from dialogkit.scenario.problems import NEAR_MISS_KEY, Problem, json_path
from dialogkit.scenario.slot_meaning import slot_meaning_problems
from dialogkit.scenario.templates import placeholders, variants

REQUIRED_METADATA = ("slug", "name", "language", "version")
TURN_FIELDS = frozenset({"node", "count", "node_turns", "fallbacks"})
NLU_FIELDS = frozenset({"intent", "entities", "confidence", "dialogue_act"})
INPUT_FIELDS = frozenset({"text", "confidence"})
SUGGESTION_CUTOFF = 0.6
"""How close (difflib ratio) a known name must be to an unknown one to be suggested."""
LISTED_CHOICES = 12
"""Known names listed when none is close (a large graph would otherwise list them all)."""
ENGINE_CONTEXT_KEYS = frozenset({"session_user", "last_skill_status", "time_of_day", "daypart"})
"""Context keys the engine owns; scenarios and skills cannot write them."""


def validate_document(data: Any) -> tuple[ScenarioDocument | None, list[Problem]]:
    """Parse ``data`` and return the model (None when unparseable) with every problem.

    Structure errors do not hide the content problems: when dropping the malformed values
    (each back to its default) lets the rest parse, the content checks run on that rest, so
    an author sees everything in one pass. Findings under a dropped value are left out.
    """
    if not isinstance(data, dict):
        return None, [Problem(path="", message="A scenario must be a JSON object.")]
    try:
        document = ScenarioDocument.model_validate(data)
    except ValidationError as exc:
        problems = structure_problems(exc, data)
        return None, problems + _problems_of_the_rest(exc, data, problems)
    return document, list(_Checker(document, data).run())


def structure_problems(exc: ValidationError, data: Any) -> list[Problem]:
    """pydantic errors as problems whose paths point into the raw document."""
    problems = []
    for error in exc.errors():
        path = json_path(_raw_loc(error["loc"], data))
        problems.append(Problem(path=path, message=_structure_message(error)))
    return problems


MAX_REPAIRS = 8
"""Rounds of dropping malformed values before giving up on the content checks."""


def _problems_of_the_rest(
    exc: ValidationError, data: dict[str, Any], structure: list[Problem]
) -> list[Problem]:
    """The content problems of ``data`` without its malformed values, when it then parses."""
    rest = copy.deepcopy(data)
    for _round in range(MAX_REPAIRS):
        dropped_any = [_drop(rest, _raw_loc(error["loc"], rest)) for error in exc.errors()]
        if not any(dropped_any):
            return []  # a required value is missing or a list item is malformed: stop here
        try:
            document = ScenarioDocument.model_validate(rest)
        except ValidationError as again:
            exc = again
            continue
        dropped = [problem.path for problem in structure]
        seen = {(problem.path, problem.message) for problem in structure}
        return [
            problem
            for problem in _Checker(document, rest).run()
            if (problem.path, problem.message) not in seen
            and not any(_within(problem.path, path) for path in dropped)
        ]
    return []


def _drop(data: Any, loc: list[str | int]) -> bool:
    """Remove the dict entry at ``loc`` (its default then applies); False when there is
    none (a missing value) or it is a list item (removing it would shift later paths)."""
    if not loc or not isinstance(loc[-1], str):
        return False
    parent = data
    for part in loc[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return False
    if isinstance(parent, dict) and loc[-1] in parent:
        del parent[loc[-1]]
        return True
    return False


def _within(path: str, outer: str) -> bool:
    return path == outer or path.startswith((f"{outer}.", f"{outer}["))


def _structure_message(error: Any) -> str:
    if error["type"] == "missing":
        return "This field is required."
    hint = ""
    given = error.get("input")
    if error["type"] == "literal_error" and isinstance(given, str):
        choices = re.findall(r"'([^']*)'", str(error.get("ctx", {}).get("expected", "")))
        hint = suggestion(given, choices, "; ")
    return f"{error['msg']} (got {given!r}){hint or '.'}"


def _raw_loc(loc: Iterable[str | int], data: Any) -> list[str | int]:
    """Drop the union tags pydantic inserts, keeping only steps that exist in ``data``."""
    kept: list[str | int] = []
    current = data
    parts = list(loc)
    for index, part in enumerate(parts):
        if isinstance(current, dict | list) and not isinstance(current, str):
            try:
                current = current[part]  # type: ignore[index]
            except (KeyError, IndexError, TypeError):
                pass
            else:
                kept.append(part)
                continue
        if index == len(parts) - 1 and isinstance(part, str) and isinstance(current, dict):
            kept.append(part)
    return kept


class _Checker:
    def __init__(self, document: ScenarioDocument, raw: dict[str, Any]) -> None:
        self.doc = document
        self.raw = raw
        self.node_ids = {node.id for node in document.graph.nodes}
        self.intents = set(document.intents) | BUILTIN_INTENT_NAMES

    def run(self) -> Iterator[Problem]:
        yield from _unknown_keys(self.doc, "")
        yield from self._metadata()
        yield from self._registries()
        yield from self._graph()
        for index, node in enumerate(self.doc.graph.nodes):
            yield from self._node(node, f"graph.nodes[{index}]")
        for index, transition in enumerate(self.doc.graph.global_transitions):
            yield from self._transition(transition, f"graph.global_transitions[{index}]", None)
        for key, template in self.doc.responses.items():
            yield from self._template(template, f"responses.{key}")
        yield from self._reachability()

    def _metadata(self) -> Iterator[Problem]:
        if "metadata" not in self.raw:
            yield Problem(
                path="metadata",
                message="The scenario has no metadata; add slug, name, language and version.",
            )
            return
        for key in REQUIRED_METADATA:
            if not getattr(self.doc.metadata, key).strip():
                yield Problem(
                    path=f"metadata.{key}",
                    message=f"The scenario's {key} is required: give a non-empty string.",
                )
        if not self.doc.metadata.description.strip():
            yield Problem(
                path="metadata.description",
                message="A description of the scenario's purpose is recommended.",
                severity="warning",
            )
        if not self.doc.prompts.bot.strip():
            yield Problem(
                path="prompts.bot",
                message="A bot prompt (persona and reply style) is recommended for LLM NLG.",
                severity="warning",
            )

    def _registries(self) -> Iterator[Problem]:
        for name, intent in self.doc.intents.items():
            for i, pattern in enumerate(intent.patterns):
                yield from self._regex(pattern, f"intents.{name}.patterns[{i}]")
        for name, slot in self.doc.slots.items():
            path = f"slots.{name}"
            if slot.type == "enum" and not slot.values:
                yield Problem(path=f"{path}.values", message="An enum slot needs `values`.")
            for value in slot.synonyms:
                if value not in slot.values:
                    yield Problem(
                        path=f"{path}.synonyms.{value}",
                        message=f"Synonyms for {value!r}, which is not one of `values`.",
                    )
            if slot.type == "pattern" and not slot.pattern:
                yield Problem(
                    path=f"{path}.pattern", message="A pattern slot needs an extraction `pattern`."
                )
            if slot.pattern:
                yield from self._regex(slot.pattern, f"{path}.pattern")
            if slot.validation.pattern:
                yield from self._regex(slot.validation.pattern, f"{path}.validation.pattern")
            yield from self._eval_values(name, slot)
            if not slot.prompt.strip():
                yield Problem(
                    path=f"{path}.prompt",
                    message="No prompt: the bot cannot ask for this slot by name.",
                    severity="warning",
                )

        yield from slot_meaning_problems(self.doc.slots)

    def _eval_values(self, name: str, slot: Slot) -> Iterator[Problem]:
        """Values simulated users are given must be values the slot accepts; a text slot
        with none to give them gets made-up ones, which the author should know."""
        from dialogkit.nlu._entities import INVALID, coerce
        from dialogkit.nlu._kinds import slot_kind

        if (
            slot.type == "text"
            and not (slot.examples or slot.eval_values or slot.pattern)
            and slot_kind(name, slot) == "free_text"
        ):
            # Names, phones, e-mails and addresses come from per-language banks that fit them;
            # only a free text is made up without knowing what the slot is about.
            yield Problem(
                path=f"slots.{name}",
                message="No `examples` or `eval_values`: `dialogkit eval` gives simulated "
                "users a generated free text "
                "(see docs/evaluate.md, 'Generated values'); add a few values your users "
                "would say.",
                severity="warning",
            )

        for i, value in enumerate(slot.eval_values):
            if coerce(slot, value, name=name) is INVALID:
                yield Problem(
                    path=f"slots.{name}.eval_values[{i}]",
                    message=f"{value!r} is not a valid {slot.type} value for this slot "
                    "(type, values, pattern and validation); fix or remove it.",
                )

    def _graph(self) -> Iterator[Problem]:
        graph = self.doc.graph
        if not graph.nodes:
            yield Problem(path="graph.nodes", message="The graph has no nodes; add at least one.")
        if not graph.entry:
            yield Problem(path="graph.entry", message="graph.entry (the first node id) is missing.")
        elif graph.entry not in self.node_ids:
            yield Problem(
                path="graph.entry",
                message=f"The entry node {graph.entry!r} does not exist; "
                f"use one of {sorted(self.node_ids)}.",
            )
        seen: dict[str, int] = {}
        for index, node in enumerate(graph.nodes):
            if not node.id.strip():
                yield Problem(path=f"graph.nodes[{index}].id", message="A node id is empty.")
            elif node.id in seen:
                yield Problem(
                    path=f"graph.nodes[{index}].id",
                    message=f"Duplicate node id {node.id!r} (first used by "
                    f"graph.nodes[{seen[node.id]}]); node ids must be unique.",
                )
            else:
                seen[node.id] = index

    def _node(self, node: Node, path: str) -> Iterator[Problem]:
        if not node.description.strip():
            yield Problem(
                path=f"{path}.description",
                message="The node has no description; LLM NLG uses it to scope the reply.",
                severity="warning",
            )
        for field in ("collect_slots", "accept_slots"):
            for i, slot in enumerate(getattr(node, field)):
                if slot not in self.doc.slots:
                    yield self._undeclared_slot(slot, f"{path}.{field}[{i}]")
        params = node.params
        skill_keys = SKILL_PARAM_KEYS & params.model_fields_set
        if not params.skill.strip() and skill_keys:
            yield Problem(
                path=f"{path}.params.skill",
                message=f"The node has skill parameters ({', '.join(sorted(skill_keys))}) "
                "but no skill name; set params.skill.",
            )
        for key, source in params.input_map.items():
            yield from self._path_ref(source, f"{path}.params.input_map.{key}")
        for destination in params.result_map:
            yield from self._destination(destination, f"{path}.params.result_map.{destination}")
        if params.turn_limit_enabled and params.turn_limit is None:
            yield Problem(
                path=f"{path}.params.turn_limit",
                message="turn_limit_enabled is set but turn_limit is missing.",
                severity="warning",
            )
        if params.turn_limit_next is not None and params.turn_limit_next not in self.node_ids:
            yield self._unknown_node(params.turn_limit_next, f"{path}.params.turn_limit_next")
        for i, transition in enumerate(node.next_nodes):
            yield from self._transition(transition, f"{path}.next_nodes[{i}]", node)
        if node.default_next is not None and node.default_next not in self.node_ids:
            yield self._unknown_node(node.default_next, f"{path}.default_next")
        for key, template in node.responses.items():
            yield from self._template(template, f"{path}.responses.{key}")
        if node.outcome is not None and not node.terminal:
            yield Problem(
                path=f"{path}.outcome",
                message="`outcome` only counts on a terminal node (where a session completes); "
                "set terminal: true or remove it.",
                severity="warning",
            )
        if not node.terminal and not self._has_way_out(node):
            yield Problem(
                path=path,
                message=f"Node {node.id!r} is not terminal but has no transition with a target "
                "and no default_next; the conversation can get stuck there.",
                severity="warning",
            )
        passes_on = node.default_next is not None or any(
            (t.target or t.action == "back") and t.condition is None for t in node.next_nodes
        )
        if not node.wait_for_input and not passes_on and not node.terminal:
            yield Problem(
                path=f"{path}.wait_for_input",
                message="wait_for_input is false but there is no default_next or unconditional "
                "transition to pass on to (a target, or the action back).",
                severity="warning",
            )

    def _has_way_out(self, node: Node) -> bool:
        transitions = [*node.next_nodes, *self.doc.graph.global_transitions]
        return (
            node.default_next is not None
            or node.params.turn_limit_next is not None
            or any(t.target is not None or t.action in {"back", "restart"} for t in transitions)
        )

    def _transition(
        self, transition: Transition, path: str, node: Node | None
    ) -> Iterator[Problem]:
        if (transition.target is None) == (transition.action is None):
            yield Problem(
                path=path,
                message="A transition needs exactly one of `target` (a node id) or `action`.",
            )
        if transition.target is not None and transition.target not in self.node_ids:
            yield self._unknown_node(transition.target, f"{path}.target")
        if transition.action is not None and transition.action not in ACTIONS:
            yield Problem(
                path=f"{path}.action",
                message=f"Unknown action {transition.action!r}; use one of {sorted(ACTIONS)}.",
            )
        if (
            node is None
            and transition.action in {"stay", "repeat"}
            and transition.condition is None
        ):
            yield Problem(
                path=path,
                message="An unconditional global transition matches every turn.",
                severity="warning",
            )
        if node is not None and node.collect_slots and transition.condition is None:
            yield Problem(
                path=path,
                message="An unconditional transition on a slot-collecting node fires before "
                "its slots are filled; add a condition or use default_next.",
                severity="warning",
            )
        for condition, cpath in iter_conditions(transition.condition, f"{path}.condition"):
            yield from self._condition(condition, cpath)
        for destination, value in transition.set_values.items():
            yield from self._destination(destination, f"{path}.set.{destination}")
            if isinstance(value, str):
                yield from self._template(value, f"{path}.set.{destination}")
        for destination in transition.append_values:
            if root_of(destination) != "context":
                yield Problem(
                    path=f"{path}.append.{destination}",
                    message="`append` writes lists in the context only: use `context.KEY`.",
                )
            else:
                yield from self._destination(destination, f"{path}.append.{destination}")
        for i, slot in enumerate(transition.clear_slots):
            if slot not in self.doc.slots:
                yield self._undeclared_slot(slot, f"{path}.clear_slots[{i}]")

    def _condition(self, condition: Condition, path: str) -> Iterator[Problem]:
        if condition.operator not in OPERATORS:
            yield Problem(
                path=f"{path}.operator",
                message=f"Unknown operator {condition.operator!r}; "
                + _fix(condition.operator, OPERATORS),
            )
        yield from self._path_ref(condition.field, f"{path}.field")
        if condition.operator in {"in", "not_in"} and not isinstance(condition.value, list):
            yield Problem(
                path=f"{path}.value", message=f"`{condition.operator}` needs a list value."
            )
        if condition.operator == "matches":
            if isinstance(condition.value, str):
                yield from self._regex(condition.value, f"{path}.value", linear=True)
            else:
                yield Problem(path=f"{path}.value", message="`matches` needs a regex string.")
        if condition.field == "nlu.intent":
            values = condition.value if isinstance(condition.value, list) else [condition.value]
            for value in values:
                if isinstance(value, str) and value not in self.intents:
                    yield Problem(
                        path=f"{path}.value",
                        message=_sentence(
                            f"Intent {value!r} is not declared in `intents`"
                            f"{suggestion(value, self.intents, '; ')}"
                        )
                        + " Language-model NLU can still choose it; declare it with examples "
                        "so offline NLU recognizes it too (until then it matches the words of "
                        "its name).",
                        severity="warning",
                    )

    def _path_ref(self, field: str, path: str) -> Iterator[Problem]:
        parts = field.split(".")
        root = parts[0]
        if root not in ROOTS:
            yield Problem(
                path=path,
                message=f"Field {field!r} has an unknown root {root!r}; use one of "
                f"{sorted(ROOTS)}.",
            )
            return
        second = parts[1] if len(parts) > 1 else ""
        if root == "slots" and second and second not in self.doc.slots:
            yield self._undeclared_slot(second, path)
        elif root == "nlu":
            if second not in NLU_FIELDS:
                yield Problem(
                    path=path,
                    message=f"Unknown NLU field {second!r}; use one of {sorted(NLU_FIELDS)}.",
                )
            elif second == "entities" and len(parts) > 2 and parts[2] not in self.doc.slots:
                yield Problem(
                    path=path,
                    message=_sentence(
                        f"Entity {parts[2]!r} is not a declared slot; entities are named "
                        f"after slots{suggestion(parts[2], self.doc.slots, ', ')}"
                    ),
                )
        elif root == "input" and second not in INPUT_FIELDS:
            yield Problem(
                path=path, message=f"Unknown input field {second!r}; use text or confidence."
            )
        elif root == "turn" and second not in TURN_FIELDS:
            yield Problem(
                path=path,
                message=f"Unknown turn counter {second!r}; use one of {sorted(TURN_FIELDS)}.",
            )

    def _destination(self, destination: str, path: str) -> Iterator[Problem]:
        root, _, key = destination.partition(".")
        if root not in {"slots", "context"} or not key:
            yield Problem(
                path=path, message=f"Destination {destination!r} must be slots.NAME or context.KEY."
            )
        elif root == "slots" and key not in self.doc.slots:
            yield self._undeclared_slot(key, path)
        elif root == "context" and (key in ENGINE_CONTEXT_KEYS or key.startswith("_")):
            yield Problem(path=path, message=f"Context key {key!r} is reserved for the engine.")

    def _template(self, template: str | list[str], path: str) -> Iterator[Problem]:
        refs = [ref for variant in variants(template) for ref in placeholders(variant)]
        for ref in refs:
            root, _, rest = ref.partition(".")
            if root == "slots" and rest.split(".")[0] not in self.doc.slots:
                yield Problem(
                    path=path,
                    message=f"Placeholder {{{ref}}} names an undeclared slot; it renders empty.",
                    severity="warning",
                )

    def _regex(self, pattern: str, path: str, *, linear: bool = False) -> Iterator[Problem]:
        """``linear``: only RE2 may run it (``matches``); else lookaround is allowed too."""
        invalid = pattern_error(pattern)
        if invalid is not None:
            yield Problem(path=path, message=f"Invalid regular expression: {invalid}.")
            return
        not_linear = linear_error(pattern)
        if not_linear is None:
            return
        if linear:
            yield Problem(
                path=path,
                message=f"`matches` runs on RE2, which cannot run this pattern ({not_linear}): "
                "remove lookaround and backreferences.",
            )
        else:
            yield Problem(
                path=path,
                message=f"RE2 cannot run this pattern ({not_linear}); it runs with a "
                f"{FALLBACK_SEARCH_TIMEOUT_S:g} s limit per search instead.",
                severity="warning",
            )

    def _unknown_node(self, target: str, path: str) -> Problem:
        return Problem(
            path=path, message=f"Node {target!r} does not exist; {_fix(target, self.node_ids)}"
        )

    def _undeclared_slot(self, name: str, path: str) -> Problem:
        return Problem(
            path=path,
            message=_sentence(
                f"Slot {name!r} is not declared in the `slots` registry"
                f"{suggestion(name, self.doc.slots, '; ')}"
            ),
        )

    def _reachability(self) -> Iterator[Problem]:
        graph = self.doc.graph
        if graph.entry not in self.node_ids:
            return
        nodes = {node.id: node for node in graph.nodes}
        global_targets = [t.target for t in graph.global_transitions if t.target]
        reached = {graph.entry}
        queue = deque([graph.entry])
        while queue:
            node = nodes[queue.popleft()]
            targets = [
                *(t.target for t in node.next_nodes if t.target),
                node.default_next,
                node.params.turn_limit_next,
                *global_targets,
            ]
            for target in targets:
                if target in nodes and target not in reached:
                    reached.add(target)
                    queue.append(target)
        for index, node in enumerate(graph.nodes):
            if node.id and node.id not in reached:
                yield Problem(
                    path=f"graph.nodes[{index}]",
                    message=f"Node {node.id!r} cannot be reached from the entry {graph.entry!r}.",
                    severity="warning",
                )


def _sentence(text: str) -> str:
    """``text`` ended with a full stop, unless it already ends a sentence ("...?")."""
    return text if text.endswith((".", "?", "!")) else f"{text}."


def suggestion(name: str, choices: Iterable[str], lead: str) -> str:
    """``lead`` + "did you mean `x`?" when a known name is close to ``name``, else empty."""
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=SUGGESTION_CUTOFF)
    return f"{lead}did you mean `{close[0]}`?" if close else ""


def _fix(name: str, choices: Iterable[str]) -> str:
    """The closest known name, else (some of) the names to choose from."""
    known = sorted(choices)
    close = suggestion(name, known, "")
    if close:
        return close
    shown = ", ".join(known[:LISTED_CHOICES])
    more = f" and {len(known) - LISTED_CHOICES} more" if len(known) > LISTED_CHOICES else ""
    return f"use one of {shown}{more}."


def one_edit_apart(typed: str, known: str) -> bool:
    """True when one insertion, deletion, substitution or swap of neighbours (or only case)
    turns ``typed`` into ``known``: the keys a finger slips into."""
    a, b = typed.lower(), known.lower()
    if a == b:
        return typed != known
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        swapped = len(diffs) == 2 and diffs[1] == diffs[0] + 1 and a[diffs[0]] == b[diffs[1]]
        return len(diffs) == 1 or (swapped and a[diffs[1]] == b[diffs[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _unknown_keys(model: BaseModel, path: str) -> Iterator[Problem]:
    """Keys the format does not define: kept and ignored, reported so typos are caught."""
    fields = type(model).model_fields
    known = [info.alias or name for name, info in fields.items()]
    for key in model.model_extra or {}:
        near = [name for name in known if one_edit_apart(key, name)]
        if near:
            yield Problem(
                path=f"{path}.{key}" if path else key,
                message=f"Unknown key `{key}`; did you mean `{near[0]}`? As written it is "
                "ignored, so the field does nothing.",
                severity="warning",
                code=NEAR_MISS_KEY,
            )
            continue
        hint = suggestion(key, known, "; ") or "; it is kept and ignored."
        yield Problem(
            path=f"{path}.{key}" if path else key,
            message=f"Unknown key `{key}`{hint}",
            severity="warning",
        )
    for name, info in fields.items():
        step = info.alias or name
        yield from _unknown_keys_in(getattr(model, name), f"{path}.{step}" if path else step)


def _unknown_keys_in(value: Any, path: str) -> Iterator[Problem]:
    if isinstance(value, ScenarioModel):
        yield from _unknown_keys(value, path)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _unknown_keys_in(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, ScenarioModel | list):
                yield from _unknown_keys_in(item, f"{path}.{key}")
