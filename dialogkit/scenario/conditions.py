"""Evaluation of transition conditions against a turn's scope."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dialogkit.scenario.model import AllOf, AnyOf, Condition, ConditionExpr, Not
from dialogkit.scenario.paths import MISSING, resolve
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
    left, right = _number(actual), _number(expected)
    if left is not None and right is not None and not isinstance(actual, str):
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


__all__ = ["MISSING", "compile_pattern", "evaluate", "iter_conditions"]
