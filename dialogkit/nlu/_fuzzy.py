"""One-edit typo tolerance for enum values and their synonyms.

A typed "cappucino" or "체크카두" should still choose the value, but only when nothing else
could be meant: the value must be long enough that one edit cannot turn another word into
it, and when two values are both one edit away nothing is chosen. Hangul is compared by
jamo (NFD splits a syllable into its letters), so "체크카두" is one edit from "체크카드"
rather than one whole syllable, and a one-letter slip in a syllable counts as one edit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

MIN_LETTERS: Final = 5
"""Shortest value (in letters, jamo for Hangul) that one edit may reach."""

MIN_SYLLABLES: Final = 3
"""Shortest Hangul value, in syllables: the last syllable of a short Korean word carries its
ending, so one letter changes the meaning ("먹음" ate, "먹을" to eat; "좋음", "좋은")."""

_SYLLABLE: Final = re.compile(r"[가-힣]")

_WORD: Final = re.compile(r"\w+", re.UNICODE)


def _as_initials(final: str) -> str:
    """The initial consonants a final one is written with ("ᆪ" -> "ᄀᄉ")."""
    parts = unicodedata.name(final).removeprefix("HANGUL JONGSEONG ").split("-")
    return "".join(unicodedata.lookup(f"HANGUL CHOSEONG {part}") for part in parts)


_FINAL_AS_INITIAL: Final = str.maketrans(
    {chr(code): _as_initials(chr(code)) for code in range(0x11A8, 0x11C3)}
)
"""A final consonant written as the initial it sounds like when the next syllable takes it:
"쳌카드" is one letter from "체크카드", "시뇽카드" one from "신용카드"."""


@lru_cache(maxsize=4096)
def letters(text: str) -> str:
    """Lower case, with Hangul syllables split into jamo (final consonants as initials)."""
    return unicodedata.normalize("NFD", text.lower()).translate(_FINAL_AS_INITIAL)


def within_one_edit(left: str, right: str) -> bool:
    """Damerau-Levenshtein distance (optimal string alignment) of at most one."""
    if left == right:
        return True
    if abs(len(left) - len(right)) > 1:
        return False
    if len(left) > len(right):
        left, right = right, left
    prefix = 0
    while prefix < len(left) and left[prefix] == right[prefix]:
        prefix += 1
    if len(left) < len(right):
        return left[prefix:] == right[prefix + 1 :]
    if left[prefix + 1 :] == right[prefix + 1 :]:
        return True
    return (
        prefix + 1 < len(left)
        and left[prefix] == right[prefix + 1]
        and left[prefix + 1] == right[prefix]
        and left[prefix + 2 :] == right[prefix + 2 :]
    )


@dataclass(frozen=True, slots=True)
class Target:
    """A needle one edit may reach, in letters, with its word count and the value it names."""

    letters: str
    words: int
    value: str
    alphabet: frozenset[str]
    """Its letters as a set: a run whose first ``len(letters) + 1`` letters lack two of them
    is more than one edit away (a cheap test before the edit distance)."""


def targets(needles: Iterable[tuple[str, str]]) -> tuple[Target, ...]:
    """The (needle, value) pairs long enough that one edit cannot turn another word into
    them, prepared once per slot rather than on every utterance."""
    kept: list[Target] = []
    for needle, value in needles:
        target = letters(needle)
        syllables = len(_SYLLABLE.findall(needle))
        if len(target) < MIN_LETTERS or 0 < syllables < MIN_SYLLABLES:
            continue
        kept.append(Target(target, len(needle.split()), value, frozenset(target)))
    return tuple(kept)


def closest(text: str, candidates: Sequence[Target]) -> str | None:
    """The value of the target one edit from a word (or run of words) of ``text``.

    None when no target is close enough, or when targets of two different values are."""
    found: set[str] = set()
    tokens = _WORD.findall(text)
    windows: dict[int, list[str]] = {}
    for target in candidates:
        if target.value in found:
            continue
        runs = windows.get(target.words)
        if runs is None:
            # Runs of that many consecutive words: Korean and Japanese glue particles to
            # the word ("체크카두로"), which ``_near`` allows for.
            count = target.words
            runs = [
                letters(" ".join(tokens[i : i + count])) for i in range(len(tokens) - count + 1)
            ]
            windows[count] = runs
        reach = len(target.letters) + 1
        if any(
            len(target.alphabet.difference(run[:reach])) <= 1 and _near(run, target.letters)
            for run in runs
        ):
            found.add(target.value)
            if len(found) > 1:
                return None
    return found.pop() if found else None


def _near(window: str, target: str) -> bool:
    """One edit from ``target``, allowing trailing letters glued to the window (a Korean
    particle or Japanese okurigana after the word)."""
    if within_one_edit(window, target):
        return True
    if window.isascii():
        return False
    for cut in (len(target) - 1, len(target), len(target) + 1):
        if 0 < cut < len(window) and within_one_edit(window[:cut], target):
            return True
    return False
