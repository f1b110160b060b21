"""``dialogkit chat``: talk to a scenario in the terminal, in-process or on a deployed service.

After each reply it prints what the notebook widget's side panel shows: the node, the turn
count, the slots, and the intent and fallback kind when the session reports them (a local
session does; a remote one keeps its trace on the service), on one line cut to the terminal's
width between fields. When the session completes it prints the final data and returns: a
completed session has nothing more to say.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import unicodedata
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

import httpx

from dialogkit.engine.engine import Engine
from dialogkit.engine.session import Reply
from dialogkit.errors import DialogkitError, SessionNotFound
from dialogkit.llm._router import is_offline
from dialogkit.notebook.status import ChatSession, Status
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.wire import ChatbotFinalData, ChatbotSessionInfoResponse

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
    offline). Returns the exit status: 0 (also when the session completes), 1 when the
    session cannot start or is lost, 130 on Ctrl-C.
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
        say(f"{scenario}: {where}, {_providers(llm or '', server)}. {COMMANDS}")
        # Only a terminal has a width; piped output keeps whole status lines.
        width = shutil.get_terminal_size().columns if output.isatty() else None
        _show(say, session.initial_reply, info, width)
        if session.initial_reply.session_complete:
            _finish(say, session.initial_reply.final_data)
            return 0
        # Piped input is not echoed by the terminal; echo it so the output reads as a chat.
        echo = input_fn is input and not sys.stdin.isatty()
        return _converse(session, input_fn, say, echo=echo, width=width)
    finally:
        stack.close()


def _converse(
    session: ChatSession,
    input_fn: Callable[[str], str],
    say: Callable[[str], None],
    *,
    echo: bool,
    width: int | None,
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
        _show(say, reply, info, width)
        if reply.session_complete:
            _finish(say, reply.final_data)
            return 0


def _providers(llm: str, server: str | None) -> str:
    """What understands and what answers, as the engine resolves it (or the service will)."""
    if server:
        return f"model {llm} (NLU and NLG)" if llm else "the service's configured models"
    if llm and not is_offline(llm):
        return f"model {llm} (NLU and NLG)"
    settings = Settings()
    nlu = "" if llm else settings.core_nlu_llm
    nlg = "" if llm else settings.core_default_llm
    nlu_text = "rule NLU (offline)" if is_offline(nlu) else f"NLU model {nlu}"
    nlg_text = "template NLG (offline)" if is_offline(nlg) else f"NLG model {nlg}"
    return f"{nlu_text}, {nlg_text}"


def _finish(say: Callable[[str], None], final: ChatbotFinalData | None) -> None:
    """The end of a completed session: its reason and final data, then the chat returns."""
    if final is None:
        say("session complete.")
        return
    say(f"session complete ({final.end_reason}). Final data:")
    say(final.model_dump_json(indent=2, exclude_none=True))


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
    needs_runtime = not settings.skill_runtime_base_url and any(
        node.params.skill for node in loaded.nodes
    )
    engine = Engine(settings, skill_runtime="embedded" if needs_runtime else None)
    stack.callback(engine.close)
    where = "in-process, with the reference skill runtime" if needs_runtime else "in-process"
    return engine.start(loaded, llm_choice=llm, nlu_llm_choice=llm), where


def _show(
    say: Callable[[str], None],
    reply: Reply,
    info: ChatbotSessionInfoResponse,
    width: int | None,
) -> None:
    """The reply, then its status line, cut to ``width`` columns when that is known."""
    if reply.error:
        say("bot> (the turn failed; the session is unchanged)")
    elif reply.response:
        say(f"bot> {reply.response}")
    indent = "     "
    summary = Status.of(reply, info).summary()
    if width is not None:
        summary = _fit(summary, width - len(indent) - 2)
    say(f"{indent}[{summary}]")


FIELD_SEPARATOR = " · "
SLOT_SEPARATOR = ", "


def _fit(summary: str, width: int) -> str:
    """``summary`` in ``width`` terminal columns, cut only between fields, never inside one
    ("intent affi…" says nothing): first whole slots go, so that the intent, the fallback and
    the completion still show, then whole fields from the end; "…" marks the cut."""
    if _columns(summary) <= width:
        return summary
    fields = summary.split(FIELD_SEPARATOR)
    at = next((i for i, field in enumerate(fields) if field.startswith("slots ")), None)
    if at is not None:
        slots = fields[at].removeprefix("slots ").split(SLOT_SEPARATOR)
        while len(slots) > 1:
            slots.pop()
            fields[at] = f"slots {SLOT_SEPARATOR.join([*slots, '…'])}"
            line = FIELD_SEPARATOR.join(fields)
            if _columns(line) <= width:
                return line
    while fields:
        fields.pop()
        line = FIELD_SEPARATOR.join([*fields, "…"])
        if _columns(line) <= width:
            return line
    return "…"


def _columns(text: str) -> int:
    """Terminal columns of ``text``: wide characters such as 한 take two."""
    return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in text)
