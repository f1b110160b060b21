"""Offline engine throughput and latency: ``make bench`` (or ``python -m benchmarks.turns``).

Walks the coffee example to completion in many sessions, sequentially and concurrently,
and prints turns per second and per-turn latency percentiles. Nothing leaves the process.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter

COFFEE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "coffee.json"
SCRIPT = ["I'd like a latte", "", "big", "actually change it", "black coffee", "small", "yes"]


async def walk(engine: Engine, scenario: Scenario, latencies: list[float]) -> None:
    session = await engine.astart(scenario)
    for text in SCRIPT:
        started = time.perf_counter()
        await session.asend(text)
        latencies.append((time.perf_counter() - started) * 1000)


async def run(sessions: int, concurrency: int) -> None:
    engine = Engine(router=OfflineRouter())
    scenario = Scenario.from_file(COFFEE)
    latencies: list[float] = []
    semaphore = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with semaphore:
            await walk(engine, scenario, latencies)

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(sessions)))
    elapsed = time.perf_counter() - started
    quantiles = statistics.quantiles(latencies, n=100)
    print(
        f"sessions={sessions} concurrency={concurrency} turns={len(latencies)} "
        f"elapsed={elapsed:.2f}s turns/s={len(latencies) / elapsed:,.0f} "
        f"p50={quantiles[49]:.2f}ms p95={quantiles[94]:.2f}ms p99={quantiles[98]:.2f}ms"
    )
    await engine.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=500)
    args = parser.parse_args()
    for concurrency in (1, 50):
        asyncio.run(run(args.sessions, concurrency))


if __name__ == "__main__":
    main()
