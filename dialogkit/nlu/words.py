"""Word lists as one regular expression, shared by the value readers."""

from __future__ import annotations

import re
from collections.abc import Iterable


def any_word(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern for any of ``words``, longest first so "내일모레" wins over "내일"; Latin
    words must stand alone ("tonight" is not in "fortnight"), Hangul and kana need not."""
    return re.compile(
        "|".join(
            rf"(?<![a-z]){re.escape(w)}(?![a-z])" if w.isascii() else re.escape(w)
            for w in sorted(words, key=len, reverse=True)
        )
    )
