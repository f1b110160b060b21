"""Dialogue acts read from the form of an utterance: a yes or a no, a question, a correction,
and the polarity a yes/no slot takes from it.

These are properties of how people talk rather than of a scenario, so they are the same in
every scenario (and applied to the built-in intents ``affirm`` and ``deny``). Every rule
works on the normalised text (lower case, NFKC, punctuation turned into spaces).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from dialogkit.nlu.builtin import ACT_FILLERS, LEAD_WORDS
from dialogkit.nlu.morphology import normalize
from dialogkit.nlu.words import replacement

WHOLE_ACT_SCORE: Final = 0.9
"""An utterance that is only a yes or a no (with politeness): as strong as a keyword."""
LEADING_ACT_SCORE: Final = 0.7
"""A yes or a no that goes on to say more: below any keyword, so the rest decides first."""

OPENERS: Final = ("아", "어", "음", "저", "그게", "well", "oh", "um", "uh", "えっと", "あの", "あ")
"""Interjections that open an utterance ("あ、…", "um, …"): never an answer of their own."""
_REPEATED = re.compile(r"^(네|응|예|넹|no)(?:\s?\1)+(?=\s|$)")
_TEXTING_YO = re.compile(r"(?<=[\uac00-\ud7a3])여(?=\s|$)")
"""Texting spells the polite ending -요 as -여 ("맞아여", "좋아여")."""
_SPACED_SCRIPT = re.compile(r"[a-z0-9\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e]")


@lru_cache(maxsize=64)
def _normal_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words normalised like the text (NFKC turns "ㅇㅇ" into conjoining jamo), longest
    first."""
    return tuple(
        sorted({normalize(word) for word in words if normalize(word)}, key=len, reverse=True)
    )


def _consume(text: str, words: tuple[str, ...]) -> tuple[str, str] | None:
    """The longest of ``words`` that ``text`` starts with (a whole word where words are
    separated by spaces), and what follows it."""
    for word in _normal_words(words):
        if not text.startswith(word):
            continue
        rest = text[len(word) :]
        if not rest or rest[0] == " " or not _SPACED_SCRIPT.match(word[-1]):
            return word, rest.lstrip()
    return None


@dataclass(frozen=True)
class LeadingAct:
    """A yes or a no an utterance opens with; ``rest`` is what follows it."""

    act: str
    whole: bool
    rest: str

    @property
    def score(self) -> float:
        return WHOLE_ACT_SCORE if self.whole else LEADING_ACT_SCORE


@lru_cache(maxsize=4096)
def leading_act(text: str) -> LeadingAct | None:
    """``affirm`` or ``deny`` when the utterance opens with one ("네 그걸로 할게요", "nope",
    "いいえ、違います"); None otherwise."""
    normal = _REPEATED.sub(r"\1", _TEXTING_YO.sub("요", normalize(text)))
    opener = _consume(normal, OPENERS)
    if opener is not None and opener[1]:
        normal = opener[1]
    for act in ("deny", "affirm"):
        found = _consume(normal, LEAD_WORDS[act])
        if found is None:
            continue
        rest = found[1]
        while rest:
            step = _consume(rest, (*ACT_FILLERS, *LEAD_WORDS[act]))
            if step is None:
                break
            rest = step[1]
        return LeadingAct(act, not rest, found[1])
    return None


_QUESTION_MARK = re.compile(r"[?？]\s*$")
_KO_QUESTION_END = re.compile(
    r"(?:까요|(?<!아)까|니까|[은는]가요|[은는]지요|[하되있없오갔했됐았었였]나요|[가-힣]냐|인가|는지)\s*$"
)
_KO_QUESTION_WORD = re.compile(
    r"(?:^|\s)(?:언제(?!부턴가|부터인가|든|나|가|인가)|어디(?!든|서나|선가|인가|론가|가)|"
    r"무엇(?!이든|인가)|왜(?!인지|냐하면|냐면|그런지)|어떻게(?!든)|누가|누구(?!든|나|인가)|무슨|어느|"
    r"뭐(?:예요|에요|야|지|죠|가|를|라고|하|해|냐)|뭔가요|뭘|얼마(?:나|예요|에요|죠))"
)
_KO_NOT_KNOWING = re.compile(r"모르겠|몰라|모름|모르고")
""""왜 그런지 모르겠어요" says the speaker does not know: a statement."""
_KO_ASKING_END = re.compile(r"(?:요|까|나|니|냐|지|죠|야|래|데|가)\s*$")
_EN_QUESTION = re.compile(
    r"^(?:(?:what|when|where|why|how|who|which)(?:\s+\S+){0,3}?\s+"
    r"(?:is|are|was|were|do|does|did|can|could|will|would|should|s|re|about|much|many|long)\b"
    r"|(?:do|does|did|can|could|will|would|should|is|are|was|were|may|must)\s+"
    r"(?:i|you|we|they|he|she|it|there|this|that|the|a|an|my|your)\b)"
)
_JA_QUESTION = re.compile(r"(?:ですか|ますか|でしょうか|か|かな|かね|っけ|の)\s*$")


_CHANGE_REQUEST = re.compile(
    r"(?:に|へ)(?:して|変えて|変更して|替えて|直して)(?:もらえ|いただけ|くれ|くださ)|"
    r"(?:로|으로)\s*(?:바꿔|바꾸어|변경해|고쳐|해)\s*(?:주|줄)|"
    r"^(?:can|could|would|will)\s+(?:you|i|we)\s+(?:please\s+)?"
    r"(?:change|make|move|switch|set|put|bring|push)\b",
    re.IGNORECASE,
)
"""A polite request to set a value, worded as a question ("8時にしてもらえますか",
"모레로 바꿔 주실래요?", "could you make it 8?"): an answer, not a question."""


def is_question(text: str) -> bool:
    """Whether the utterance asks something (rather than answering)."""
    if _CHANGE_REQUEST.search(text.strip()):
        return False
    if _QUESTION_MARK.search(text.strip()):
        return True
    normal = normalize(text)
    if not normal:
        return False
    if _KO_QUESTION_END.search(normal):
        return True
    if (
        _KO_QUESTION_WORD.search(normal)
        and _KO_ASKING_END.search(normal)
        and not _KO_NOT_KNOWING.search(normal)
    ):
        return True
    return bool(_EN_QUESTION.search(normal) or _JA_QUESTION.search(normal))


_CORRECTION = re.compile(
    r"(?:제|내)\s*말은|"
    r"정정(?:할게요|합니다|하면|하자면)?(?=[\s,:])|잘못\s*말했(?:어요|네요|습니다|어)|"
    r"다시\s*말(?:하면|할게요|씀드리면)|"
    r"\bi\s+meant?\b|\bmake\s+(?:that|it)\b|\bchange\s+(?:that|it)\s+to\b|\bscratch\s+that\b|"
    r"\bcorrection\b|訂正(?:します|です)?|間違え(?:ました|た)",
    re.IGNORECASE,
)
"""Words that announce a correction ("제 말은", "make that"); a value replaced in the same
breath ("체크카드 말고 신용카드") is read by ``words.replacement``."""
_PAYLOAD_EDGES: Final = " ,.:、。"


def correction(text: str) -> str | None:
    """What a correction says instead ("아니 제 말은 신용카드요" -> "신용카드요",
    "no wait, make that 2000" -> "2000"); None when the utterance is not a correction.

    A no followed by a new answer ("아니요, 1991년이에요") is a correction too: the answer
    is what follows the no.
    """
    matches = list(_CORRECTION.finditer(text))
    announced = text[matches[-1].end() :] if matches else text
    replaced = replacement(announced)
    payload = (announced if replaced is None else replaced).strip(_PAYLOAD_EDGES)
    if matches or replaced is not None:
        return payload if re.search(r"\w", payload) else None
    act = leading_act(text)
    if act is not None and act.act == "deny" and not act.whole and act.rest:
        return act.rest
    return None


_NEGATIVE = re.compile(
    r"(?:^|\s)(?:안|못)\s*[가-힣]|안(?:했|먹|갔|챙|마셨|해)|지\s*(?:않|못)|까먹|잊(?:어|었|고|은)|"
    r"깜빡|아직|없(?:어|었|다|음|습|는)|아니|싫|\u1102\u1102|놓쳤|걸렀|"
    r"\b(?:no|not|never|nope|nah|didn t|haven t|hasn t|don t|doesn t|wasn t|weren t|"
    r"forgot|forget|forgotten|missed|skipped|false|negative)\b|"
    r"ない|なかった|ません|忘れ|いいえ|いや|まだ|違"
)
_POSITIVE_TOKENS: Final = frozenset(
    normalize(word)
    for word in (
        "네",
        "예",
        "응",
        "넹",
        "넵",
        "ㅇㅇ",
        "yes",
        "yeah",
        "yep",
        "yup",
        "true",
        "はい",
        "うん",
        "ええ",
    )
)


@lru_cache(maxsize=8192)
def is_negated(text: str) -> bool:
    """Whether the utterance negates something ("안 만들래요", "didn't", "飲んでない")."""
    return _NEGATIVE.search(normalize(text)) is not None


def polarity(text: str) -> bool | None:
    """The yes/no an utterance gives: a negation anywhere makes it a no ("밥은 먹었는데 약은
    깜빡했어", "I didn't", "飲んでない"); a yes needs an explicit yes word (a standalone "네",
    not the "네" ending "했네"). None when it gives neither."""
    if is_negated(text):
        return False
    normal = normalize(text)
    act = leading_act(text)
    if act is not None and act.act == "affirm":
        return True
    return True if _POSITIVE_TOKENS & set(normal.split()) else None
