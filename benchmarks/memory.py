"""Resident memory per session: ``python -m benchmarks.memory`` (part of ``make bench``).

Creates sessions by name (as ``POST /v1/session`` does) with the offline engine and the memory
store, sends each a few turns, and prints the growth of the resident set size divided by the
number of sessions. Goal: at most 8 KiB per session.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time

from dialogkit import Engine
from dialogkit.engine.providers import OfflineRouter

GOAL_KIB = 8.0
UTTERANCES = [
    "hello there",
    "I would like to talk about my day",
    "it was quite busy at work",
    "yes",
    "no, not really",
    "can you repeat that?",
    "what do you mean",
    "I went for a walk in the park after lunch",
    "thanks",
    "maybe tomorrow",
]


def resident_kib() -> int:
    """The process's resident set size (Linux ``/proc``)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("VmRSS not found in /proc/self/status")


async def run(sessions: int, turns: int, scenario: str) -> None:
    engine = Engine(router=OfflineRouter())
    warm = await engine.astart(scenario)  # loads the scenario and warms every code path
    for text in UTTERANCES:
        await warm.asend(text)
    gc.collect()
    before = resident_kib()
    started = time.perf_counter()
    ids = []
    for _ in range(sessions):
        session = await engine.astart(scenario)
        for index in range(turns):
            await session.asend(UTTERANCES[index % len(UTTERANCES)])
        ids.append(session.id)
        # A server's loop runs between requests; so must this one, or cancelled turn-deadline
        # timers (purged by the loop) would be counted as session memory.
        await asyncio.sleep(0)
    elapsed = time.perf_counter() - started
    gc.collect()
    grown = resident_kib() - before
    per_session = grown / sessions
    print(
        f"memory: {sessions:,} sessions of {scenario!r} x {turns} turns in {elapsed:.1f}s: "
        f"resident +{grown / 1024:.1f} MiB, {per_session:.2f} KiB/session "
        f"(goal <= {GOAL_KIB:g} KiB: ratio {per_session / GOAL_KIB:.2f})"
    )
    await engine.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--scenario", default="companion")
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.turns, args.scenario))


if __name__ == "__main__":
    main()
