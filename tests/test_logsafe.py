"""``escape``: client text in a log line stays on that line and stays short."""

from __future__ import annotations

import pytest

from dialogkit.logsafe import MAX_FIELD_CHARS, escape


@pytest.mark.parametrize(
    "line_break", ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]
)
def test_no_line_break_survives(line_break: str) -> None:
    escaped = escape(f"node{line_break}2026-01-01 ERROR forged")
    assert len(escaped.splitlines()) == 1
    assert escaped.startswith("node\\")


def test_letters_of_every_script_stay_readable() -> None:
    assert escape("주소 確認 adresse") == "주소 確認 adresse"


def test_a_backslash_is_escaped_so_escapes_stay_unambiguous() -> None:
    assert escape("a\\nb") == "a\\\\nb"
    assert escape("a\nb") == "a\\nb"


def test_long_values_are_cut_and_counted() -> None:
    escaped = escape("x" * (MAX_FIELD_CHARS + 50))
    assert escaped == "x" * MAX_FIELD_CHARS + "...(+50 chars)"
    assert escape("x" * 5000, limit=None) == "x" * 5000


def test_terminal_escape_sequences_are_neutralized() -> None:
    assert "\x1b" not in escape("\x1b[31mred")
