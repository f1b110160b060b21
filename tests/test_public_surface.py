"""The public surface: each package exports exactly its curated, sorted ``__all__``, and
every exception dialogkit raises on purpose is a ``DialogkitError``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types

import pytest

import dialogkit
from dialogkit.errors import DialogkitError

PACKAGES = [
    "dialogkit",
    "dialogkit.llm",
    "dialogkit.nlg",
    "dialogkit.nlu",
    "dialogkit.skills",
    "dialogkit.store",
]


def public_names(module: types.ModuleType) -> set[str]:
    """What ``from module import *`` would offer without ``__all__``: public attributes that
    are not submodules (importing a submodule makes it an attribute of its package)."""
    return {
        name
        for name in dir(module)
        if not name.startswith("_") and not isinstance(getattr(module, name), types.ModuleType)
    }


def isort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then functions (ruff's RUF022 order)."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


@pytest.mark.parametrize("name", PACKAGES)
def test_a_package_exports_exactly_its_sorted_all(name: str) -> None:
    package = importlib.import_module(name)
    exported = package.__all__
    assert exported == sorted(exported, key=isort_key), f"{name}.__all__ is not sorted"
    assert len(set(exported)) == len(exported)
    for attribute in exported:
        assert getattr(package, attribute) is not None, f"{name}.{attribute}"
    assert public_names(package) == set(exported) - {"__version__"}


def test_the_extension_points_are_exported() -> None:
    from dialogkit import nlg, nlu, skills, store

    assert {"NLUProvider", "NLURequest", "NLUResult", "coerce"} <= set(nlu.__all__)
    assert {"NLGProvider", "NLGRequest"} <= set(nlg.__all__)
    assert {"SessionStore", "StoredSession", "RecordLimits"} <= set(store.__all__)
    assert {"SkillRunner", "SkillCall", "SkillOutcome"} <= set(skills.__all__)
    # The lazily imported names are the very objects of their home modules.
    from dialogkit.nlu._entities import coerce

    assert nlu.coerce is coerce


# The modules of the extension-point packages that users import or extend by name; every
# other module there is an implementation detail and starts with "_".
PUBLIC_MODULES = {
    "dialogkit.nlu.lang",  # a contributor adds a language as dialogkit/nlu/lang/<code>.py
    "dialogkit.store.redis",  # RedisStore needs the redis extra; the package cannot import it
    "dialogkit.skills.runtime",  # the reference skill runtime, an app run as a module
}
EXTENSION_PACKAGES = [
    "dialogkit.llm",
    "dialogkit.nlg",
    "dialogkit.nlu",
    "dialogkit.skills",
    "dialogkit.store",
]


@pytest.mark.parametrize("name", EXTENSION_PACKAGES)
def test_an_extension_package_keeps_its_implementation_modules_private(name: str) -> None:
    package = importlib.import_module(name)
    modules = {f"{name}.{info.name}" for info in pkgutil.iter_modules(package.__path__)}
    assert modules, name
    public = {module for module in modules if not module.rpartition(".")[2].startswith("_")}
    assert public == {module for module in PUBLIC_MODULES if module.startswith(f"{name}.")}, (
        "name an implementation module _name.py (export what users need from the package), "
        "or list a module users import on purpose in PUBLIC_MODULES"
    )


def test_the_documented_router_import_works() -> None:
    from dialogkit.llm import ModelRouter
    from dialogkit.llm._router import ModelRouter as home

    assert ModelRouter is home


def every_module() -> list[types.ModuleType]:
    modules = []
    for info in pkgutil.walk_packages(dialogkit.__path__, "dialogkit."):
        if ".notebook" in info.name or ".runtime" in info.name:
            continue  # optional extras (ipywidgets, sanic); their errors are checked below
        modules.append(importlib.import_module(info.name))
    return modules


def test_every_exception_class_is_a_dialogkit_error() -> None:
    found = {
        cls
        for module in every_module()
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, BaseException) and cls.__module__.startswith("dialogkit")
    }
    assert len(found) >= 20
    strays = sorted(cls.__qualname__ for cls in found if not issubclass(cls, DialogkitError))
    assert strays == []


def test_store_errors_live_in_the_error_tree() -> None:
    from dialogkit import errors

    assert issubclass(errors.SessionBusy, DialogkitError)
    assert issubclass(errors.LockLost, DialogkitError)
    assert "SessionBusy" in (errors.__doc__ or "") and "LockLost" in (errors.__doc__ or "")
