"""Built-in intents every scenario can use without declaring them.

They cover the conversational moves no scenario should have to teach again (yes, no, hello,
goodbye, help, say that again, thanks), with examples in Korean, Japanese and English. A
scenario intent of the same name replaces the built-in one.
"""

from __future__ import annotations

from typing import Final

from dialogkit.scenario.model import Intent

STT_LOW_CONFIDENCE: Final = "stt_low_confidence"

# Order matters: ties go to the intent listed first, and a tie between "yes" and "no"
# ("아니요 안 맞아요" hits keywords of both) must not confirm anything.
BUILTIN_INTENTS: Final[dict[str, Intent]] = {
    "deny": Intent(
        description="The user disagrees, declines or says something is wrong.",
        examples=[
            "아니요",
            "아니",
            "아니에요",
            "싫어요",
            "틀렸어요",
            "아닙니다",
            "안 맞아요",
            "그게 아니에요",
            "いいえ",
            "違います",
            "いや",
            "結構です",
            "違いますよ",
            "no",
            "nope",
            "not really",
            "that's wrong",
            "no thanks",
            "that's not right",
            "not correct",
        ],
        keywords=[
            "아니요",
            "아니에요",
            "틀렸",
            "틀려",
            "안 맞",
            "아닌데",
            "いいえ",
            "違います",
            "違う",
            "nope",
            "not correct",
            "incorrect",
            "not right",
            "wrong",
        ],
    ),
    "affirm": Intent(
        description="The user agrees or confirms.",
        examples=[
            "네",
            "예",
            "응",
            "맞아요",
            "좋아요",
            "그래요",
            "네 맞습니다",
            "알겠어요",
            "はい",
            "ええ",
            "そうです",
            "お願いします",
            "いいですよ",
            "yes",
            "yeah",
            "yep",
            "correct",
            "that's right",
            "sure",
            "okay",
            "sounds good",
        ],
        keywords=["네 맞", "맞아요", "맞습니다", "그렇습니다", "はい", "yes", "correct"],
    ),
    "greet": Intent(
        description="The user says hello.",
        examples=[
            "안녕하세요",
            "안녕",
            "반가워요",
            "こんにちは",
            "おはようございます",
            "こんばんは",
            "hello",
            "hi",
            "good morning",
            "hey there",
        ],
    ),
    "goodbye": Intent(
        description="The user ends the conversation.",
        examples=[
            "잘 있어요",
            "안녕히 계세요",
            "그만할게요",
            "끝낼게요",
            "이만 끊을게요",
            "さようなら",
            "またね",
            "失礼します",
            "終わりにします",
            "bye",
            "goodbye",
            "see you",
            "that's all",
            "i'm done",
        ],
        keywords=["안녕히", "그만할", "さようなら", "goodbye", "bye"],
    ),
    "help": Intent(
        description="The user asks what to do or how this works.",
        examples=[
            "도와주세요",
            "어떻게 해요",
            "뭘 말해야 해요",
            "도움말",
            "助けて",
            "どうすればいいですか",
            "ヘルプ",
            "help",
            "what should i say",
            "how does this work",
            "i need help",
        ],
        keywords=["도와주", "도움말", "ヘルプ", "help"],
    ),
    "repeat": Intent(
        description="The user asks the bot to say its last message again.",
        examples=[
            "다시 말해 주세요",
            "뭐라고요",
            "한 번 더 말해 주세요",
            "잘 못 들었어요",
            "もう一度お願いします",
            "何ですか",
            "もう一回言って",
            "say that again",
            "repeat please",
            "pardon",
            "what did you say",
        ],
        keywords=["다시 말", "한 번 더", "뭐라고", "もう一度", "repeat", "say that again"],
    ),
    "thanks": Intent(
        description="The user thanks the bot.",
        examples=[
            "고마워요",
            "감사합니다",
            "고맙습니다",
            "ありがとう",
            "ありがとうございます",
            "thanks",
            "thank you",
            "thanks a lot",
        ],
        keywords=["고마", "감사", "ありがとう", "thank"],
    ),
}

BUILTIN_INTENT_NAMES: Final = frozenset(BUILTIN_INTENTS) | {STT_LOW_CONFIDENCE}
