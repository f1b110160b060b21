"""Keyword matching that survives conjugation and negation.

A scenario author writes a keyword in one form ("끊을게요", "수고하세요", "忘れました",
"cancel"); users say another ("끊겠습니다", "수고하십시오", "忘れてた", "cancelled"). Rather than a
morphological analyser (a model to load, a native extension) a keyword is reduced to a stem by
a small rule set, and the stem is looked for in the (normalised) utterance:

Korean (the keyword's ending is stripped, longest first, when at least two syllables remain):
    -고 싶어요/-고 싶어/-고 싶습니다 (want to), -주세요/-주십시오/-줘요/-줘 (please do),
    -겠습니다/-습니다/-ㅂ니다 (formal), -을게요/-을게/-을래요/-을래 (will), -세요/-셔요/-시오,
    -어요/-아요/-여요/-에요/-예요/-이에요/-네요/-죠/-지요/-요;
    a stem ending in 하 (``-할게요``, ``-했어요``, ``-해요``, ``-합니다`` are reduced to it) matches
    every form of 하다: 하/해/했/할/함/합/한.
Japanese: -ました/-ます/-ません/-でした/-です/-ください/-て/-た are stripped (two characters
    must remain), so "忘れました" matches "忘れた" and "忘れてた".
English: a keyword's last word also matches with -s, -es, -ed, -d, -ing, and a doubled final
    consonant ("cancelled").

Spaces inside a keyword are optional in the utterance ("안 맞" matches "안맞아요"), a Korean
word of it may carry a particle or 쯤 ("언제 시작" matches "언제쯤 시작됐어요"), and one
word that is not a negation may come between its words ("밥은 사실 안 먹었"). A keyword
that does not itself express a negation does not match where the utterance negates it
("아파" is not in "안 아파요", "take" is not in "didn't take", "飲んだ" not in "飲んでない").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

_KO_ENDINGS: Final = tuple(
    sorted(
        (
            "고 싶어요",
            "고 싶어",
            "고 싶습니다",
            "주십시오",
            "주세요",
            "줘요",
            "줘",
            "겠습니다",
            "습니다",
            "을게요",
            "을게",
            "을래요",
            "을래",
            "ㄹ게요",
            "세요",
            "셔요",
            "시오",
            "어요",
            "아요",
            "여요",
            "이에요",
            "에요",
            "예요",
            "네요",
            "지요",
            "죠",
            "요",
        ),
        key=len,
        reverse=True,
    )
)
_KO_HA_FORMS: Final = {
    "할게요": "하",
    "할게": "하",
    "할래요": "하",
    "할래": "하",
    "했어요": "하",
    "했어": "하",
    "했습니다": "하",
    "합니다": "하",
    "해요": "하",
    "해": "하",
}
_JA_ENDINGS: Final = ("ました", "ません", "でした", "ください", "ます", "です", "て", "た")
_KO_GAP = r"(?:\s+(?!안\s|못\s|안$|못$)[^\s안못]\S*)?\s*"
"""Between the words of a keyword: optional space, or one inserted word that is not a
negation ("밥은 사실 안 먹었" says "밥은 안 먹었"; "네 안 맞아요" does not say "네 맞")."""
_KO_GLUED = r"(?:쯤|은|는|이|가|을|를|도|에)?"
"""A particle or "about" glued to a keyword's word before the next ("언제쯤 시작" says "언제
시작", "자극이 없" says "자극 없")."""
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_KANA_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_NEGATING_KEYWORD = re.compile(
    r"(?:^|\s)(?:안|못)(?:\s|$)|않|없|아니|ない|ません|なかっ|\bnot\b|n't\b|\bnever\b|\bno\b"
)
_KO_NEGATED_BEFORE = r"(?<!안 )(?<!못 )(?<!안)(?<!못)"
_KO_NEGATED_AFTER = (
    r"(?![^\s]*(?:지\s*(?:않|못|마)|면\s*안\s*(?:돼|되|됩)|(?:는지|은지|나)\s*"
    r"(?:궁금|모르|확인|알고\s*싶))|[^\s]*\s+[^\s]*(?:는지|은지|나)\s*(?:궁금|모르|확인|알고\s*싶))"
)
"""What unsays the keyword after it: "-지 않", a prohibition ("그대로 진행하면 안 돼요"), or
wondering whether ("제대로 들어갔는지 궁금해서요", "들어가 있나 궁금해서요" ask, they do not
say so)."""
_JA_NEGATED_AFTER = r"(?![^\s]{0,3}(?:ない|なかっ|ません|ず|かどうか))"
_EN_NEGATED_BEFORE = r"(?<!not )(?<!n t )(?<!n't )(?<!never )(?<!no )"
_EN_OBJECTS: Final = frozenset({"it", "them", "that", "this"})
_EN_PARTICLE_AFTER = r"(?!\s+(?:off|out|up|over|around)\b)"
_EN_OFF_TO = r"(?!\s+(?:to|on|for)\b)"
"""A keyword ending in "off" ("the date is off") is not said by someone being off somewhere
("we're off to Egypt in the spring")."""


_STRIP = re.compile(r"[\s\W_]+", re.UNICODE)


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """Lower-case, NFKC, punctuation and spaces removed: what keywords, examples and dialogue
    acts are compared on."""
    return _STRIP.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()


def stem(keyword: str) -> str:
    """The keyword without its conjugation ending (see the module docstring)."""
    word = keyword.strip()
    if _HANGUL.search(word):
        for ending, base in _KO_HA_FORMS.items():
            if word.endswith(ending) and len(word) - len(ending) >= 1:
                candidate = word[: -len(ending)] + base
                return candidate if len(candidate.replace(" ", "")) >= 2 else word
        for ending in _KO_ENDINGS:
            if word.endswith(ending):
                candidate = word[: -len(ending)].rstrip()
                return candidate if len(candidate.replace(" ", "")) >= 2 else word
        return word
    if _KANA_KANJI.search(word):
        for ending in _JA_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= 2:
                return word[: -len(ending)]
    return word


@lru_cache(maxsize=8192)
def keyword_pattern(keyword: str) -> re.Pattern[str]:
    """The compiled matcher of one (already normalised) keyword."""
    word = stem(keyword)
    negating = bool(_NEGATING_KEYWORD.search(keyword))
    if word.isascii():
        parts = [re.escape(part) for part in word.split()]
        last = parts[-1] if parts else ""
        if word and word[-1].isalpha():
            parts[-1] = f"{last}(?:{re.escape(word[-1])}?(?:ed|ing)|s|es|d)?"
        body = r"\s+".join(parts)
        before = "" if negating else _EN_NEGATED_BEFORE
        # "drop it" is not said by "drop it off": a particle after the object is another verb.
        last_word = word.split()[-1]
        if last_word in _EN_OBJECTS:
            after = _EN_PARTICLE_AFTER
        elif last_word == "off":
            after = _EN_OFF_TO
        else:
            after = ""
        return re.compile(rf"{before}(?<![a-z0-9]){body}(?![a-z0-9]){after}")
    gap = _KO_GLUED + _KO_GAP if _HANGUL.search(word) else _KO_GAP
    body = gap.join(re.escape(part) for part in word.split())
    if word.endswith("하") and (len(word.replace(" ", "")) >= 3 or " " in word):
        body = body[: -len(re.escape("하"))] + "(?:하|해|했|할|함|합|한)"
    if negating:
        return re.compile(body)
    if _HANGUL.search(word):
        return re.compile(_KO_NEGATED_BEFORE + body + _KO_NEGATED_AFTER)
    return re.compile(body + _JA_NEGATED_AFTER)


def keyword_needle(keyword: str) -> str:
    """Text every match of ``keyword_pattern(keyword)`` contains (its stem's first word, less
    a conjugated 하): a caller skips the search, whose lookbehinds try every position, when
    the text lacks it."""
    parts = stem(keyword).split()
    first = parts[0] if parts else ""
    return first[:-1] if len(parts) == 1 and first.endswith("하") else first


def keyword_in(text: str, keyword: str) -> bool:
    """Whether the normalised ``text`` says ``keyword`` (in any conjugated, non-negated form)."""
    return bool(keyword) and keyword_pattern(keyword).search(text) is not None
