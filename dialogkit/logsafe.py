"""Client-supplied text made safe to write into a log line.

Node ids, skill ids, session ids, model names and utterances come from requests and posted
graphs. Written raw, a newline in one of them starts a forged log line, and a megabyte-long
id floods the log. Every log call that carries client data passes it through ``escape``.
"""

from __future__ import annotations

import re
from typing import Final

MAX_FIELD_CHARS: Final = 200
"""How much of one client value a log line shows; the rest is counted, not written."""

_UNSAFE: Final = re.compile(r"[\\\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Backslash (so an escape stays unambiguous), C0/C1 controls and the Unicode line breaks."""


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    return "\\\\" if char == "\\" else char.encode("unicode_escape").decode("ascii")


def escape(value: object, limit: int | None = MAX_FIELD_CHARS) -> str:
    """``value`` as one printable line: controls escaped, cut to ``limit`` characters.

    Letters of every script stay as they are (scenarios are often Korean or Japanese); only
    characters that could end or rewrite a line are written as escapes.
    """
    text = value if isinstance(value, str) else str(value)
    extra = ""
    if limit is not None and len(text) > limit:
        extra = f"...(+{len(text) - limit} chars)"
        text = text[:limit]
    return _UNSAFE.sub(_escaped, text) + extra


__all__ = ["MAX_FIELD_CHARS", "escape"]
