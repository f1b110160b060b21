"""Offline engine throughput and latency: ``make bench`` (or ``python -m benchmarks.turns``).

Walks the coffee example to completion in many sessions, sequentially and concurrently,
and prints turns per second and per-turn latency percentiles. Nothing leaves the process.

Then the same three-turn dialogue (drink, size, confirmation) runs on LangGraph, a
``StateGraph`` compiled with its ``InMemorySaver`` checkpointer, interleaved with dialogkit's
sync (``Session.send``) and async (``Session.asend``) turns: the ratios are the figures
(goals: sync >= 10x, async >= 15x faster). LangGraph is installed by this benchmark on first
use, into a cache directory outside the environment; it is not a dependency of dialogkit.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter

COFFEE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "coffee.json"
SCRIPT = ["I'd like a latte", "", "big", "actually change it", "black coffee", "small", "yes"]
SYNC_GOAL = 10.0
ASYNC_GOAL = 15.0


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


# ------------------------------------------------------------------ the LangGraph peer

PEER_TURNS = ["I'd like a latte", "big", "yes"]
"""The same three-turn dialogue on both sides: drink, size, confirmation (coffee example)."""
PEER_CACHE = Path.home() / ".cache" / "dialogkit" / "benchmark-peers"
"""Where the benchmark installs LangGraph when the environment lacks it (not a dependency)."""


def langgraph_available() -> bool:
    """Whether LangGraph can be imported, installing it (``pip install --target``) first when
    it cannot."""
    if str(PEER_CACHE) not in sys.path:
        sys.path.append(str(PEER_CACHE))  # after the environment: its own packages win
    if importlib.util.find_spec("langgraph") is None:
        print(f"installing langgraph into {PEER_CACHE} (benchmark peer only) ...", flush=True)
        command = [sys.executable, "-m", "pip", "install", "-q", "--target", str(PEER_CACHE)]
        subprocess.run([*command, "langgraph"], check=False)
        importlib.invalidate_caches()
    return importlib.util.find_spec("langgraph") is not None


def coffee_graph(scenario: Scenario) -> Any:
    """The coffee scenario's three turns as a LangGraph ``StateGraph`` with ``InMemorySaver``:
    one graph node per dialogue node, routed from the stored state, the drink and size read
    from the scenario's values and synonyms, replies from its templates."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph

    class CoffeeState(TypedDict, total=False):
        node: str
        text: str
        drink: str
        size: str
        reply: str

    words: dict[str, dict[str, str]] = {}
    for name in ("drink", "size"):
        slot = scenario.document.slots[name]
        table = {value: value for value in slot.values}
        for value, synonyms in slot.synonyms.items():
            table.update(dict.fromkeys(synonyms, value))
        words[name] = table
    node = {n.id: n for n in scenario.document.graph.nodes}
    ask = {name: scenario.document.slots[name].prompt for name in ("drink", "size")}

    def heard(text: str, name: str) -> str | None:
        lowered = text.lower()
        return next((value for word, value in words[name].items() if word in lowered), None)

    def collect(state: CoffeeState) -> CoffeeState:
        text = state.get("text", "")
        filled: CoffeeState = {}
        for name in ("drink", "size"):
            value = heard(text, name)
            if value is not None:
                filled[name] = value  # type: ignore[literal-required]
        known = {**state, **filled}
        missing = next((name for name in ("drink", "size") if name not in known), None)
        if missing is not None:
            return {**filled, "node": "take_order", "reply": ask[missing]}
        reply = (
            node["confirm"].responses["default"].format(size=known["size"], drink=known["drink"])
        )
        return {**filled, "node": "confirm", "reply": reply}

    def confirm(state: CoffeeState) -> CoffeeState:
        if state.get("text", "").strip().lower() in ("yes", "yes please", "right"):
            reply = (
                node["done"].responses["default"].format(size=state["size"], drink=state["drink"])
            )
            return {"node": "done", "reply": reply}
        return collect(state)

    graph = StateGraph(CoffeeState)
    graph.add_node("collect", collect)
    graph.add_node("confirm", confirm)
    graph.add_conditional_edges(
        START, lambda state: "confirm" if state.get("node") == "confirm" else "collect"
    )
    graph.add_edge("collect", END)
    graph.add_edge("confirm", END)
    return graph.compile(checkpointer=InMemorySaver())


def per_turn_us(durations: list[float]) -> float:
    return statistics.median(durations) * 1e6


def peer_comparison(sessions: int) -> None:
    """dialogkit's sync and async turn against LangGraph's, same dialogue, same run. The
    sync sides run as a script would (no event loop in the thread); the async side runs on
    an event loop of its own."""
    if not langgraph_available():
        print("langgraph peer: not installed (pip failed); skipped")
        return
    scenario = Scenario.from_file(COFFEE)
    graph = coffee_graph(scenario)
    engine = Engine(router=OfflineRouter())
    expected = "Thanks! Your large latte will be ready shortly."

    def langgraph_walk(thread: str, times: list[float]) -> str:
        config = {"configurable": {"thread_id": thread}}
        graph.invoke({"node": "welcome"}, config)
        answer = ""
        for text in PEER_TURNS:
            started = time.perf_counter()
            answer = graph.invoke({"text": text}, config)["reply"]
            times.append(time.perf_counter() - started)
        return answer

    def sync_walk(times: list[float]) -> str:
        session = engine.start(scenario)
        answer = ""
        for text in PEER_TURNS:
            started = time.perf_counter()
            answer = session.send(text).response
            times.append(time.perf_counter() - started)
        return answer

    async def async_walk(times: list[float]) -> str:
        session = await engine.astart(scenario)
        answer = ""
        for text in PEER_TURNS:
            started = time.perf_counter()
            answer = (await session.asend(text)).response
            times.append(time.perf_counter() - started)
        return answer

    peer: list[float] = []
    blocking: list[float] = []
    awaited: list[float] = []
    loop = asyncio.new_event_loop()
    # Interleaved rounds, so each side sees the same machine; the first round warms up.
    for round_ in range(sessions):
        answers = {
            langgraph_walk(f"t{round_}", peer),
            sync_walk(blocking),
            loop.run_until_complete(async_walk(awaited)),
        }
        if answers != {expected}:
            raise RuntimeError(f"the peers disagree: {answers}")
        if round_ == 0:
            peer.clear(), blocking.clear(), awaited.clear()
    lg, sync_us, async_us = per_turn_us(peer), per_turn_us(blocking), per_turn_us(awaited)
    print(
        f"langgraph peer ({sessions} sessions x {len(PEER_TURNS)} turns, p50 per turn): "
        f"LangGraph InMemorySaver {lg:,.0f} us; dialogkit sync {sync_us:,.0f} us "
        f"({lg / sync_us:.1f}x faster, goal >= {SYNC_GOAL:g}x), async {async_us:,.0f} us "
        f"({lg / async_us:.1f}x faster, goal >= {ASYNC_GOAL:g}x)"
    )
    loop.run_until_complete(engine.aclose())
    loop.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--peer-sessions", type=int, default=300)
    parser.add_argument("--no-peer", action="store_true", help="skip the LangGraph comparison")
    args = parser.parse_args()
    for concurrency in (1, 50):
        asyncio.run(run(args.sessions, concurrency))
    if not args.no_peer:
        peer_comparison(args.peer_sessions)


if __name__ == "__main__":
    main()
