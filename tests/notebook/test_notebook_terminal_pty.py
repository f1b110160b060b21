"""``dialogkit chat`` as a person runs it: a real process on a pseudo-terminal.

A pseudo-terminal matters here: Sanic prints its production-mode warning only to a terminal,
readline is active only on one, and the status line is fitted to the terminal's width.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
import unicodedata

import pytest

from dialogkit.cli import build_parser
from tests.helpers import CARD_ISSUANCE_TURNS, ROOT

COLUMNS = 60
ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[=>])")


def display_width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in line)


def chat_on_a_terminal(lines: list[str], *args: str, timeout_s: float = 45.0) -> tuple[int, str]:
    """Run ``dialogkit chat ARGS`` on a pty COLUMNS wide; type each line at a ``you>`` prompt."""
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environment["TERM"] = "dumb"
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal is the pty's other end
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
        os.chdir(ROOT)
        os.execve(
            sys.executable, [sys.executable, "-m", "dialogkit.cli", "chat", *args], environment
        )
    output = b""
    pending = list(lines)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # the child closed the terminal: it exited
                    break
                if not chunk:
                    break
                output += chunk
            if pending and output.rstrip().endswith(b"you>"):
                os.write(fd, pending.pop(0).encode() + b"\n")
                output += b"\n"  # so the same prompt is not answered twice
        else:
            os.kill(pid, 9)
            pytest.fail(f"chat did not end in {timeout_s} s:\n{output.decode(errors='replace')}")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = ANSI.sub("", output.decode(errors="replace")).replace("\r\n", "\n")
    return os.waitstatus_to_exitcode(status), text


def test_chat_ends_at_completion_with_the_final_data_and_no_framework_warnings() -> None:
    code, out = chat_on_a_terminal(CARD_ISSUANCE_TURNS, "card_issuance")

    assert code == 0, out
    banner = out.splitlines()[0]
    assert banner.startswith("card_issuance: in-process, with the reference skill runtime,")
    assert "rule NLU (offline), template NLG (offline)" in banner
    assert "default model" not in out
    assert "WARNING" not in out and "PRODUCTION" not in out, out
    assert "발급 신청이 접수되었어요" in out
    assert "session complete (completed). Final data:" in out
    final = out[out.index("Final data:") :]
    assert '"card_type": "체크카드"' in final and '"name": "김민수"' in final
    # It returned by itself: no prompt after the final data.
    assert "you>" not in final


def test_the_status_line_stays_within_the_terminal_width() -> None:
    code, out = chat_on_a_terminal([*CARD_ISSUANCE_TURNS[:5], "/quit"], "card_issuance")

    assert code == 0, out
    status_lines = [line for line in out.splitlines() if line.startswith("     [")]
    assert len(status_lines) == 6
    assert all(display_width(line) <= COLUMNS for line in status_lines), status_lines
    assert status_lines[-1].endswith("…]")  # five slots do not fit in 60 columns
    for line in status_lines:  # a cut falls between fields or slots, never inside one
        if line.endswith("…]"):
            assert line.endswith((" · …]", ", …]")), line


def test_every_chat_option_is_documented_in_help() -> None:
    parser = build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    chat = commands.choices["chat"]
    for action in chat._actions:
        assert action.help, action.dest
    assert chat.description and "/quit" in (chat.epilog or "")
