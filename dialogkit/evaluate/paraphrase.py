"""How people say things that the scenario's own examples do not: the paraphrasing persona.

A cooperative simulated user words its answers with the scenario's intent examples and
slot wordings, which are exactly what the rule NLU matches; its success measures whether
the graph can be walked, not whether users are understood. The paraphrasing persona talks
from this bank instead: other words for the dialogue acts (yes, no, cancel, repeat, help,
goodbye, thanks), values said in other forms (dates, times, numbers spelled out, phone
numbers with spaces), fillers, and corrections within an utterance. Nothing here comes from
a scenario, so its success rate is an honest measure of robustness; language knowledge is
data, per language (ko, ja, en; others use English).
"""

from __future__ import annotations

import random
import re
from datetime import date, time
from typing import Any, Final

ACTS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "affirm": {
        "ko": (
            "네 그렇게 해 주세요",
            "좋아요 그걸로 할게요",
            "맞아요 맞아",
            "그렇죠",
            "예 부탁해요",
        ),
        "ja": (
            "はい、それでお願いします",
            "ええ、そうです",
            "うん、それでいいよ",
            "結構です、それで",
        ),
        "en": ("yep, go ahead", "sounds right to me", "sure thing", "that works", "correct, yes"),
    },
    "deny": {
        "ko": ("아뇨", "아니요 그건 아니에요", "아닌데요"),
        "ja": ("いえ", "いいえ、違います", "そうじゃないです"),
        "en": ("nope", "no, not really", "nah"),
    },
    "cancel": {
        "ko": ("그만할게요", "없던 일로 해 주세요", "안 할래요"),
        "ja": ("やっぱりやめます", "なしにしてください", "キャンセルで"),
        "en": ("forget it", "call the whole thing off", "never mind, stop"),
    },
    "repeat": {
        "ko": ("뭐라고 하셨어요?", "잘 못 들었어요", "한 번 더요"),
        "ja": ("え、何ですか", "聞き取れませんでした", "もう一回お願いします"),
        "en": ("sorry, come again?", "I didn't catch that", "say that once more"),
    },
    "help": {
        "ko": ("어떻게 하는 거예요?", "뭘 말해야 돼요?", "잘 모르겠어요 알려 주세요"),
        "ja": ("どうすればいいですか", "何を言えばいいの", "よくわかりません、教えて"),
        "en": ("what am I supposed to say?", "how does this work?", "I'm lost, help me out"),
    },
    "goodbye": {
        "ko": ("이만 끊을게요", "들어가세요", "다음에 봬요"),
        "ja": ("では失礼します", "また今度", "じゃあね"),
        "en": ("gotta go, bye now", "talk to you later", "see ya"),
    },
    "thanks": {
        "ko": ("고마워요 정말", "덕분이에요", "수고하셨어요"),
        "ja": ("助かりました", "どうも", "ありがとね"),
        "en": ("much appreciated", "cheers", "thanks a bunch"),
    },
}
"""Other words for the dialogue acts, per language."""

FILLERS: Final[dict[str, tuple[str, ...]]] = {
    "ko": ("음... ", "어, ", "그러니까 ", "저기, "),
    "ja": ("えーと、", "あの、", "そうですね、"),
    "en": ("um, ", "well, ", "let me think, ", "so, "),
}

CORRECTIONS: Final[dict[str, str]] = {
    "ko": "{wrong} 아니 {value}",
    "ja": "{wrong}、いや{value}",
    "en": "{wrong}, no wait, {value}",
}
"""A value taken back within the utterance: the last one said is meant."""

NUMBER_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "ko": ("영", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"),
    "ja": ("ゼロ", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"),
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
}

MONTHS_EN: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

_COUNTER: Final = re.compile(r"\d+(\s*\D*)")
"""A number and what follows it ("2名", "4 people")."""

FILLER_RATE = 0.4
CORRECTION_RATE = 0.15


def act(intent: str, language: str, rng: random.Random) -> str | None:
    """Another wording for a dialogue act, or None when the bank has none for ``intent``."""
    words = ACTS.get(intent, {})
    found = words.get(language) or words.get("en")
    return rng.choice(found) if found else None


def filler(text: str, language: str, rng: random.Random) -> str:
    """``text``, sometimes after a filler word."""
    if not text or rng.random() >= FILLER_RATE:
        return text
    return rng.choice(FILLERS.get(language, FILLERS["en"])) + text


def value(kind: str, wanted: Any, language: str, rng: random.Random, said: str = "") -> str | None:
    """``wanted`` (a slot value as the engine stores them) said another way, or None.

    ``kind`` is the slot type. Dates, times, small numbers and phone numbers get another
    form; other types keep the goal's own wording ``said`` (the caller adds fillers). A
    number spelled out keeps the counter of ``said`` ("2名" -> "二名").
    """
    if kind == "date" and isinstance(wanted, str):
        return _date(wanted, language, rng)
    if kind == "time" and isinstance(wanted, str):
        return _time(wanted, language, rng)
    if kind in {"integer", "number"} and isinstance(wanted, int | float):
        number = int(wanted)
        if float(wanted).is_integer() and 0 <= number <= 10 and rng.random() < 0.7:
            counter = _COUNTER.fullmatch(said.strip())
            spelled = NUMBER_WORDS.get(language, NUMBER_WORDS["en"])[number]
            return spelled + (counter.group(1) if counter else "")
        return None
    if kind == "phone" and isinstance(wanted, str):
        digits = "".join(ch for ch in wanted if ch.isdigit())
        if len(digits) >= 10:
            head, rest = digits[:3], digits[3:]
            middle = len(rest) - 4
            return rng.choice((" ", ".")).join((head, rest[:middle], rest[middle:]))
    return None


def corrected(wrong: str, meant: str, language: str) -> str:
    """One utterance that says ``wrong``, takes it back and says ``meant``."""
    return CORRECTIONS.get(language, CORRECTIONS["en"]).format(wrong=wrong, value=meant)


def _date(iso: str, language: str, rng: random.Random) -> str | None:
    try:
        day = date.fromisoformat(iso)
    except ValueError:
        return None
    forms = {
        "ko": (f"{day.month}월 {day.day}일", f"{day.year}년 {day.month}월 {day.day}일"),
        "ja": (f"{day.month}月{day.day}日", f"{day.year}年{day.month}月{day.day}日"),
        "en": (
            f"{MONTHS_EN[day.month - 1]} {day.day}",
            f"{day.day} {MONTHS_EN[day.month - 1]} {day.year}",
            f"{day.month}/{day.day}/{day.year}",
        ),
    }
    return rng.choice(forms.get(language, forms["en"]))


def _time(text: str, language: str, rng: random.Random) -> str | None:
    try:
        moment = time.fromisoformat(text)
    except ValueError:
        return None
    hour12 = moment.hour % 12 or 12
    half = moment.minute == 30
    pm = moment.hour >= 12
    minutes = {
        "ko": " 반" if half else (f" {moment.minute}분" if moment.minute else ""),
        "ja": "半" if half else (f"{moment.minute}分" if moment.minute else ""),
    }
    forms = {
        "ko": f"{'오후' if pm else '오전'} {hour12}시{minutes['ko']}",
        "ja": f"{'午後' if pm else '午前'}{hour12}時{minutes['ja']}",
        "en": f"{hour12}:{moment.minute:02d} {'pm' if pm else 'am'}",
    }
    return forms.get(language, forms["en"]) if rng.random() < 0.8 else text
