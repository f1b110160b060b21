"""What a simulated user says besides slot values, in the scenario's language (ko, ja, en).

Yes/no and leave-taking come from the built-in intents' own examples, so a simulated user
speaks the way the rule NLU was taught; the rest (corrections, off-topic remarks, free-text
answers) is here. Unknown languages use English.
"""

from __future__ import annotations

import re
from typing import Final

from dialogkit.nlu.builtin import BUILTIN_INTENTS

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_KANA_OR_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

CORRECTION: Final[dict[str, str]] = {
    "ko": "아니요, {value}요",
    "ja": "いいえ、{value}です",
    "en": "no, I meant {value}",
}
"""How a user takes back a value the bot understood wrongly."""

CONNECTOR: Final[dict[str, str]] = {"ko": " ", "ja": "、", "en": ", "}
"""Between several values said in one utterance."""

OFF_TOPIC: Final[dict[str, tuple[str, ...]]] = {
    "ko": ("오늘 날씨 진짜 좋네요", "잠깐만요, 전화가 와서요", "음... 뭐였더라"),
    "ja": ("今日はいい天気ですね", "ちょっと待ってください", "ええと、何だっけ"),
    "en": ("nice weather today", "hold on, my phone is ringing", "hmm, what was it again"),
}

FREE_TEXT: Final[dict[str, tuple[str, ...]]] = {
    "ko": (
        "손주가 다녀갔어요",
        "시장에 다녀왔어요",
        "텔레비전을 오래 봤어요",
        "화분에 물을 줬어요",
    ),
    "ja": (
        "孫が遊びに来ました",
        "市場に行ってきました",
        "テレビを長く見ました",
        "花に水をやりました",
    ),
    "en": (
        "my grandson visited",
        "I went to the market",
        "I watched TV for long",
        "I watered the plants",
    ),
}
"""Answers to open questions (a text slot with no examples)."""


def language_of(text: str) -> str:
    """The script a phrase is written in: ``ko``, ``ja`` or ``en`` (anything else)."""
    if _HANGUL.search(text):
        return "ko"
    if _KANA_OR_KANJI.search(text):
        return "ja"
    return "en"


def supported(language: str) -> str:
    """``language`` when phrases exist for it, else ``en``."""
    return language if language in CORRECTION else "en"


def builtin_examples(intent: str, language: str) -> list[str]:
    """The examples of a built-in intent written in ``language``."""
    found = BUILTIN_INTENTS.get(intent)
    if found is None:
        return []
    return [text for text in found.examples if language_of(text) == supported(language)]
