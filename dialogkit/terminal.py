"""``dialogkit chat``: talk to a scenario in the terminal, in-process or on a deployed service.

After each reply it prints what the notebook widget's side panel shows: the node, the turn
count, the slots, and the intent and fallback kind when the session reports them (a local
session does; a remote one keeps its trace on the service).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

import httpx

from dialogkit.engine.engine import Engine
from dialogkit.engine.session import Reply
from dialogkit.errors import DialogkitError, SessionNotFound
from dialogkit.notebook.status import ChatSession, Status
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.wire import ChatbotSessionInfoResponse

__all__ = ["chat"]

COMMANDS = (
    "Commands: /info shows the session state, /conf VALUE TEXT sends TEXT with an STT "
    "confidence, /quit (or end of input) leaves."
)


def chat(
    scenario: str,
    *,
    llm: str | None = None,
    server: str | None = None,
    input_fn: Callable[[str], str] = input,
    output: TextIO = sys.stdout,
) -> int:
    """Chat with ``scenario``, a registered name or a JSON file, until ``/quit`` or EOF.

    Without ``server`` the session runs in this process; when the scenario calls skills and
    no ``SKILL_RUNTIME_BASE_URL`` is configured, the reference skill runtime is started
    beside it. With ``server`` (a base URL) the session runs on that service. ``llm`` is
    the model for both understanding and replies (default: the configured one, else
    offline). Returns the exit status: 0, or 1 when the session cannot start or is lost.
    """

    def say(line: str) -> None:
        print(line, file=output, flush=True)

    if input_fn is input:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())

    stack = ExitStack()
    try:
        try:
            session, where = _open(stack, scenario, llm or "", server)
            info = session.info()
        except (DialogkitError, httpx.HTTPError) as exc:
            say(f"error: {exc}")
            return 1
        model = f"model {llm}" if llm else "default model"
        say(f"{scenario}: {where}, {model}. {COMMANDS}")
        _show(say, session.initial_reply, info)
        # Piped input is not echoed by the terminal; echo it so the output reads as a chat.
        echo = input_fn is input and not sys.stdin.isatty()
        return _converse(session, input_fn, say, echo=echo)
    finally:
        stack.close()


def _converse(
    session: ChatSession,
    input_fn: Callable[[str], str],
    say: Callable[[str], None],
    *,
    echo: bool,
) -> int:
    while True:
        try:
            line = input_fn("you> ")
            if echo:
                say(line)
        except EOFError:
            say("")
            return 0
        except KeyboardInterrupt:
            say("")
            return 130
        command, _, rest = line.strip().partition(" ")
        confidence = 0.0
        if command in ("/quit", "/exit"):
            return 0
        if command == "/info":
            say(session.info().model_dump_json(indent=2))
            continue
        if command == "/conf":
            value, _, line = rest.strip().partition(" ")
            try:
                confidence = float(value)
            except ValueError:
                say("usage: /conf VALUE TEXT, e.g. /conf -0.8 hello")
                continue
        elif command.startswith("/"):
            say(COMMANDS)
            continue
        try:
            reply = session.send(line, confidence)
            info = session.info()
        except SessionNotFound as exc:
            say(f"error: {exc}")
            return 1
        except (DialogkitError, httpx.HTTPError) as exc:
            say(f"error: {exc}")
            continue
        _show(say, reply, info)


def _open(stack: ExitStack, scenario: str, llm: str, server: str | None) -> tuple[ChatSession, str]:
    """Start the session; resources it needs are closed when ``stack`` closes."""
    target: Scenario | str = scenario
    if scenario.endswith(".json") or Path(scenario).is_file():
        target = Scenario.from_file(scenario)
    if server:
        from dialogkit.client import Client

        client = stack.enter_context(Client(server))
        return client.start(target, llm_choice=llm, nlu_llm_choice=llm), server
    loaded = target if isinstance(target, Scenario) else Scenario.load(target)
    settings = Settings()
    if llm:
        # The operator named the model on the command line: the default endpoint serves it.
        settings = settings.model_copy(update={"core_default_llm": llm, "core_nlu_llm": llm})
    if not settings.skill_runtime_base_url and any(node.params.skill for node in loaded.nodes):
        settings = _with_skill_runtime(stack, settings)
    engine = Engine(settings)
    stack.callback(engine.close)
    return engine.start(loaded, llm_choice=llm, nlu_llm_choice=llm), "in-process"


def _with_skill_runtime(stack: ExitStack, settings: Settings) -> Settings:
    """The reference skill runtime, started here; without its extra, skills fail visibly."""
    try:
        from dialogkit.skills.runtime import RuntimeServer
    except ImportError:
        return settings
    runtime = stack.enter_context(RuntimeServer())
    return settings.model_copy(update={"skill_runtime_base_url": runtime.base_url})


def _show(say: Callable[[str], None], reply: Reply, info: ChatbotSessionInfoResponse) -> None:
    if reply.error:
        say("bot> (the turn failed; the session is unchanged)")
    elif reply.response:
        say(f"bot> {reply.response}")
    say(f"     [{Status.of(reply, info).summary()}]")
