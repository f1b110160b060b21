"""Word lists as one regular expression, shared by the value readers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from dialogkit.nlu.lang import pattern


def any_word(words: Iterable[str], *, syllables_start_words: bool = False) -> re.Pattern[str]:
    """A pattern for any of ``words``, longest first so "내일모레" wins over "내일"; Latin
    words must stand alone ("tonight" is not in "fortnight"), Hangul and kana need not. With
    ``syllables_start_words`` a one-syllable Hangul word must start a word ("낼" is tomorrow,
    not the end of "보낼")."""

    def source(word: str) -> str:
        if word.isascii():
            return rf"(?<![a-z]){re.escape(word)}(?![a-z])"
        if syllables_start_words and len(word) == 1 and _SYLLABLE.match(word):
            return rf"(?<![{_SYLLABLES}]){re.escape(word)}"
        return re.escape(word)

    return re.compile("|".join(source(w) for w in sorted(words, key=len, reverse=True)))


_IDEOGRAPHS: Final = "\u3400-\u4dbf\u4e00-\u9fff"
_NUMERAL_IDEOGRAPHS: Final = "〇一二三四五六七八九十百千万何数"
_SYLLABLES: Final = "\uac00-\ud7a3"
_SYLLABLE: Final = re.compile(f"[{_SYLLABLES}]")


def noun_source(word: str) -> str:
    """The pattern source of a noun said in a sentence: a Latin word stands alone, and a
    one-character noun is a word of its own, never a piece of a longer one ("名" counts in
    "3名" but is not in "名前", "명" counts in "세 명" but is not in "성명"); a numeral
    ideograph may stand before it ("三名")."""
    needle = re.escape(word)
    if word.isascii():
        return rf"(?<![a-z]){needle}(?![a-z])"
    if len(word) == 1 and re.match(f"[{_IDEOGRAPHS}]", word):
        before = rf"(?:(?<=[{_NUMERAL_IDEOGRAPHS}])|(?<![{_IDEOGRAPHS}]))"
        return rf"{before}{needle}(?![{_IDEOGRAPHS}])"
    if len(word) == 1 and re.match(f"[{_SYLLABLES}]", word):
        return rf"(?<![{_SYLLABLES}]){needle}"
    return needle


@lru_cache(maxsize=1024)
def nouns_pattern(nouns: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``nouns`` as whole nouns (see ``noun_source``), longest first; compiled once
    per noun list, since every turn of a scenario reads the same ones."""
    ordered = sorted(dict.fromkeys(nouns), key=len, reverse=True)
    return re.compile("|".join(noun_source(noun) for noun in ordered) or r"(?!x)x")


_LAST_PHRASE: Final = re.compile(r"[\s、,]*[^\s、,]+\s*$")
_WORDLIKE: Final = re.compile(r"\w")
_DIGIT: Final = re.compile(r"\d")


def _markers(language: str, moves: bool) -> re.Pattern[str]:
    """Markers after a value being replaced ("明日じゃなくて明後日", "내일 말고 모레"), and with
    ``moves`` after a value being moved from ("7시에서 8시로", "4명 대신 5명"): for values
    only, since "회사에서", "東京から" or "제가 대신 받을게요" in a sentence is no
    correction."""
    if moves:
        return pattern(language, "replaced_or_moved", lambda p: (*p.replaced, *p.moved))
    return pattern(language, "replaced", lambda p: p.replaced)


def _moved_range(text: str, language: str) -> str | None:
    """The new value of a move said as a range ("change it from Thursday to Friday" ->
    "Friday"): what follows the range's joint."""
    joint = pattern(language, "range_joint", lambda p: p.range_joint)
    found = list(joint.finditer(text))
    return text[found[-1].end() :] if found and _WORDLIKE.search(text[found[-1].end() :]) else None


def replacement(text: str, *, moves: bool = False, language: str = "") -> str | None:
    """The part of ``text`` the user means when a value is replaced in the same breath
    ("明日じゃなくて明後日" -> "明後日", "신용카드요, 체크카드 말고" -> "신용카드요",
    "Friday, not Thursday" -> "Friday"); None when nothing is replaced, or for a range
    ("3日から5日まで"). With ``moves``, a value moved from ("7시에서 8시로") counts too.

    The one reader of these forms: value extraction and the correction act both use it.
    """
    ranged = pattern(language, "range_end", lambda p: p.range_end).search(text)
    markers = list(_markers(language, moves).finditer(text))
    moved = pattern(language, "moved", lambda p: p.moved)
    if ranged and not (
        # "처음엔 도배까지 싹 하려고 했는데요, 그냥 장판만": a first thought given up after the
        # "까지" (even) of a value, not the end of a range.
        markers
        and ranged.end() <= markers[-1].start()
        and not moved.fullmatch(markers[-1].group(0))
    ):
        return None
    if markers:
        last = markers[-1]
        after = text[last.end() :]
        if moves and moved.fullmatch(last.group(0)):
            after = _moved_range(after, language) or after
        before = text[: last.start()]
        if len(_WORDLIKE.findall(after)) > 1 or _DIGIT.search(after):
            kept = before.rstrip()
            if len(last.group(0).split()) > 1 and kept[-1:] in {",", ";"}:
                # The marker holds the rejected value and the meant one came first:
                # "Thursday, not Wednesday, at 11 am" means Thursday at 11 am.
                return f"{kept[:-1]} {after}"
            return after
        # The rejected value comes last: "신용카드요, 체크카드 말고", "スモール、ラージじゃなくて".
        rejected = _LAST_PHRASE.search(before)
        meant = before[: rejected.start()] if rejected else ""
        return meant if _WORDLIKE.search(meant) else None
    rejected_after = pattern(language, "rejected_after", lambda p: p.rejected_after).search(text)
    return text[: rejected_after.start()] if rejected_after else None


def meant_part(text: str, language: str = "") -> str | None:
    """The part of ``text`` holding the value the user means (see ``replacement``)."""
    return replacement(text, moves=True, language=language)
