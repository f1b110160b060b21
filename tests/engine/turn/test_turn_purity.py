"""The pure steps stay pure: choosing the move and accepting values do no I/O and know
nothing of the engine, the store or a provider."""

from __future__ import annotations

import ast
import inspect

import pytest

from dialogkit.engine.turn import gate, moves, slots

FORBIDDEN = ("dialogkit.engine.engine", "dialogkit.store", "dialogkit.llm", "dialogkit.skills")


@pytest.mark.parametrize("module", [gate, moves, slots], ids=lambda m: m.__name__)
def test_a_pure_step_has_no_coroutine_and_imports_no_engine_store_or_provider(
    module: object,
) -> None:
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    assert not [node.name for node in ast.walk(tree) if isinstance(node, ast.AsyncFunctionDef)]
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert not [name for name in imported if name.startswith(FORBIDDEN)]
