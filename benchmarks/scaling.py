"""How a turn's cost scales: ``python -m benchmarks.scaling`` (part of ``make bench``).

- turn p50 with 10 / 100 / 1,000 turns of history already in the session (goal: 1,000
  within 1.2x of 10): a turn reads and writes only the small per-turn state;
- turn p50 on generated graphs of 10 / 100 / 1,000 nodes (goal: 1,000 within 1.5x of 10);
- session creation by name p50 (goal: at most 0.2 ms): the scenario is parsed once.

Offline engine (rule NLU, template NLG), memory store; nothing leaves the process.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import time
from typing import Any

from dialogkit import Engine, Scenario, Session
from dialogkit.engine.providers import OfflineRouter

HISTORY_GOAL = 1.2
GRAPH_GOAL = 1.5
CREATION_GOAL_MS = 0.2
WORDS = ["coffee", "weather", "train", "music", "garden", "doctor", "movie", "recipe", "bank"]


def _metadata(slug: str) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug,
        "description": "Generated.",
        "language": "en",
        "version": "1",
    }


def chat_graph() -> dict[str, Any]:
    """One node that stays on every input: the session only grows its history."""
    node = {
        "id": "chat",
        "description": "Chat.",
        "responses": {"default": ["Tell me more.", "Go on.", "I see.", "And then?"]},
        "next_nodes": [{"action": "stay"}],
    }
    return {"metadata": _metadata("chat"), "graph": {"entry": "chat", "nodes": [node]}}


def ring_graph(size: int) -> dict[str, Any]:
    """``size`` nodes in a ring, one intent each; node k moves on when it hears intent k+1."""
    intents = {
        f"topic{k}": {
            "examples": [f"let us talk about {WORDS[k % len(WORDS)]} number {k}"],
            "keywords": [f"kw{k}"],
        }
        for k in range(size)
    }
    nodes = []
    for k in range(size):
        following = (k + 1) % size
        nodes.append(
            {
                "id": f"n{k}",
                "description": f"Node {k}.",
                "responses": {"default": f"This is node {k}."},
                "next_nodes": [
                    {
                        "condition": {
                            "field": "nlu.intent",
                            "operator": "equals",
                            "value": f"topic{following}",
                        },
                        "target": f"n{following}",
                    },
                    {"action": "stay"},
                ],
            }
        )
    return {
        "metadata": _metadata(f"ring{size}"),
        "intents": intents,
        "graph": {"entry": "n0", "nodes": nodes},
    }


async def _timed(call: Any) -> float:
    started = time.perf_counter()
    await call
    return (time.perf_counter() - started) * 1000


async def interleaved_p50(
    sessions: dict[int, Session], texts: Any, samples: int
) -> dict[int, float]:
    """Turn p50 per session, sampling the sessions in turn so that every size sees the same
    machine (a loaded machine otherwise decides the ratio)."""
    times: dict[int, list[float]] = {size: [] for size in sessions}
    for index in range(samples):
        for size, session in sessions.items():
            times[size].append(await _timed(session.asend(texts(size, index))))
    return {size: statistics.median(values) for size, values in times.items()}


async def history_p50(engine: Engine, sizes: tuple[int, ...], samples: int) -> dict[int, float]:
    sessions = {}
    for size in sizes:
        sessions[size] = session = await engine.astart(chat_graph(), bot_first=True)
        for index in range(size):
            await session.asend(f"filler message {index} about my day")
    gc.collect()
    return await interleaved_p50(sessions, lambda size, index: f"sample {index}", samples)


async def graph_p50(engine: Engine, sizes: tuple[int, ...], samples: int) -> dict[int, float]:
    sessions = {}
    for size in sizes:
        scenario = Scenario.from_dict(ring_graph(size))
        sessions[size] = await engine.astart(scenario, bot_first=True)

    def text(size: int, step: int) -> str:
        # Every utterance is new for every size: a 10-node ring would otherwise repeat its
        # ten texts and hit the per-utterance caches a 1,000-node ring never hits, so the
        # ratio would measure the text's novelty, not the graph's size.
        following = (step + 1) % size
        return f"let us talk about {WORDS[following % len(WORDS)]} number {following}, turn {step}"

    return await interleaved_p50(sessions, text, samples)


async def creation_p50(engine: Engine, name: str, samples: int) -> float:
    await engine.astart(name)
    return statistics.median([await _timed(engine.astart(name)) for _ in range(samples)])


async def run(samples: int) -> None:
    engine = Engine(router=OfflineRouter())
    sizes = (10, 100, 1000)
    histories = await history_p50(engine, sizes, samples)
    row = "  ".join(f"{size}: {p50:.3f} ms" for size, p50 in histories.items())
    ratio = histories[1000] / histories[10]
    print(f"turn p50 by history   {row}  ratio 1000/10 = {ratio:.2f} (goal <= {HISTORY_GOAL})")
    graphs = await graph_p50(engine, sizes, samples)
    row = "  ".join(f"{size}: {p50:.3f} ms" for size, p50 in graphs.items())
    ratio = graphs[1000] / graphs[10]
    print(f"turn p50 by graph size {row}  ratio 1000/10 = {ratio:.2f} (goal <= {GRAPH_GOAL})")
    created = await creation_p50(engine, "companion", samples)
    print(
        f"session creation by name p50 {created:.3f} ms "
        f"(goal <= {CREATION_GOAL_MS} ms: ratio {created / CREATION_GOAL_MS:.2f})"
    )
    await engine.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=300, help="timed turns per measure")
    asyncio.run(run(parser.parse_args().samples))


if __name__ == "__main__":
    main()
