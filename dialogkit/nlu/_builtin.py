"""Built-in intents every scenario can use without declaring them.

They cover the conversational moves no scenario should have to teach again (yes, no, hello,
goodbye, help, say that again, thanks). Their words live in the language packs
(``dialogkit.nlu.lang``); every pack's are used, since people mix languages. A scenario
intent of the same name replaces the built-in one.
"""

from __future__ import annotations

from typing import Final

from dialogkit.nlu.lang import PACKS
from dialogkit.scenario.model import Intent

STT_LOW_CONFIDENCE: Final = "stt_low_confidence"
HELP: Final = "help"
"""The one intent a speaker who says they do not know may mean ("I don't know what to say")."""

DESCRIPTIONS: Final[dict[str, str]] = {
    "deny": "The user disagrees, declines or says something is wrong.",
    "affirm": "The user agrees or confirms.",
    "greet": "The user says hello.",
    "goodbye": "The user ends the conversation.",
    "help": "The user asks what to do or how this works.",
    "repeat": "The user asks the bot to say its last message again.",
    "thanks": "The user thanks the bot.",
}
"""The built-in intents, in order: ties go to the intent listed first, and a tie between
"yes" and "no" ("아니요 안 맞아요" hits keywords of both) must not confirm anything."""


def _built_in(name: str) -> Intent:
    """One built-in intent with the examples and keywords of every language pack."""
    packs = PACKS.values()
    return Intent(
        description=DESCRIPTIONS[name],
        examples=[e for pack in packs for e in pack.intents.get(name, ((), ()))[0]],
        keywords=[k for pack in packs for k in pack.intents.get(name, ((), ()))[1]],
    )


BUILTIN_INTENTS: Final[dict[str, Intent]] = {name: _built_in(name) for name in DESCRIPTIONS}

LEAD_WORDS: Final[dict[str, tuple[str, ...]]] = {
    act: tuple(word for pack in PACKS.values() for word in pack.lead_words.get(act, ()))
    for act in ("deny", "affirm")
}
"""Words that open a yes or a no. An utterance made only of such a word and the politeness
around it (``ACT_FILLERS``) is that act; one that goes on to say more leans towards it."""

ACT_FILLERS: Final = tuple(word for pack in PACKS.values() for word in pack.act_fillers)

BUILTIN_INTENT_NAMES: Final = frozenset(BUILTIN_INTENTS) | {STT_LOW_CONFIDENCE}
