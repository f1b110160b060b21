"""Metric formulas that need no table library: pass^k and its per-task term.

pass^k (τ-bench) is the chance that *all* k independent trials of a task succeed. With n
trials of a task of which c succeeded, the unbiased estimate for that task is
C(c, k) / C(n, k); the metric is its mean over tasks. pass^1 is the plain success rate;
pass^k falls as k grows unless the agent is consistent.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb


def task_pass_hat_k(trials: int, successes: int, k: int) -> float:
    """C(c, k) / C(n, k) for one task; k must be between 1 and the number of trials."""
    if not 1 <= k <= trials:
        raise ValueError(f"pass^k needs 1 <= k <= trials per task; got k={k}, trials={trials}.")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within 0..{trials}; got {successes}.")
    return comb(successes, k) / comb(trials, k)


def pass_hat_k(tasks: Iterable[tuple[int, int]], k: int) -> float:
    """The mean of ``task_pass_hat_k`` over ``(trials, successes)`` per task."""
    values = [task_pass_hat_k(trials, successes, k) for trials, successes in tasks]
    if not values:
        raise ValueError("pass^k needs at least one task.")
    return sum(values) / len(values)
