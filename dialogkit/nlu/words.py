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


_REPLACED: Final = re.compile(
    r"じゃなくて|じゃなく|ではなくて|ではなく|でなく|の代わりに|말고|아니라|아니고"
    r"|\bnot\b[^,.]*?,?\s*\bbut\b"
)
"""Markers after a value that is being replaced ("明日じゃなくて明後日", "내일 말고 모레")."""
_MOVED: Final = re.compile(
    r"から|에서|대신에?|\b(?:change|move|switch|push|bring)\w*\b[^.]*?\bfrom\b|->|→"
)
"""Markers after a value that is being moved from ("7시에서 8시로", "4명 대신 5명"): for
values only, since "회사에서", "東京から" or "제가 대신 받을게요" in a sentence is no
correction."""
_REPLACED_OR_MOVED: Final = re.compile(f"{_REPLACED.pattern}|{_MOVED.pattern}")
_REJECTED_AFTER: Final = re.compile(r"\binstead of\b|\brather than\b|,\s*not\b")
"""Markers before a value that is being replaced ("Friday, not Thursday")."""
_RANGE: Final = re.compile(r"まで|까지|\buntil\b|\btill\b")
_LAST_PHRASE: Final = re.compile(r"[\s、,]*[^\s、,]+\s*$")
_WORDLIKE: Final = re.compile(r"\w")


def replacement(text: str, *, moves: bool = False) -> str | None:
    """The part of ``text`` the user means when a value is replaced in the same breath
    ("明日じゃなくて明後日" -> "明後日", "신용카드요, 체크카드 말고" -> "신용카드요",
    "Friday, not Thursday" -> "Friday"); None when nothing is replaced, or for a range
    ("3日から5日まで"). With ``moves``, a value moved from ("7시에서 8시로") counts too.

    The one reader of these forms: value extraction and the correction act both use it.
    """
    if _RANGE.search(text):
        return None
    markers = list((_REPLACED_OR_MOVED if moves else _REPLACED).finditer(text))
    if markers:
        last = markers[-1]
        after = text[last.end() :]
        if _WORDLIKE.search(after):
            return after
        # The rejected value comes last: "신용카드요, 체크카드 말고", "スモール、ラージじゃなくて".
        before = text[: last.start()]
        rejected = _LAST_PHRASE.search(before)
        meant = before[: rejected.start()] if rejected else ""
        return meant if _WORDLIKE.search(meant) else None
    rejected_after = _REJECTED_AFTER.search(text)
    return text[: rejected_after.start()] if rejected_after else None


def meant_part(text: str) -> str | None:
    """The part of ``text`` holding the value the user means (see ``replacement``)."""
    return replacement(text, moves=True)
