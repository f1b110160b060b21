"""Scenario graphs: the model, validation, conditions, templates and the registry."""

from dialogkit.scenario.model import (
    ACTIONS,
    OPERATORS,
    Condition,
    Intent,
    Node,
    ScenarioDocument,
    Slot,
    Transition,
)
from dialogkit.scenario.problems import Problem
from dialogkit.scenario.registry import registered_names
from dialogkit.scenario.scenario import Scenario
from dialogkit.scenario.validate import validate_document

__all__ = [
    "ACTIONS",
    "OPERATORS",
    "Condition",
    "Intent",
    "Node",
    "Problem",
    "Scenario",
    "ScenarioDocument",
    "Slot",
    "Transition",
    "registered_names",
    "validate_document",
]
