"""The thing a question intent asks about, for questions said in other words.

"혹시 냉장고 긁히면 보상해 주시나요?" shares few characters with "물건 깨지면 보상되나요?", but
both ask about 보상 (compensation), and no other intent of the scenario mentions it. A
question intent's *topics* are the content words of its examples that no other intent's
examples or keywords use; a question that names one topic of exactly one intent asks that
intent's question. Topics are computed once per scenario (``RuleIndex``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from dialogkit.nlu._acts import asks
from dialogkit.nlu._morphology import normalize
from dialogkit.nlu.lang import pattern, words
from dialogkit.scenario.model import Intent

TOPIC_SCORE: Final = 0.7
"""A question that names an intent's topic: above no intent, below any keyword."""

_HANGUL_NOUN: Final = re.compile(
    r"^([가-힣][가-힣](?<![요다죠까나고서면]))(?:$|[하해했되돼됐은는이가을를도에로으])"
)
"""A two-syllable Korean noun, alone or before a verbaliser or a particle ("보상되나요")."""
_KANJI_RUN: Final = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ff]{2,}")
_LATIN_WORD: Final = re.compile(r"[a-z]{5,}")


def topic_roots(text: str) -> frozenset[str]:
    """The content roots of a text: Korean two-syllable nouns, runs of kanji or katakana,
    English words of five letters or more (their first five letters)."""
    normal = normalize(text)
    roots: set[str] = set()
    for word in normal.split():
        noun = _HANGUL_NOUN.match(word)
        if noun:
            roots.add(noun.group(1))
    roots.update(_KANJI_RUN.findall(normal))
    common = frozenset(words("", lambda p: p.common_words))
    roots.update(w[:5] for w in _LATIN_WORD.findall(normal) if w not in common)
    asking = pattern("", "question_word", lambda p: p.question_word)
    return frozenset(root for root in roots if root not in common and not asking.search(root))


def only_asks(intent: Intent | None, language: str = "") -> bool:
    """Whether every example of an intent asks (an FAQ, an interviewer's question)."""
    if intent is None or not intent.examples:
        return False
    return all(asks(example, language) for example in intent.examples)


def _said(intent: Intent) -> Iterable[str]:
    return (*intent.examples, *intent.keywords)


def distinctive_topics(intents: Mapping[str, Intent]) -> dict[str, frozenset[str]]:
    """Each question intent's topics: roots of its examples found in no other intent's
    examples or keywords (an intent whose examples are not all questions has none)."""
    topics: dict[str, frozenset[str]] = {}
    for name, intent in intents.items():
        if not only_asks(intent):
            continue
        others = " ".join(
            normalize(text) for other, i in intents.items() if other != name for text in _said(i)
        )
        roots = frozenset().union(*(topic_roots(e) for e in intent.examples))
        kept = frozenset(root for root in roots if root not in others)
        if kept:
            topics[name] = kept
    return topics


def asked_topic(
    text: str, topics: Mapping[str, frozenset[str]], candidates: Iterable[str]
) -> str | None:
    """The one candidate intent whose topic the question names, else None."""
    normal = normalize(text)
    named = [
        name
        for name in candidates
        if name in topics and any(_names(root, normal) for root in topics[name])
    ]
    return named[0] if len(named) == 1 else None


def _names(root: str, normal: str) -> bool:
    if root.isascii():
        return re.search(rf"\b{re.escape(root)}", normal) is not None
    return root in normal
