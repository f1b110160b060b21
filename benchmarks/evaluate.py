"""Simulated evaluation at scale: ``python -m benchmarks.evaluate`` (part of ``make bench``).

1,000 simulated users (mixed personas) on the coffee example with three model choices:
``offline`` and two stand-in models served over loopback HTTP by ``StandInServer`` (one
careful with 2 ms of latency per call, one that misses almost a third of what it hears and
chats more). Prints the wall time of the whole run, conversations per second, and, as a
peer measured in the same run, the time of the offline model choice alone, with the ratio.
The stand-ins run in a child process, as a model server would.
"""

from __future__ import annotations

import argparse
import logging
import time
from multiprocessing import Event, Pipe, Process
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as EventType
from pathlib import Path

from dialogkit import Engine, Scenario, Settings
from dialogkit.evaluate import evaluate
from dialogkit.testing import StandInModel, StandInServer

COFFEE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "coffee.json"
MODELS = ("offline", "stand-in-careful", "stand-in-sloppy")


def _serve(connection: Connection, stop: EventType) -> None:
    """The stand-in models in a process of their own, so they do not share a core's
    interpreter lock with the engine being measured."""
    scenario = Scenario.from_file(COFFEE)
    stand_ins = {
        "stand-in-careful": StandInModel(scenario, latency_s=0.002),
        "stand-in-sloppy": StandInModel(scenario, miss_rate=0.3, style="chatty"),
    }
    with StandInServer(stand_ins) as server:
        connection.send((server.settings().model_dump(), len(server.chat_requests)))
        stop.wait()
        connection.send(len(server.chat_requests))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    logging.getLogger("dialogkit").setLevel(logging.ERROR)
    scenario = Scenario.from_file(COFFEE)
    ours, theirs = Pipe()
    stop = Event()
    server = Process(target=_serve, args=(theirs, stop), daemon=True)
    server.start()
    settings, _ = ours.recv()
    engine = Engine(Settings.model_validate(settings))
    try:
        started = time.perf_counter()
        peer = evaluate(
            scenario,
            args.users,
            models=["offline"],
            seed=7,
            progress=False,
            engine=engine,
            concurrency=args.concurrency,
        )
        offline_s = time.perf_counter() - started
        started = time.perf_counter()
        results = evaluate(
            scenario,
            args.users,
            models=list(MODELS),
            seed=7,
            progress=False,
            engine=engine,
            concurrency=args.concurrency,
            max_turns=8,
        )
        wall_s = time.perf_counter() - started
    finally:
        engine.close()
        stop.set()
        calls = ours.recv()
        server.join(timeout=10)
    conversations = len(results.conversations)
    print(
        f"evaluate: {args.users} users x {len(MODELS)} model choices = {conversations} "
        f"conversations, {len(results.turns)} turns, {calls} model calls: "
        f"wall {wall_s:.1f}s ({conversations / wall_s:,.0f} conversations/s)"
    )
    print(
        f"peer: offline alone, {len(peer.conversations)} conversations: {offline_s:.2f}s; "
        f"the three-model run takes {wall_s / offline_s:.1f}x as long"
    )
    print(results.summary()[["success", "llm_calls", "latency_p50_ms", "latency_p95_ms"]])


if __name__ == "__main__":
    main()
