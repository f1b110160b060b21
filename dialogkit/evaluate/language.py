"""What a simulated user says besides slot values, in the scenario's language (ko, ja, en).

Yes/no and leave-taking come from the built-in intents' own examples, so a simulated user
speaks the way the rule NLU was taught; the rest (corrections, off-topic remarks, free-text
answers) is here. Unknown languages use English.
"""

from __future__ import annotations

import re
from typing import Final

from dialogkit.nlu._builtin import BUILTIN_INTENTS

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_KANA_OR_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

CORRECTION: Final[dict[str, str]] = {
    "ko": "아니요, {value}요",
    "ja": "いいえ、{value}です",
    "en": "no, I meant {value}",
}
"""How a user takes back a value the bot understood wrongly."""

SENTENCE_ENDINGS: Final[dict[str, tuple[str, ...]]] = {
    "ko": ("요", "다", "니다", "죠"),
    "ja": ("す", "た", "い", "ね", "よ", "ください"),
    "en": (),
}
"""Endings of a phrase that is already a sentence: a correction says it as it is, without
the template's own ending ("아니요, 손주가 다녀갔어요", never "...다녀갔어요요")."""


def correction(value: str, language: str) -> str:
    """How a user says "no, I meant ``value``" in ``language``."""
    template = CORRECTION[supported(language)]
    stripped = value.rstrip(" .!?。！？")
    if stripped.endswith(SENTENCE_ENDINGS[supported(language)]):
        template = template[: template.index("{value}") + len("{value}")]
    return template.format(value=value)


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
"""Answers to an open question about the user ("what happened?", "why?"): a free-text slot
with no examples whose question asks for no request."""

REQUESTS: Final[dict[str, tuple[str, ...]]] = {
    "ko": (
        "문 앞에 놓아 주세요",
        "도착하기 전에 전화 주세요",
        "엘리베이터가 없어요",
        "현관 비밀번호는 문자로 보내 드릴게요",
    ),
    "ja": (
        "玄関の前に置いてください",
        "着く前に電話をください",
        "エレベーターがありません",
        "駐車場は建物の裏にあります",
    ),
    "en": (
        "please call before you arrive",
        "leave it at the front door",
        "there is no elevator",
        "the parking is behind the building",
    ),
}
"""Answers to "any requests?" or "a note for us?": a note a customer leaves, never a diary
sentence that happens to be text."""

REQUEST_WORDS: Final[tuple[str, ...]] = (
    "request",
    "note",
    "instruction",
    "요청",
    "메모",
    "전달",
    "要望",
    "備考",
    "メモ",
    "リクエスト",
)
"""Words of a free-text slot's description or prompt that ask for a request or a note."""


def asks_for_request(description: str, prompt: str) -> bool:
    """Whether a free-text question asks for a request or a note (not for an account)."""
    text = f"{description} {prompt}".lower()
    return any(word in text for word in REQUEST_WORDS)


ADDRESSES: Final[dict[str, tuple[str, ...]]] = {
    "ko": (
        "서울시 마포구 월드컵로 12길 34",
        "부산시 해운대구 해운대로 570",
        "대구시 수성구 동대구로 88",
        "인천시 연수구 송도동 24-5",
        "서울시 강남구 테헤란로 152",
    ),
    "ja": (
        "東京都新宿区西新宿2-8-1",
        "大阪府大阪市北区梅田3-1-1",
        "京都府京都市中京区河原町通4-12",
        "福岡県福岡市博多区博多駅前2-1-1",
        "神奈川県横浜市西区みなとみらい2-3-5",
    ),
    "en": (
        "221 Baker Street, Springfield",
        "42 Oak Avenue, Portland",
        "1600 Main Street, Apt 4B, Boston",
        "75 Elm Road, Austin",
        "9 Harbor Lane, Seattle",
    ),
}
"""Answers to "where should we deliver it?" (an address slot with no examples)."""


PERSON_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "ko": ("김민준", "이서연", "박지훈", "최수아", "정우진", "강하은", "조현우", "윤지민"),
    "ja": ("佐藤花子", "鈴木一郎", "高橋美咲", "田中健太", "伊藤さくら", "渡辺大輔", "山本優子"),
    "en": (
        "Emma Johnson",
        "Liam Carter",
        "Olivia Brown",
        "Noah Miller",
        "Ava Thompson",
        "Lucas Green",
        "Mia Robinson",
    ),
}
"""Answers to "what name should I put it under?" (a person_name slot with no examples): a
real name in the scenario's language, never a remark that only looks like an answer."""

PHONE_FORMATS: Final[dict[str, tuple[str, ...]]] = {
    "ko": ("010-{4}-{4}",),
    "ja": ("090-{4}-{4}", "080-{4}-{4}"),
    "en": ("415-{3}-{4}", "212-{3}-{4}", "617-{3}-{4}"),
}
"""Phone numbers as people of each language write theirs: ``{n}`` is n random digits."""


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
