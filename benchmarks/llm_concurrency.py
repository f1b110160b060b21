"""Many one-turn conversations against a slow model: ``python -m benchmarks.llm_concurrency``.

A fake OpenAI-compatible server runs in its own process on loopback and answers every chat
completion after ``--delay`` seconds (200 ms). Each conversation is one session and one user
turn, which needs an NLU and an NLG call in sequence, so the ideal wall time is two delays
whatever the number of sessions. For N = 100, 300, 1,000 it measures:

* ``floor``: N clients each sending the same two requests in sequence over plain asyncio
  streams (no HTTP library at all): what the machine can do;
* ``engine``: N sessions in-process, ``Engine.amessage`` all at once;
* ``http``: N sessions through ``dialogkit serve`` (created first, then all turns at once);
* ``hybrid``: in-process again with the hybrid NLU and an utterance the rules are sure of;
* with ``--transports``, bare clients making the floor's calls: ``AsyncOpenAI`` on its
  default httpx2 pool and on ``DefaultAioHttpClient``, and one plain ``aiohttp`` session.

and prints wall time, fraction of ideal, ratio to the floor, model calls per turn and errors.
Numbers are only comparable within one run: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import aiohttp

from dialogkit import Engine
from dialogkit.settings import Settings
from dialogkit.testing.processes import free_port

GRAPH: dict[str, Any] = {
    "metadata": {"slug": "cards", "name": "Cards", "language": "en", "version": "1"},
    "intents": {"order": {"examples": ["I want a new card"]}},
    "slots": {"card_type": {"type": "enum", "values": ["credit", "debit"]}},
    "graph": {
        "entry": "ask_card",
        "bot_first": False,
        "nodes": [
            {
                "id": "ask_card",
                "description": "Ask which card the user wants.",
                "responses": {"default": "Credit or debit?"},
                "collect_slots": ["card_type"],
                "default_next": "done",
            },
            {
                "id": "done",
                "description": "Confirm.",
                "responses": {"default": "Your {card_type} card is on its way."},
                "terminal": True,
            },
        ],
    },
}
UNSURE = "well, I suppose the one that takes money straight from my account"
"""An utterance the rules cannot place: it needs the model's NLU."""
SURE = "debit"
"""An utterance the rules are sure of: the hybrid NLU never asks the model."""
MODEL = "bench-model"
BOUND = [Settings.model_fields["llm_max_concurrency"].default]
"""Calls in flight per endpoint: the setting's default unless ``--max-concurrency``."""


# ----------------------------------------------------------------- the fake model server


def _completion(content: str) -> bytes:
    body = {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 0,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    return json.dumps(body).encode()


NLU_ANSWER = json.dumps(
    {
        "intent": None,
        "entities": {"card_type": "debit"},
        "confidence": 0.9,
        "dialogue_act": "inform",
    }
)
NLU_REPLY = _completion(NLU_ANSWER)
NLG_REPLY = _completion("Your debit card is coming.")


async def _serve_model(port_out: Any, delay: float) -> None:
    """HTTP/1.1 with keep-alive on asyncio: nothing in it should be the bottleneck."""
    counts: Counter[str] = Counter()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                if lines[0].startswith("GET /stats"):
                    data = json.dumps(counts).encode()
                elif lines[0].startswith("POST /reset"):
                    counts.clear()
                    data = b"{}"
                else:
                    # No JSON parsing: the fake model must cost next to nothing per call.
                    nlu = b'"response_format"' in body
                    counts["nlu" if nlu else "nlg"] += 1
                    await asyncio.sleep(delay)
                    data = NLU_REPLY if nlu else NLG_REPLY
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=4096)
    port_out.put(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


def _model_process(port_out: Any, delay: float) -> None:
    asyncio.run(_serve_model(port_out, delay))


async def _http_json(port: int, request_line: str) -> Any:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{request_line} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(":")[1])
        for line in head.decode().split("\r\n")
        if line.lower().startswith("content-length")
    )
    body = await reader.readexactly(length)
    writer.close()
    return json.loads(body)


# ----------------------------------------------------------------- measurements


@dataclass
class Result:
    name: str
    n: int
    seconds: float
    errors: int
    nlu_calls: int = 0
    nlg_calls: int = 0


async def floor(port: int, n: int) -> Result:
    """N clients, two sequential requests each, over raw asyncio streams.

    The body is as large as the engine's NLU request (about 2.5 KB), so the floor and the
    engine cost the fake model the same.
    """
    prompt = "x" * 2500
    payload = json.dumps({"model": MODEL, "messages": [{"role": "system", "content": prompt}]})
    request = (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n{payload}"
    ).encode()
    errors = 0

    async def client() -> None:
        nonlocal errors
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(2):
                writer.write(request)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                await reader.readexactly(length)
            writer.close()
        except OSError:
            errors += 1

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(n)))
    return Result("floor", n, time.perf_counter() - started, errors)


async def transport(port: int, n: int, kind: str) -> Result:
    """N clients, two sequential chat completions each, through one bare HTTP client.

    ``openai-httpx2`` is ``AsyncOpenAI`` with its default pool, ``openai-aiohttp`` the same
    on ``DefaultAioHttpClient``, ``aiohttp`` one ``aiohttp`` session as dialogkit uses it.
    Connection limits are lifted to N so that only the client's own cost is measured.
    """
    import httpx2
    from openai import AsyncOpenAI, DefaultAioHttpClient, DefaultAsyncHttpxClient
    from openai.types.chat import ChatCompletion

    url = f"http://127.0.0.1:{port}/v1"
    body: dict[str, Any] = {"model": MODEL, "messages": [{"role": "system", "content": "x" * 2500}]}
    errors = 0
    if kind == "aiohttp":
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=n))

        async def call() -> None:
            async with session.post(f"{url}/chat/completions", json=body) as response:
                ChatCompletion.model_validate(json.loads(await response.read()))

        close = session.close
    else:
        limits = httpx2.Limits(max_connections=n, max_keepalive_connections=n)
        http_client = (
            DefaultAioHttpClient if kind == "openai-aiohttp" else DefaultAsyncHttpxClient
        )(limits=limits, timeout=60.0)
        client = AsyncOpenAI(base_url=url, api_key="x", max_retries=0, http_client=http_client)

        async def call() -> None:
            await client.chat.completions.create(model=MODEL, messages=body["messages"])

        close = client.close

    async def pair() -> None:
        nonlocal errors
        try:
            await call()
            await call()
        except Exception:
            errors += 1

    started = time.perf_counter()
    await asyncio.gather(*(pair() for _ in range(n)))
    seconds = time.perf_counter() - started
    await close()
    return Result(kind, n, seconds, errors)


def _settings(port: int, **values: Any) -> Settings:
    return Settings.model_validate(
        {
            "openai_base_url": f"http://127.0.0.1:{port}/v1",
            "core_default_llm": MODEL,
            "core_nlu_llm": MODEL,
            "hybrid_nlu": False,
            **values,
        }
    )


async def in_process(port: int, n: int, *, hybrid: bool = False, **values: Any) -> Result:
    engine = Engine(_settings(port, hybrid_nlu=hybrid, llm_max_concurrency=BOUND[0], **values))
    sessions = [await engine.astart(GRAPH) for _ in range(n)]
    text = SURE if hybrid else UNSURE
    await _http_json(port, "POST /reset")
    started = time.perf_counter()
    replies = await asyncio.gather(*(s.asend(text) for s in sessions), return_exceptions=True)
    seconds = time.perf_counter() - started
    errors = sum(
        1 for r in replies if isinstance(r, BaseException) or r.error or not r.session_complete
    )
    await engine.aclose()
    counts = await _http_json(port, "GET /stats")
    return Result(
        "hybrid" if hybrid else "engine",
        n,
        seconds,
        errors,
        counts.get("nlu", 0),
        counts.get("nlg", 0),
    )


async def through_http(model_port: int, service: str, n: int) -> Result:
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:

        async def create() -> str:
            async with http.post(f"{service}/v1/session/json", json={"scenario_graph": GRAPH}) as r:
                return str((await r.json())["session_id"])

        ids = await asyncio.gather(*(create() for _ in range(n)))
        await _http_json(model_port, "POST /reset")
        errors = 0

        async def turn(session_id: str) -> None:
            nonlocal errors
            body = {"session_id": session_id, "message_input": {"text": UNSURE}}
            try:
                async with http.post(f"{service}/v1/message", json=body) as response:
                    answer = await response.json()
                    if response.status != 200 or answer.get("error"):
                        errors += 1
            except (TimeoutError, aiohttp.ClientError):
                errors += 1

        started = time.perf_counter()
        await asyncio.gather(*(turn(i) for i in ids))
        seconds = time.perf_counter() - started
    counts = await _http_json(model_port, "GET /stats")
    return Result("http", n, seconds, errors, counts.get("nlu", 0), counts.get("nlg", 0))


async def _wait_for(url: str) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            try:
                async with http.get(url) as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"the service at {url} did not start")


def _start_service(model_port: int, log: IO[bytes]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "OPENAI_BASE_URL": f"http://127.0.0.1:{model_port}/v1",
        "CORE_DEFAULT_LLM": MODEL,
        "CORE_NLU_LLM": MODEL,
        "DIALOGKIT_HYBRID_NLU": "false",
        "DIALOGKIT_LLM_MAX_CONCURRENCY": str(BOUND[0]),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "dialogkit.cli", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=Path(__file__).resolve().parents[1],
    )
    return process, f"http://127.0.0.1:{port}"


def report(result: Result, ideal: float, floors: dict[int, float]) -> None:
    fraction = ideal / result.seconds
    calls = result.nlu_calls + result.nlg_calls
    per_turn = f"{calls / result.n:.2f} ({result.nlu_calls} nlu)" if calls else "-"
    ratio = result.seconds / floors[result.n] if result.name != "floor" else 1.0
    print(
        f"{result.name:<14} N={result.n:<5} wall={result.seconds:6.2f}s "
        f"ideal={fraction:6.1%} floor_ratio={ratio:5.2f}x calls/turn={per_turn:<14} "
        f"errors={result.errors}"
    )


async def measure(
    sizes: list[int], model_port: int, service: str | None, delay: float, transports: bool
) -> None:
    floors: dict[int, float] = {}
    for n in sizes:
        result = await floor(model_port, n)
        floors[n] = result.seconds
        report(result, 2 * delay, floors)
        kinds = ("openai-httpx2", "openai-aiohttp", "aiohttp") if transports else ()
        for kind in kinds:
            report(await transport(model_port, n, kind), 2 * delay, floors)
        runs: list[Awaitable[Result]] = [
            in_process(model_port, n),
            in_process(model_port, n, hybrid=True),
        ]
        if service is not None:
            runs.append(through_http(model_port, service, n))
        for run in runs:  # coroutines start when awaited: one measurement at a time
            result = await run
            report(result, delay if result.name == "hybrid" else 2 * delay, floors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="100,300,1000")
    parser.add_argument("--delay", type=float, default=0.2, help="model latency in seconds")
    parser.add_argument("--no-http", action="store_true", help="skip the dialogkit serve runs")
    parser.add_argument("--max-concurrency", type=int, default=BOUND[0])
    parser.add_argument(
        "--transports",
        action="store_true",
        help="also time bare HTTP clients: openai on httpx2, openai on aiohttp, plain aiohttp",
    )
    args = parser.parse_args()
    BOUND[0] = args.max_concurrency
    sizes = [int(size) for size in args.sizes.split(",")]

    ports: Any = multiprocessing.get_context("spawn").Queue()
    model = multiprocessing.get_context("spawn").Process(
        target=_model_process, args=(ports, args.delay), daemon=True
    )
    model.start()
    model_port = int(ports.get(timeout=30))
    service = None
    process = None
    with tempfile.TemporaryFile() as log:
        try:
            if not args.no_http:
                process, service = _start_service(model_port, log)
                asyncio.run(_wait_for(f"{service}/"))
            print(
                f"model latency {args.delay * 1000:.0f} ms, {BOUND[0]} calls in flight per "
                "endpoint; ideal = sequential model calls per turn"
            )
            asyncio.run(measure(sizes, model_port, service, args.delay, args.transports))
        finally:
            if process is not None:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=30)
            model.terminate()
            model.join()


if __name__ == "__main__":
    main()
