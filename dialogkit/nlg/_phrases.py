"""Built-in phrases per language: fallbacks by kind and retry step, greetings, errors.

These are the last resort when neither a model nor the scenario supplies a sentence, so
each list holds enough distinct sentences that a fallback never repeats an earlier one.
Languages other than ``ko``, ``ja`` and ``en`` use English.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from dialogkit.nlg._dedupe import normalize

FALLBACKS: Final[dict[str, dict[str, list[str]]]] = {
    "ko": {
        "not_understood": [
            "죄송해요, 제가 잘 이해하지 못했어요. 다시 한 번 말씀해 주시겠어요?",
            "말씀을 정확히 알아듣지 못했어요. 조금 다르게 표현해 주실 수 있을까요?",
            "제가 놓친 것 같아요. 한 번만 더 천천히 말씀해 주세요.",
            "아직 잘 모르겠어요. 짧게 다시 말씀해 주시면 도와드릴게요.",
            "혹시 다른 말로 설명해 주실 수 있을까요? 제대로 이해하고 싶어요.",
            "미안해요, 이번에도 이해하지 못했어요. 예를 들어 한 단어로 답해 주셔도 괜찮아요.",
        ],
        "no_input": [
            "말씀이 들리지 않았어요. 준비되시면 말씀해 주세요.",
            "아직 아무 말씀도 못 들었어요. 편하실 때 다시 말씀해 주세요.",
            "혹시 계신가요? 천천히 말씀하셔도 괜찮아요.",
            "목소리가 들리지 않아요. 한 번만 더 말씀해 주시겠어요?",
            "기다리고 있을게요. 생각나시면 언제든 말씀해 주세요.",
            "아직 대답을 듣지 못했어요. 짧게라도 말씀해 주시면 이어서 도와드릴게요.",
        ],
    },
    "ja": {
        "not_understood": [
            "すみません、よく分かりませんでした。もう一度おっしゃっていただけますか。",
            "うまく聞き取れませんでした。別の言い方で教えていただけますか。",
            "申し訳ありません、もう一度ゆっくりお話しいただけますか。",
            "まだ理解できていません。短く言い直していただけると助かります。",
            "恐れ入りますが、別の言葉で説明していただけますか。",
            "ごめんなさい、今回も分かりませんでした。一言で答えていただいても大丈夫です。",
        ],
        "no_input": [
            "お声が聞こえませんでした。準備ができたらお話しください。",
            "まだ何も聞こえていません。いつでもお話しください。",
            "いらっしゃいますか。ゆっくりで大丈夫ですよ。",
            "お声が届いていないようです。もう一度お願いできますか。",
            "お待ちしています。思いついたらいつでもどうぞ。",
            "まだお返事を聞けていません。短くても大丈夫なので教えてください。",
        ],
    },
    "en": {
        "not_understood": [
            "Sorry, I didn't quite understand that. Could you say it again?",
            "I'm not sure I got that. Could you put it another way?",
            "I missed that, I'm afraid. Could you repeat it a little more slowly?",
            "I still didn't follow. A short answer is fine.",
            "Could you explain that differently? I'd like to get it right.",
            "Sorry, I didn't get that either. A single word is enough, for example.",
        ],
        "no_input": [
            "I didn't hear anything. Go ahead whenever you're ready.",
            "I haven't heard a reply yet. Take your time.",
            "Are you still there? There's no hurry.",
            "Your voice didn't come through. Could you say that once more?",
            "I'm still here, waiting for you. Speak whenever you like.",
            "I didn't catch an answer. Even a short one helps me continue.",
        ],
    },
}

GREETINGS: Final[dict[str, str]] = {
    "ko": "안녕하세요! 무엇을 도와드릴까요?",
    "ja": "こんにちは！何かお手伝いできることはありますか。",
    "en": "Hello! How can I help you today?",
}

SKILL_ERRORS: Final[dict[str, str]] = {
    "ko": "죄송해요, 지금은 요청을 처리하지 못했어요. 잠시 후에 다시 시도해 주세요.",
    "ja": "申し訳ありません、ただいま処理できませんでした。しばらくしてからもう一度お試しください。",
    "en": "Sorry, I couldn't complete that just now. Please try again in a moment.",
}

HELP: Final[dict[str, str]] = {
    "ko": "제가 여쭤보는 것에 편하게 답해 주시면 돼요. 다시 들으시려면 '다시 말해 주세요'라고 해 주세요.",
    "ja": "私の質問に気軽に答えてください。もう一度聞きたいときは「もう一度」と言ってください。",
    "en": "Just answer my question in your own words. Say 'say that again' to hear it once more.",
}

CONFIRM_LEAVING: Final[dict[str, str]] = {
    "ko": "지금 끝내시면 진행 중인 내용은 접수되지 않아요. 이어서 진행하시려면 '네', 끝내시려면 '그만할게요'라고 말씀해 주세요.",
    "ja": "ここで終えると、手続きは完了しません。続ける場合は「はい」、終える場合は「終わりにします」と言ってください。",
    "en": "If we stop now, nothing will be submitted. Say 'yes' to go on, or 'goodbye' to stop here.",
}

DAYPARTS: Final[dict[str, dict[str, str]]] = {
    "ko": {"morning": "아침", "afternoon": "오후", "evening": "저녁", "night": "밤"},
    "ja": {"morning": "朝", "afternoon": "午後", "evening": "夕方", "night": "夜"},
    "en": {"morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "night"},
}


def _language(language: str) -> str:
    base = language.split("-")[0].lower()
    return base if base in FALLBACKS else "en"


def greeting(language: str) -> str:
    """The common greeting for a language."""
    return GREETINGS[_language(language)]


def skill_error(language: str) -> str:
    """The built-in sentence for a failed skill call."""
    return SKILL_ERRORS[_language(language)]


def help_text(language: str) -> str:
    """The built-in help sentence."""
    return HELP[_language(language)]


def confirm_leaving(language: str) -> str:
    """Asked when a thank-you and a goodbye come at a confirmation: closing or cancelling?"""
    return CONFIRM_LEAVING[_language(language)]


def daypart(language: str, time_of_day: str) -> str:
    """A localized word for morning/afternoon/evening/night."""
    return DAYPARTS[_language(language)].get(time_of_day, time_of_day)


def fallback_candidates(language: str, kind: str, step: int) -> Iterator[str]:
    """Built-in fallback sentences, starting at the retry ``step`` and wrapping around."""
    phrases = FALLBACKS[_language(language)].get(kind) or FALLBACKS["en"]["not_understood"]
    for offset in range(len(phrases)):
        yield phrases[(step + offset) % len(phrases)]


def safe_fallback(language: str, kind: str, step: int, used: Iterable[str]) -> str:
    """A built-in fallback sentence that is not among ``used`` (whitespace-normalized).

    When every phrase was said already, two are joined so the result is still new.
    """
    seen = {normalize(text) for text in used}
    candidates = list(fallback_candidates(language, kind, step))
    for phrase in candidates:
        if normalize(phrase) not in seen:
            return phrase
    for first in candidates:
        for second in candidates:
            joined = f"{first} {second}"
            if first != second and normalize(joined) not in seen:
                return joined
    return f"{candidates[0]} ({len(seen) + 1})"
