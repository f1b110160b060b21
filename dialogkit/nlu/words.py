"""Word lists as one regular expression, shared by the value readers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final


def any_word(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern for any of ``words``, longest first so "내일모레" wins over "내일"; Latin
    words must stand alone ("tonight" is not in "fortnight"), Hangul and kana need not."""
    return re.compile(
        "|".join(
            rf"(?<![a-z]){re.escape(w)}(?![a-z])" if w.isascii() else re.escape(w)
            for w in sorted(words, key=len, reverse=True)
        )
    )


_REJECTED_BEFORE: Final = re.compile(
    r"じゃなくて|じゃなく|ではなく|でなく|の代わりに|から|말고|아니라|아니고|대신에?|에서"
    r"|\b(?:change|move|switch|push|bring)\w*\b[^.]*?\bfrom\b|\bnot\b[^,.]*\bbut\b|->|→"
)
"""Markers after a value that is being replaced ("明日じゃなくて明後日", "내일 말고 모레")."""
_REJECTED_AFTER: Final = re.compile(r"\binstead of\b|\brather than\b|,\s*not\b")
"""Markers before a value that is being replaced ("Friday, not Thursday")."""
_RANGE: Final = re.compile(r"まで|까지|\buntil\b|\btill\b")


def meant_part(text: str) -> str | None:
    """The part of ``text`` holding the value the user means when a value is replaced in
    the same breath ("明日じゃなくて明後日" -> "明後日", "Friday, not Thursday" -> "Friday");
    None when nothing is replaced, or for a range ("3日から5日まで")."""
    if _RANGE.search(text):
        return None
    ends = [marker.end() for marker in _REJECTED_BEFORE.finditer(text)]
    if ends:
        return text[ends[-1] :]
    rejected = _REJECTED_AFTER.search(text)
    return text[: rejected.start()] if rejected else None
