"""Simulate users and evaluate a scenario across model choices.

``evaluate(scenario, users=1000, models=["offline", "my-model"], repeats=4)`` runs simulated
conversations (``RuleUser`` offline, or ``LLMUser`` played by a model) and returns
``Results``: pandas tables, task success per persona, named failure kinds (``KINDS``),
pass^k, cost, latency, a node funnel, plots and failing transcripts. Goals and sessions share
one ``Clock``.
See ``docs/evaluate.md``.
"""

from dialogkit.evaluate.clock import Clock
from dialogkit.evaluate.failures import KINDS
from dialogkit.evaluate.goal import Goal, Verdict
from dialogkit.evaluate.llm_user import LLMUser
from dialogkit.evaluate.metrics import pass_hat_k, task_pass_hat_k
from dialogkit.evaluate.results import Results
from dialogkit.evaluate.rule_user import RuleUser
from dialogkit.evaluate.runner import Task, aevaluate, evaluate, make_tasks
from dialogkit.evaluate.users import MIX, PERSONAS, Persona, SimulatedUser, Situation, Utterance

__all__ = [
    "KINDS",
    "MIX",
    "PERSONAS",
    "Clock",
    "Goal",
    "LLMUser",
    "Persona",
    "Results",
    "RuleUser",
    "SimulatedUser",
    "Situation",
    "Task",
    "Utterance",
    "Verdict",
    "aevaluate",
    "evaluate",
    "make_tasks",
    "pass_hat_k",
    "task_pass_hat_k",
]
