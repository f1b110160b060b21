"""Regenerate the request/response examples of docs/http-api.md from a real server.

Each example region of the page, between ``<!-- example: NAME -->`` and ``<!-- /example -->``,
is written from ``EXAMPLES``: the curl call (as the reader would type it, ending with the
``# HTTP <status>`` line that tests/server/test_server_docs_examples.py checks) and the JSON the
service answered. The service runs on 127.0.0.1 with the registered scenarios, the offline
providers and the embedded skill runtime, as ``make run`` starts it::

    .venv/bin/python -m tools.docs_examples          # rewrite the page
    .venv/bin/python -m tools.docs_examples --check  # exit 1 if the page is out of date

tests/docs/test_docs_http_examples.py runs the check, comparing modulo ids and times.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx

PAGE = Path(__file__).resolve().parents[1] / "docs" / "http-api.md"
SESSION = "$SESSION_ID"
REGION = re.compile(r"(<!-- example: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /example -->)", re.S)

Session = Literal["card", "hello"]
"""Which session ``$SESSION_ID`` stands for: the card_issuance one or the hello-graph one."""

HELLO_GRAPH: dict[str, Any] = {
    "metadata": {
        "slug": "hello",
        "name": "Hello",
        "description": "Greets, then says goodbye.",
        "language": "en",
        "version": "1",
    },
    "prompts": {"bot": "Be brief and friendly."},
    "graph": {
        "entry": "greet",
        "bot_first": True,
        "nodes": [
            {
                "id": "greet",
                "description": "Greet the user.",
                "responses": {"default": "Hello! Say anything to finish."},
                # Written out: the bot-first opening would otherwise pass straight on to bye.
                "wait_for_input": True,
                "default_next": "bye",
            },
            {
                "id": "bye",
                "description": "Say goodbye.",
                "terminal": True,
                "responses": {"default": "Goodbye."},
            },
        ],
    },
}


@dataclass(frozen=True)
class Example:
    """One request of the page; ``body`` is JSON, or ``raw`` text sent as it is."""

    method: str
    path: str
    body: Any = None
    raw: str | None = None
    session: Session | None = None
    shown: bool = True
    """Whether the answer is shown (the first of two calls that answer alike is enough)."""


@dataclass(frozen=True)
class Region:
    name: str
    examples: list[Example]
    answers: Literal["json", "lines", "none"] = "json"
    """One pretty JSON answer, one compact line per example, or only the curl calls."""
    creates: Session | None = None
    notes: list[str] = field(default_factory=list)


CARD_SESSION = {
    "scenario_name": "card_issuance",
    "user": {"name": "김민지", "locale": "ko-KR", "timezone": "Asia/Seoul"},
    "llm_choice": "",
    "nlu_llm_choice": "",
    "bot_first": True,
    "stt_confidence_threshold": -0.7,
    "completion_options": {"include_slots": True, "include_history": True},
}

REGIONS = [
    Region("root", [Example("GET", "/"), Example("GET", "/v1/", shown=False)]),
    Region("create", [Example("POST", "/v1/session", CARD_SESSION)], creates="card"),
    Region(
        "create-json",
        [
            Example(
                "POST",
                "/v1/session/json",
                {
                    "scenario_graph": HELLO_GRAPH,
                    "completion_options": {"include_slots": True, "include_history": True},
                },
            )
        ],
        creates="hello",
    ),
    Region(
        "validate",
        [
            Example(
                "POST",
                "/v1/session/validate",
                {"scenario_graph": {"metadata": {"slug": "x"}, "graph": {"entry": "start"}}},
            )
        ],
    ),
    Region(
        "message",
        [
            Example(
                "POST",
                "/v1/message",
                {
                    "session_id": SESSION,
                    "user_input": {"id": "u-1", "name": "김민지", "age": 36},
                    "message_input": {"text": "체크카드 만들고 싶어요", "confidence": 0.93},
                },
                session="card",
            )
        ],
    ),
    Region(
        "message-complete",
        [
            Example(
                "POST",
                "/v1/message",
                {"session_id": SESSION, "message_input": {"text": "Thanks, that is all"}},
                session="hello",
            )
        ],
    ),
    Region("info", [Example("GET", f"/v1/session/{SESSION}", session="card")]),
    Region(
        "errors",
        [
            Example("POST", "/v1/session", {"scenario_name": "general_conversation"}),
            Example("POST", "/v1/session/json", {}),
            Example("GET", "/v1/session/no-such-session"),
            Example(
                "POST",
                "/v1/message",
                {"session_id": "no-such-session", "message_input": {"text": "안녕하세요"}},
            ),
            Example("DELETE", "/"),
            Example(
                "POST",
                "/v1/message",
                {"session_id": SESSION, "message_input": "안녕하세요"},
                session="card",
            ),
            Example("POST", "/v1/message", ["not", "an", "object"]),
            Example("POST", "/v1/message", raw='{"session_id": '),
            Example("POST", "/v1/message"),
        ],
        answers="lines",
    ),
]


# ---------------------------------------------------------------------------- rendering


def curl(example: Example) -> str:
    """The call as a reader types it; ``$SESSION_ID`` stays a shell variable."""
    url = f'"$BASE_URL{example.path}"'
    if example.method == "GET":
        return f"curl -s {url}"
    call = f"curl -s -X {example.method} {url}"
    if example.raw is not None:
        return f"{call} -H 'content-type: application/json' -d '{example.raw}'"
    if example.body is None:
        return call
    text = json.dumps(example.body, ensure_ascii=False)
    if len(text) <= 60:
        return f"{call} -H 'content-type: application/json' \\\n  -d '{_spliced(text)}'"
    # A here-document keeps a long body readable and still expands $SESSION_ID.
    pretty = json.dumps(example.body, ensure_ascii=False, indent=2)
    return f"{call} -H 'content-type: application/json' -d @- <<JSON\n{pretty}\nJSON"


def _spliced(text: str) -> str:
    return text.replace(f'"{SESSION}"', f'"\'"{SESSION}"\'"')


def render(region: Region, answers: list[tuple[int, Any]]) -> str:
    calls = "\n".join(
        f"{curl(example)}\n# HTTP {status}"
        for example, (status, _) in zip(region.examples, answers, strict=True)
    )
    parts = [f"```bash\n{calls}\n```\n"]
    shown = [
        body for example, (_, body) in zip(region.examples, answers, strict=True) if example.shown
    ]
    if region.answers == "json":
        [body] = shown
        parts.append(f"\n```json\n{json.dumps(body, ensure_ascii=False, indent=2)}\n```\n")
    elif region.answers == "lines":
        lines = "\n".join(json.dumps(body, ensure_ascii=False) for body in shown)
        parts.append(f"\nThe bodies, in order:\n\n```json\n{lines}\n```\n")
    return "".join(parts)


# ---------------------------------------------------------------------------- running


@contextmanager
def running_service() -> Iterator[str]:
    """The service as ``make run`` starts it (embedded skill runtime), on a free port."""
    from dialogkit import Engine
    from dialogkit.skills.runtime import RuntimeServer
    from dialogkit_server import create_app

    with Engine(skill_runtime="embedded") as engine, RuntimeServer(create_app(engine)) as server:
        yield server.base_url


def answers(base_url: str) -> dict[str, list[tuple[int, Any]]]:
    """Every region's (status, decoded body) pairs, the regions called in page order."""
    sessions: dict[Session, str] = {}
    result: dict[str, list[tuple[int, Any]]] = {}
    with httpx.Client(base_url=base_url, timeout=30) as http:
        for region in REGIONS:
            result[region.name] = [_call(http, example, sessions) for example in region.examples]
            if region.creates is not None:
                sessions[region.creates] = result[region.name][0][1]["session_id"]
    return result


def _call(http: httpx.Client, example: Example, sessions: dict[Session, str]) -> tuple[int, Any]:
    path = (
        example.path.replace(SESSION, sessions[example.session])
        if example.session
        else (example.path)
    )
    if example.raw is not None:
        content: bytes | None = example.raw.encode()
    elif example.body is not None:
        text = json.dumps(example.body, ensure_ascii=False)
        if example.session:
            text = text.replace(SESSION, sessions[example.session])
        content = text.encode()
    else:
        content = None
    headers = {"content-type": "application/json"} if content is not None else {}
    response = http.request(example.method, path, content=content, headers=headers)
    return response.status_code, response.json()


def rewrite(page: str, generated: dict[str, list[tuple[int, Any]]]) -> str:
    """``page`` with every example region rendered from ``generated``."""
    regions = {region.name: region for region in REGIONS}
    found: list[str] = []

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        found.append(name)
        return f"{match.group(1)}{render(regions[name], generated[name])}{match.group(4)}"

    updated = REGION.sub(replace, page)
    missing = sorted(set(regions) - set(found))
    if missing:
        raise SystemExit(f"{PAGE}: no region for example(s) {', '.join(missing)}")
    return updated


VARYING = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<id>"),
    (re.compile(r'("(?:initial_)?processing_time_ms": )[0-9.e-]+'), r"\g<1>0"),
    (re.compile(r'("ttl_seconds": )\d+'), r"\g<1>0"),
    # The user's time of day comes from the clock too.
    (re.compile(r'("(?:time_of_day|daypart)": )"[^"]*"'), r'\g<1>""'),
    (
        re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?"),
        "<time>",
    ),
]


def normalized(text: str) -> str:
    """``text`` with what changes on every run (ids, timings, clock times) made constant."""
    for pattern, constant in VARYING:
        text = pattern.sub(constant, text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    # The page needs the answers only: no start-up banner, no logged validation problems.
    logging.disable(logging.WARNING)
    page = PAGE.read_text(encoding="utf-8")
    with running_service() as base_url:
        updated = rewrite(page, answers(base_url))
    if args.check:
        if normalized(updated) != normalized(page):
            print(f"{PAGE} is out of date: run python -m tools.docs_examples", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
