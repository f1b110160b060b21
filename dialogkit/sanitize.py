"""Text from a model or a skill runtime, made safe to store and to send.

Such text is not under the operator's control: a lone UTF-16 surrogate (``"\\ud800"``, which
JSON allows as an escape) cannot be encoded as UTF-8, so one of them in a reply made the HTTP
response fail after the turn was saved; control characters garble terminals and logs; and a
runaway model can answer megabytes that would then live in the session's history. Every
string that comes from outside passes through ``clean_text`` (or ``clean_value`` for JSON
data) before it is stored or sent. An answer that is empty after cleaning counts as no answer:
the caller uses its documented fallback.
"""

from __future__ import annotations

import re
from typing import Any, Final

DEFAULT_MAX_TEXT_CHARS: Final = 4000
"""Default cap on one model or skill text (``DIALOGKIT_MAX_TEXT_CHARS``): far above a spoken
reply, far below what would bloat a stored session."""

_LINE_BREAKS: Final = re.compile(r"\r\n?|[\u2028\u2029\x85]")
_UNSAFE: Final = re.compile(
    # C0 controls but \t and \n, DEL and C1 controls, lone surrogates (a valid astral
    # character is one code point in a Python str, so any surrogate left is lone), and the
    # noncharacters U+FFFE/U+FFFF.
    "[\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
)
_ONE_LINE_SPACE: Final = re.compile(r"[\t\n]+")


def clean_text(
    text: str, max_chars: int = DEFAULT_MAX_TEXT_CHARS, *, multiline: bool = True
) -> str:
    """``text`` without unsafe characters, stripped, and at most ``max_chars`` long.

    Line breaks of every convention become ``\\n``; with ``multiline`` false, tabs and line
    breaks become single spaces (for labels such as an entity value). A cut keeps whole words
    when a space is near the limit, so a capped reply does not end mid-word.
    """
    text = _UNSAFE.sub("", _LINE_BREAKS.sub("\n", text))
    if not multiline:
        text = _ONE_LINE_SPACE.sub(" ", text)
    text = text.strip()
    if len(text) <= max_chars:
        return text
    cut = text[:max_chars]
    space = cut.rfind(" ", max_chars - max_chars // 10)
    return (cut[:space] if space > 0 else cut).rstrip()


def clean_value(value: Any, max_chars: int = DEFAULT_MAX_TEXT_CHARS) -> Any:
    """JSON data with every unsafe or over-long string (object keys included) cleaned.

    A string that is already safe is kept as it is, surrounding spaces included: data (a
    skill's output, an entity value) is not text to tidy, and clean data must come back
    equal to itself.
    """
    if isinstance(value, str):
        return value if _is_clean(value, max_chars) else clean_text(value, max_chars)
    if isinstance(value, dict):
        return {clean_value(str(k), max_chars): clean_value(v, max_chars) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_value(item, max_chars) for item in value]
    return value


def _is_clean(text: str, max_chars: int) -> bool:
    return len(text) <= max_chars and _UNSAFE.search(text) is None and "\r" not in text
