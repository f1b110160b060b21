"""Evaluation of transition conditions against a turn's scope."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dialogkit.scenario.model import (
    AllOf,
    AnyOf,
    Condition,
    ConditionExpr,
    Not,
    ScenarioDocument,
)
from dialogkit.scenario.paths import MISSING, compile_path, resolve
from dialogkit.scenario.patterns import compile_pattern, linear_pattern


def _present(actual: Any) -> bool:
    return actual is not MISSING and actual is not None and actual != "" and actual != []


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _equals(actual: Any, expected: Any) -> bool:
    if actual is MISSING:
        return False
    if isinstance(actual, str):
        # A string is compared as written ("01" is not 1), so no number is parsed.
        return bool(actual == expected)
    left, right = _number(actual), _number(expected)
    if left is not None and right is not None:
        return left == right
    return bool(actual == expected)


def _order(actual: Any, expected: Any, compare: Callable[[Any, Any], bool]) -> bool:
    left, right = _number(actual), _number(expected)
    if left is not None and right is not None:
        return compare(left, right)
    if isinstance(actual, str) and isinstance(expected, str):
        return compare(actual, expected)
    return False


def _contains(actual: Any, expected: Any) -> bool:
    if isinstance(actual, str):
        return isinstance(expected, str) and expected.lower() in actual.lower()
    if isinstance(actual, list | tuple | set | frozenset):
        return expected in actual
    if isinstance(actual, Mapping):
        return expected in actual
    return False


def _matches(actual: Any, expected: Any) -> bool:
    if not _present(actual) or not isinstance(expected, str):
        return False
    # RE2 only: a pattern it cannot run is a validator error and never matches here.
    pattern = linear_pattern(expected)
    return pattern is not None and pattern.search(str(actual)) is not None


def _in(actual: Any, expected: Any) -> bool:
    return isinstance(expected, list) and any(_equals(actual, item) for item in expected)


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "equals": _equals,
    "not_equals": lambda a, e: not _equals(a, e),
    "in": _in,
    "not_in": lambda a, e: not _in(a, e),
    "contains": _contains,
    "exists": lambda a, _e: _present(a),
    "not_exists": lambda a, _e: not _present(a),
    "gt": lambda a, e: _order(a, e, lambda x, y: x > y),
    "gte": lambda a, e: _order(a, e, lambda x, y: x >= y),
    "lt": lambda a, e: _order(a, e, lambda x, y: x < y),
    "lte": lambda a, e: _order(a, e, lambda x, y: x <= y),
    "matches": _matches,
}


def evaluate(expr: ConditionExpr | None, scope: Mapping[str, Any]) -> bool:
    """True when ``expr`` holds in ``scope``; an absent condition always holds."""
    if expr is None:
        return True
    if isinstance(expr, AllOf):
        return all(evaluate(item, scope) for item in expr.all)
    if isinstance(expr, AnyOf):
        return any(evaluate(item, scope) for item in expr.any)
    if isinstance(expr, Not):
        return not evaluate(expr.not_, scope)
    return _evaluate_condition(expr, scope)


def _evaluate_condition(condition: Condition, scope: Mapping[str, Any]) -> bool:
    operator = _OPERATORS.get(condition.operator)
    if operator is None:
        return False
    return operator(resolve(scope, condition.field), condition.value)


Predicate = Callable[[Mapping[str, Any]], bool]


def compile_condition(expr: ConditionExpr | None) -> Predicate:
    """``expr`` as a function of the scope, holding exactly when ``evaluate`` says it does:
    the tree is walked and each leaf's operator looked up once, not on every turn."""
    if expr is None:
        return lambda _scope: True
    if isinstance(expr, AllOf):
        every = tuple(compile_condition(item) for item in expr.all)
        return lambda scope: all(part(scope) for part in every)
    if isinstance(expr, AnyOf):
        some = tuple(compile_condition(item) for item in expr.any)
        return lambda scope: any(part(scope) for part in some)
    if isinstance(expr, Not):
        inner = compile_condition(expr.not_)
        return lambda scope: not inner(scope)
    operator = _OPERATORS.get(expr.operator)
    if operator is None:
        return lambda _scope: False
    field, value = expr.field, expr.value
    walk = compile_path(field)
    if _is_word(value) and expr.operator in ("equals", "not_equals"):
        # Nothing equals a word that is not a number but the word itself: no parsing.
        if expr.operator == "equals":
            return lambda scope: bool(walk(scope) == value)
        return lambda scope: not bool(walk(scope) == value)
    words = _words(value)
    if words and expr.operator == "in":
        return lambda scope: walk(scope) in words
    if words and expr.operator == "not_in":
        return lambda scope: walk(scope) not in words
    if expr.operator == "exists":
        return lambda scope: _present(walk(scope))
    return lambda scope: operator(walk(scope), value)


def _words(value: Any) -> tuple[str, ...]:
    """The items of a list made only of words (empty otherwise)."""
    if isinstance(value, list) and all(_is_word(item) for item in value):
        return tuple(value)
    return ()


def _is_word(value: Any) -> bool:
    """A string that is not a number: ``_equals`` compares it as written, whatever the actual
    value is, so a compiled condition may compare it directly."""
    return isinstance(value, str) and _number(value) is None


class CompiledConditions:
    """Every transition condition of a scenario compiled once (kept with the shared scenario:
    a turn tests a dozen conditions, the same ones in every session)."""

    def __init__(self, document: ScenarioDocument) -> None:
        transitions = [
            *document.graph.global_transitions,
            *(t for node in document.graph.nodes for t in node.next_nodes),
        ]
        self._compiled = {
            id(t.condition): (t.condition, compile_condition(t.condition))
            for t in transitions
            if t.condition is not None
        }

    def holds(self, expr: ConditionExpr | None, scope: Mapping[str, Any]) -> bool:
        """``evaluate(expr, scope)``, compiled when ``expr`` belongs to the scenario."""
        known = self._compiled.get(id(expr))
        if known is not None and known[0] is expr:
            return known[1](scope)
        return evaluate(expr, scope)


def iter_conditions(expr: ConditionExpr | None, path: str) -> list[tuple[Condition, str]]:
    """Every leaf condition of ``expr`` with its JSON path, for validation and NLU hints."""
    if expr is None:
        return []
    if isinstance(expr, AllOf):
        return [
            leaf
            for i, item in enumerate(expr.all)
            for leaf in iter_conditions(item, f"{path}.all[{i}]")
        ]
    if isinstance(expr, AnyOf):
        return [
            leaf
            for i, item in enumerate(expr.any)
            for leaf in iter_conditions(item, f"{path}.any[{i}]")
        ]
    if isinstance(expr, Not):
        return iter_conditions(expr.not_, f"{path}.not")
    return [(expr, path)]


__all__ = [
    "MISSING",
    "CompiledConditions",
    "compile_condition",
    "compile_pattern",
    "evaluate",
    "iter_conditions",
]
