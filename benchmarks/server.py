"""The HTTP service against a bare Sanic peer: ``python -m benchmarks.server`` (``make bench``).

Starts ``dialogkit serve`` (one worker, offline providers, memory store) and the bare Sanic app
of ``benchmarks.bare_sanic`` on loopback, creates a pool of live sessions, and drives both
with the same bounded load of ``POST /v1/message`` from ``wrk`` (64 connections, 10 s each; a
Lua script rotates session ids and realistic utterances). Servers are pinned to one core and
``wrk`` to the other when there are two. Prints req/s, p50 and p99 of each and the ratio.
Goal: dialogkit >= 60% of bare Sanic, p99 <= 50 ms. ``wrk`` is installed from the
distribution when missing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from benchmarks.scaling import chat_graph
from dialogkit.testing.processes import free_port, serving

RATIO_GOAL = 0.6
P99_GOAL_MS = 50.0
SCENARIO = "companion"
UTTERANCES = [
    "잘 잤어",
    "응 어제는 푹 잤어",
    "밥은 아직 안 먹었어",
    "아침에 죽 조금 먹었어",
    "약 먹었어",
    "아직 안 먹었는데",
    "다리가 좀 아파",
    "오늘은 기분이 괜찮아",
    "뭐라고?",
    "다시 말해 줄래",
    "고마워",
    "응",
    "아니",
    "손주가 다음 주에 온대",
    "산책 다녀왔어",
    "",
]
LUA = """
local ids = {%(ids)s}
local texts = {%(texts)s}
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local id = ids[(counter %% #ids) + 1]
  local text = texts[(counter %% #texts) + 1]
  local body = '{"session_id":"' .. id .. '","message_input":{"text":"' .. text .. '"}}'
  return wrk.format(nil, "/v1/message", nil, body)
end
done = function(summary, latency, requests)
  io.write(string.format(
    'RESULT {"requests":%%d,"duration_us":%%d,"p50_us":%%d,"p99_us":%%d,' ..
    '"status_errors":%%d,"socket_errors":%%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    for prefix in ([], ["sudo"]):
        try:
            subprocess.run([*prefix, "apt-get", "install", "-y", "-q", "wrk"], check=True)
        except (OSError, subprocess.CalledProcessError):
            continue
        found = shutil.which("wrk")
        if found:
            return found
    sys.exit("wrk is not installed and could not be installed (apt-get install wrk)")


def _pinned(command: list[str], core: int | None) -> list[str]:
    taskset = shutil.which("taskset")
    if core is None or taskset is None:
        return command
    return [taskset, "-c", str(core), *command]


def create_sessions(url: str, count: int, minimal: bool) -> list[str]:
    """Sessions by name (the judged run), or over a one-node graph (``--minimal``: what the
    service costs around a turn that does almost nothing)."""
    path: str = "/v1/session"
    body: dict[str, Any] = {"scenario_name": SCENARIO}
    if minimal:
        path, body = "/v1/session/json", {"scenario_graph": chat_graph()}
    with httpx.Client(base_url=url, timeout=30) as client:
        ids = []
        for _ in range(count):
            response = client.post(path, json=body)
            response.raise_for_status()
            ids.append(response.json()["session_id"])
        return ids


def drive(
    wrk: str, url: str, script: Path, args: argparse.Namespace, core: int | None
) -> dict[str, Any]:
    command = _pinned(
        [wrk, "-t1", f"-c{args.connections}", f"-d{args.seconds}s", "-s", str(script), url],
        core,
    )
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument(
        "--minimal", action="store_true", help="a one-node graph instead of the companion"
    )
    args = parser.parse_args()
    wrk = ensure_wrk()
    two_cores = (os.cpu_count() or 1) >= 2
    server_core, load_core = (0, 1) if two_cores else (None, None)
    folder = Path(tempfile.mkdtemp(prefix="dialogkit-bench-"))
    env_python = sys.executable
    dialogkit = str(Path(env_python).with_name("dialogkit"))
    ports = free_port(), free_port()
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    servers = {
        "dialogkit": _pinned([dialogkit, "serve", "--port", str(ports[0])], server_core),
        "bare sanic": _pinned(
            [env_python, "-m", "benchmarks.bare_sanic", "--port", str(ports[1])], server_core
        ),
    }
    results = {}
    for (name, command), url in zip(servers.items(), urls, strict=True):
        with serving(command, url, folder / f"{name.replace(' ', '_')}.log"):
            ids = ["s"]
            if name == "dialogkit":
                ids = create_sessions(url, args.sessions, args.minimal)
            script = folder / f"{name.replace(' ', '_')}.lua"
            script.write_text(
                LUA
                % {
                    "ids": ",".join(f'"{i}"' for i in ids),
                    "texts": ",".join(json.dumps(t, ensure_ascii=False) for t in UTTERANCES),
                },
                encoding="utf-8",
            )
            results[name] = drive(wrk, url, script, args, load_core)
    for name, result in results.items():
        print(
            f"{name:>10}: {result['rps']:8,.0f} req/s  p50 {result['p50_us'] / 1000:6.2f} ms  "
            f"p99 {result['p99_us'] / 1000:6.2f} ms  non-2xx {result['status_errors']}  "
            f"socket errors {result['socket_errors']}"
        )
    ratio = results["dialogkit"]["rps"] / results["bare sanic"]["rps"]
    p99 = results["dialogkit"]["p99_us"] / 1000
    print(
        f"server: dialogkit/bare sanic = {ratio:.2f} (goal >= {RATIO_GOAL}); "
        f"dialogkit p99 {p99:.1f} ms (goal <= {P99_GOAL_MS:g} ms); "
        f"{args.connections} connections, {args.seconds} s each, {args.sessions} sessions"
    )


if __name__ == "__main__":
    main()
