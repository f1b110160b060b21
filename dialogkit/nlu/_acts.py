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

from dialogkit.nlu._builtin import ACT_FILLERS, LEAD_WORDS
from dialogkit.nlu._morphology import normalize
from dialogkit.nlu._numbers import digits_spoken
from dialogkit.nlu._words import replacement
from dialogkit.nlu.lang import PACKS, pattern, words
from dialogkit.scenario.patterns import CompiledPattern, linear_pattern

WHOLE_ACT_SCORE: Final = 0.9
"""An utterance that is only a yes or a no (with politeness): as strong as a keyword."""
LEADING_ACT_SCORE: Final = 0.7
"""A yes or a no that goes on to say more: below any keyword, so the rest decides first."""

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


@lru_cache(maxsize=64)
def _opening(words: tuple[str, ...]) -> re.Pattern[str]:
    """The normalised words as one alternation, longest first, each followed by a space or
    the end where its script separates words by spaces: one match instead of a test per
    word."""
    parts = [
        re.escape(word) + ("(?![^ ])" if _SPACED_SCRIPT.match(word[-1]) else "")
        for word in _normal_words(words)
    ]
    return re.compile("|".join(parts) if parts else r"(?!x)x")


def _consume(text: str, words: tuple[str, ...]) -> tuple[str, str] | None:
    """The longest of ``words`` that ``text`` starts with (a whole word where words are
    separated by spaces), and what follows it."""
    found = _opening(words).match(text)
    if found is None:
        return None
    return found.group(), text[found.end() :].lstrip()


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
    "いいえ、違います"); None otherwise, also for a yes or no asked back ("응? 잘 안
    들렸어", "yes? what was that?", "はい？"): that is a "huh?", not an answer."""
    asked = _ASKED_BACK.match(text)
    if asked is not None and normalize(asked.group(1)) in _LEAD_WORDS:
        return None
    normal = _REPEATED.sub(r"\1", _TEXTING_YO.sub("요", normalize(text)))
    # Hesitations and apologies may stack ("うーん、そうですね、…", "well um, …", "すみません、
    # はい…"): all of them go.
    while (opener := _hesitation(normal) or _consume(normal, _APOLOGIES)) is not None and opener[1]:
        normal = opener[1]
    # The longest lead word wins: "no problem" opens a yes, not a no.
    said = {
        act: found for act in ("deny", "affirm") if (found := _consume(normal, LEAD_WORDS[act]))
    }
    for act, found in sorted(said.items(), key=lambda item: -len(item[1][0])):
        rest = found[1]
        if act == "affirm" and _consume(rest, _GREETINGS) is not None:
            # "Yeah hi, I was hoping …", "네 안녕하세요": the yes answers the phone.
            return None
        while rest:
            step = _consume(rest, (*ACT_FILLERS, *LEAD_WORDS[act]))
            if step is None:
                break
            rest = step[1]
        return LeadingAct(act, not rest, found[1])
    return None


def after_greeting(text: str) -> str | None:
    """What follows the greeting an utterance opens with ("안녕하세요, 대관 예약하고 싶어요" ->
    "대관 예약하고 싶어요", "네 안녕하세요, …" as the call is picked up), normalised; None when
    it opens with none or says nothing more. The greeting is said before the request and
    decides nothing."""
    normal = normalize(text)
    answered = _consume(normal, LEAD_WORDS["affirm"])
    opened = (answered and _consume(answered[1], _GREETINGS)) or _consume(normal, _GREETINGS)
    return opened[1] if opened is not None and opened[1] else None


def _hesitation(normal: str) -> tuple[str, str] | None:
    """The hesitation ``normal`` opens with and what follows it; None also when a yes or a
    no longer than the hesitation begins there ("uh huh" opens with no "uh")."""
    opener = _consume(normal, opener_words(""))
    if opener is None:
        return None
    lead = _consume(normal, _LEAD_WORDS_LONGEST)
    return None if lead is not None and len(lead[0]) > len(opener[0]) else opener


_QUESTION_MARK = re.compile(r"[?？]\s*$")
_ASKED_BACK = re.compile(r"\s*([^\s?？,、，.。!！]+)\s*[?？]")
"""A first word asked back on its own ("응?", "yes?")."""
_LEAD_WORDS: Final = frozenset(word for words in LEAD_WORDS.values() for word in words)
_LEAD_WORDS_LONGEST: Final = tuple(sorted(_LEAD_WORDS, key=len, reverse=True))
_APOLOGIES: Final = words("", lambda pack: pack.apologies)
"""Every pack's apologies: a yes or a no may follow one ("sorry, no", "すみません、はい")."""
_GREETINGS: Final = tuple(
    normalize(word) for pack in PACKS.values() for word in pack.intents.get("greet", ((), ()))[0]
)
"""Every pack's greetings: a yes followed by one is how a call is picked up, no answer."""


@lru_cache(maxsize=64)
def opener_words(language: str) -> tuple[str, ...]:
    """Interjections that open an utterance ("あ、…", "um, …"): never an answer of their own.

    Remembered per language, like the packs' patterns: a turn asks for them two or three
    times, and merging the packs' lists each time cost more than the test they serve."""
    return words(language, lambda pack: pack.openers)


CLAUSE_PAUSE: Final = re.compile(r"[,;、]\s*")
"""A pause between two clauses of one sentence."""
_SENTENCE_OR_PAUSE: Final = re.compile(r"[,;、.!?。！？]\s*")


def is_request(text: str, language: str = "") -> bool:
    """Whether a question asks for an action ("could you make it 8?", "모레로 바꿔 주실래요?",
    "8時にしてもらえますか"): its values are meant, unlike those of a question that asks
    about something ("how much is the suite?")."""
    requests = pattern(language, "request", lambda p: p.request, re.IGNORECASE | re.MULTILINE)
    # The request may follow a remark: "I can't do that day after all, could we move it …?",
    # "My daughter just turned sixteen. Could you get her started?"
    return requests.search(_lines(text, normal=False)) is not None


def asks_to_act(text: str, language: str = "") -> bool:
    """Whether a question asks the listener to do something ("could you book me a table?",
    "예약해 주실 수 있나요?", "手配してもらえますか"), so it may mean an action, unlike one that
    asks about something ("can I cancel later?"). Wider than ``is_request``, whose values
    are meant: "タクシーを一台手配してもらえますか" orders a taxi but names no value. The
    request may follow what led to it ("Hi! My husband's turning fifty. Can you set that up
    for us?")."""
    asks = pattern(language, "asks_to_act", lambda p: p.asks_to_act, re.MULTILINE)
    return asks.search(_lines(text, normal=True)) is not None


def _lines(text: str, *, normal: bool) -> str:
    """``text`` with each sentence and clause on a line of its own (each normalised with
    ``normal``): a pattern anchored with ``^`` in multi-line mode tries every one of them
    in one linear search, where trying what follows each pause would cost the square of the
    text's length."""
    pieces = _SENTENCE_OR_PAUSE.split(text.strip())
    return "\n".join(normalize(piece) if normal else piece for piece in pieces)


@lru_cache(maxsize=8192)
def is_question(text: str, language: str = "") -> bool:
    """Whether the utterance asks something (rather than answering); a request worded as a
    question is an answer (see ``is_request``)."""
    if is_request(text, language):
        return False
    if _QUESTION_MARK.search(text.strip()):
        return True
    normal = normalize(text)
    if not normal:
        return False
    if pattern(language, "question", lambda p: p.question).search(normal):
        return True
    return bool(
        pattern(language, "question_word", lambda p: p.question_word).search(normal)
        and pattern(language, "asking_end", lambda p: p.asking_end).search(normal)
        and not is_not_knowing(text, language)
    )


def asks(text: str, language: str = "") -> bool:
    """Whether an example of an intent asks something: a question, or a request to be told
    (``asks_to_be_told``), which wants an answer, not an action."""
    return is_question(text, language) or asks_to_be_told(text, language)


def wants_to_act(text: str, language: str = "") -> bool:
    """Whether the speaker says they want to do or have something ("I'd like to come in",
    "伺いたいなと思いまして"), not to know something or to call it off."""
    return wish(text, language) is not None


def wish(text: str, language: str = "") -> str | None:
    """The wish an utterance says and what follows it, normalised ("have never tried this
    and we'd love to give it a go" -> "we d love to give it a go"); None when it says none.
    What comes before is the reason, whose negation is no refusal."""
    said = normalize(text)
    desires = pattern(language, "desires", lambda p: p.desires)
    found = desires.search(said)
    if found is None:
        return None
    # In Korean and Japanese the wish's verb closes the sentence and its reason is a clause
    # of its own; only an English wish is cut from the reason before it.
    start = found.start() if said[: found.start()].isascii() else 0
    return said[start:]


def asks_to_be_told(text: str, language: str = "") -> bool:
    """Whether the utterance asks to be told something ("営業時間を教えてください", "tell me
    your opening hours", "could you tell me…")."""
    requests = pattern(language, "information_requests", lambda p: p.information_requests)
    return requests.search(normalize(text)) is not None


def offers_values(text: str, language: str = "") -> bool:
    """Whether a question offers its values for the bot to take rather than asking about
    them: "can I pick them up tomorrow at 10?", "내일 2시 가능해요?", "明日9時は空いてますか",
    "how about 1 pm?", or a hedged answer ("10ish?", "내일 열 시쯤?", "5時45分ごろですかね")."""
    offers = pattern(language, "offers", lambda p: p.offers)
    if offers.search(normalize(text)) is None:
        return False
    # The question itself: a reason said before it ("아침엔 애들 등원시켜야 해서요, 음… 열한 시
    # 반쯤 괜찮을까요?") asks about nothing.
    clauses = clauses_of(text)
    first = next((i for i, said in enumerate(clauses) if is_question(said, language)), 0)
    normal = normalize(" ".join(clauses[first:]))
    # A question word inside the offer ("how about 1 pm?") asks nothing.
    if pattern(language, "question_word", lambda p: p.question_word).search(
        offers.sub(" ", normal)
    ):
        return False
    # "토요일에도 되나요?" asks about Saturdays, it books none.
    return not pattern(language, "general_asks", lambda p: p.general_asks).search(normal)


_SENTENCE_END: Final = re.compile(r"(?<=[.?!。？！])\s*")


def asks_about_values(text: str, language: str = "") -> bool:
    """Whether a question names its values only to ask about them ("are you open on
    Sundays?", "토요일에도 되나요?", "夜だと割増になりますか"): the turn takes none of them
    (``engine.turn.slots``), unlike those of a question that offers them ("can I come at
    3?").

    Said with a request, or with a sentence that states a number, the values are given
    and the question is about something else: "来月の3日です。ちょっと先なんですけど大丈夫
    ですか？", "Could you do the third of next month? That's when my landlord's around."."""
    sentences = [said for said in _SENTENCE_END.split(text.strip()) if said]
    if len(sentences) > 1 and any(
        is_request(said, language)
        or (not is_question(said, language) and re.search(r"\d", digits_spoken(said)))
        for said in sentences
    ):
        return False
    return is_question(text, language) and not offers_values(text, language)


_PAYLOAD_EDGES: Final = " ,.:、。"


def _announcements(text: str, language: str) -> list[re.Match[str]]:
    """Where ``text`` announces a correction and goes on to say it: "제가 잘못 말했네요" said
    last, after the corrected value, announces nothing that follows."""
    announcing = pattern(language, "correction", lambda p: p.correction, re.IGNORECASE)
    return [m for m in announcing.finditer(text) if re.search(r"\w", text[m.end() :])]


@lru_cache(maxsize=8192)
def correction(text: str, language: str = "") -> str | None:
    """What a correction says instead ("아니 제 말은 신용카드요" -> "신용카드요",
    "no wait, make that 2000" -> "2000"); None when the utterance is not a correction.

    A no followed by a new answer ("아니요, 1991년이에요") is a correction too: the answer
    is what follows the no. Remembered per utterance, as the other readings of an act here:
    every turn asks it, and people say the same short things again and again.
    """
    matches = _announcements(text, language)
    announced = text[matches[-1].end() :] if matches else text
    replaced = replacement(announced, language=language)
    payload = (announced if replaced is None else replaced).strip(_PAYLOAD_EDGES)
    if matches or replaced is not None:
        return payload if re.search(r"\w", payload) else None
    act = leading_act(text)
    if act is not None and act.act == "deny" and not act.whole and act.rest:
        return _as_said(text, act.rest)
    return None


def _as_said(text: str, rest: str) -> str:
    """The end of ``text`` whose normalised form is ``rest``, as it was said: a value keeps
    its punctuation ("아니요, 2026-01-22요" answers "2026-01-22요", which "2026 01 22요" does
    not write); ``rest`` itself when no such end is found."""
    for start in range(len(text)):
        if start and text[start - 1].isalnum():
            continue
        tail = text[start:].strip(_PAYLOAD_EDGES)
        if normalize(tail) == rest:
            return tail
    return rest


_UNSPACED: Final = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana and kanji: a script written without spaces, where a word may end anywhere."""
_REACH: Final = 3
"""How many words back from the announcement the new part may reach: a value is short."""


_BREAK: Final = re.compile(r"\s*(?:…+|\.{2,}|—|--)\s*")
_BROKEN_OFF: Final = re.compile(r"[^\s…、,.。，]{1,24}$")
_WITHIN_A_WORD: Final = re.compile(r"[a-z0-9\uac00-\ud7a3]", re.IGNORECASE)
"""Letters of a script written with spaces (and digits): a word said again starts a word."""


def without_restarts(text: str) -> str:
    """``text`` without the words a speaker broke off to say again, and more: "山本…山本裕子"
    names 山本裕子, "午後3時…3時半" says half past three, "I'm... I'm Sam" is Sam. In kana and
    kanji the words said again may end what came before ("午後3時" ends in "3時")."""
    kept, start = [], 0
    for pause in _BREAK.finditer(text):
        before = _BROKEN_OFF.search(text, max(start, pause.start() - 24), pause.start())
        if before is None:
            continue
        word = before.group(0)
        for cut in range(len(word)):
            again = word[cut:]
            joined = cut and _WITHIN_A_WORD.match(word[cut - 1]) and _WITHIN_A_WORD.match(again)
            if not joined and text.startswith(again, pause.end()):
                kept.append(text[start : before.start() + cut])
                start = pause.end()
                break
    return "".join(kept) + text[start:]


@lru_cache(maxsize=2048)
def corrected_in_place(text: str, language: str = "") -> tuple[str, ...]:
    """The utterance as it may have been said right: an announced correction's new part in
    place of one of the last words before the announcement, nearest first ("1990년 5월
    17일이요, 아 잠깐만요 18일이에요" -> "1990년 5월 18일이에요"; "8 pm, no wait, 9" -> "8 9",
    "9 pm"). The caller reads each for the value the new part is a piece of. Empty when no
    correction is announced.

    In kana and kanji a word may end anywhere ("午後の2時…いや、3時" -> …, "午後の3時"), and
    a hesitation before the announcement ("구팔칠육, 어 아니 구팔칠오") is no part of what it
    corrects."""
    matches = _announcements(text, language)
    if not matches:
        return ()
    kept = text[: matches[-1].start()].rstrip(_PAYLOAD_EDGES + "…")
    hesitation = re.search(r"[\s,、…]+(\w+)$", kept)
    if hesitation and _consume(normalize(hesitation.group(1)), opener_words(language)):
        kept = kept[: hesitation.start()].rstrip(_PAYLOAD_EDGES + "…")
    payload = text[matches[-1].end() :].strip(_PAYLOAD_EDGES + "…")
    if not payload:
        return ()
    readings = []
    # A new part of several words says again as many ("eight eight four zero... wait, no,
    # eight eight four one"): first read it in place of that many.
    said_again = len(payload.split())
    kept_words = list(re.finditer(r"\S+", kept))
    if 1 < said_again <= len(kept_words):
        readings.append(f"{kept[: kept_words[-said_again].start()]}{payload}")
    for word in reversed(list(re.finditer(r"\S+", kept))[-_REACH:]):
        for cut in range(word.end() - 1, word.start(), -1):
            if _UNSPACED.match(kept[cut - 1]) or _UNSPACED.match(kept[cut]):
                readings.append(f"{kept[:cut]}{payload}{kept[word.end() :]}")
        readings.append(f"{kept[: word.start()]}{payload}{kept[word.end() :]}")
    return tuple(readings)


@lru_cache(maxsize=4096)
def says_nothing(text: str, language: str = "") -> bool:
    """Whether the whole answer gives nothing ("nope, nothing else", "특별히 없어요",
    "ありません"): a no to an optional question, not its text."""
    nothing = pattern(language, "nothing_answers", lambda p: p.nothing_answers)
    normal = normalize(text)
    opener = _consume(normal, opener_words(language))
    # An opener may also begin the answer itself ("あ" in "ありません"): try both readings.
    for said in (normal, opener[1]) if opener is not None and opener[1] else (normal,):
        act = leading_act(said)
        if act is not None and act.act == "deny":
            if act.whole:
                return True
            said = act.rest
        if nothing.fullmatch(said.strip()) is not None:
            return True
    return False


@lru_cache(maxsize=4096)
def only_hesitates(text: str, language: str = "") -> bool:
    """Whether the utterance is nothing but hesitations, one or several ("let's see", "um,
    let me think", "うーん、そうですね", "음..."): the speaker has not answered yet. Read
    for its words, "let's see" resembles "see you" and "let me think" a no; it is neither."""
    if _QUESTION_MARK.search(text) or leading_act(text) is not None:
        return False  # "hmm?" asks back; "うーん、そうですね" ends on a yes
    said = normalize(text)
    while said and (opener := _hesitation(said)) is not None:
        said = opener[1]
        if not said:
            return True
    return False


@lru_cache(maxsize=4096)
def is_aside(text: str, language: str = "") -> bool:
    """Whether the utterance is said aside rather than to the question ("hold on, my phone
    is ringing", "음... 뭐였더라", "ええと、何だっけ"): no answer, so never a text value. A
    hold-on that goes on to ask, request or call the request off is said to the bot ("hang
    on, what's all that going to cost?", "ちょっと待って、今回は無しで")."""
    aside = pattern(language, "asides", lambda p: p.asides)
    if any(aside.search(reading) is not None for reading in _readings(text, language)):
        return True
    rest = held_on(text, language)
    if rest is None:
        return False
    return not rest or not (
        is_question(text, language)
        or asks_to_act(rest, language)
        or is_withdrawal(rest, language)
        or ends_in_withdrawal(rest, language)
    )


def held_on(text: str, language: str = "") -> str | None:
    """What follows a hold-on that opens the utterance, normalised ("hold on, we decided to
    go elsewhere" -> "we decided to go elsewhere"; "" for a hold-on alone); None when it
    opens with none. Read apart because the rest alone says whether it was said aside."""
    hold_on = pattern(language, "hold_ons", lambda p: p.hold_ons)
    for reading in _readings(text, language):
        found = hold_on.match(reading)
        if found is not None:
            return reading[found.end() :].strip()
    return None


def _readings(text: str, language: str) -> tuple[str, str]:
    """The normalised utterance, and the same without the hesitation it opens with."""
    said = normalize(text)
    opener = _consume(said, opener_words(language))
    return said, opener[1] if opener is not None else said


def is_not_knowing(text: str, language: str = "") -> bool:
    """Whether the speaker says they do not know or have not decided ("not sure yet", "잘
    모르겠어요", "まだ決めかねています"): an answer, or a plea for help, never a request."""
    return (
        pattern(language, "not_knowing", lambda p: p.not_knowing).search(normalize(text))
        is not None
    )


def is_meta_remark(text: str, language: str = "") -> bool:
    """Whether the utterance talks about giving a value rather than giving it ("why do you
    need my name?", "이름 꼭 말해야 돼요?"): neither an answer nor a request of the task."""
    meta = pattern(language, "meta_remarks", lambda p: p.meta_remarks)
    return meta.search(text.lower()) is not None


@lru_cache(maxsize=4096)
def is_small_talk(text: str, language: str = "") -> bool:
    """Whether the utterance chats ("nice weather today", "오늘 날씨 진짜 좋네요",
    "今日はいい天気ですね") rather than answers: its day word names no date."""
    chat = pattern(language, "small_talk", lambda p: p.small_talk)
    return chat.search(normalize(text)) is not None


@lru_cache(maxsize=8192)
def is_negated(text: str, language: str = "") -> bool:
    """Whether the utterance negates something ("안 만들래요", "didn't", "飲んでない"); an
    apology that only looks negated ("すみません", "申し訳ありません") negates nothing."""
    said = _apologies_in(language).sub(" ", normalize(text))
    return pattern(language, "negation", lambda p: p.negation).search(said) is not None


@lru_cache(maxsize=64)
def _apologies_in(language: str) -> re.Pattern[str]:
    """The packs' apologies anywhere in a normalised text, longest first."""
    apologies = _normal_words(words(language, lambda p: p.apologies))
    return re.compile("|".join(re.escape(a) for a in apologies) if apologies else r"(?!x)x")


def _positive_words(language: str) -> frozenset[str]:
    return frozenset(normalize(word) for word in words(language, lambda p: p.positive_words))


def polarity(text: str, language: str = "") -> bool | None:
    """The yes/no an utterance gives: a negation anywhere makes it a no ("밥은 먹었는데 약은
    깜빡했어", "I didn't", "飲んでない"); a yes needs an explicit yes word (a standalone "네",
    not the "네" ending "했네"). None when it gives neither."""
    if is_negated(text, language):
        return False
    normal = normalize(text)
    act = leading_act(text)
    if act is not None and act.act == "affirm":
        return True
    return True if _positive_words(language) & set(normal.split()) else None


_CLAUSE_EDGES = re.compile(r"[,.!?;:、。，！？；…—–]+|\s+-+\s+")
"""Where one clause of an utterance ends and the next begins."""


def clauses_of(text: str) -> list[str]:
    """The utterance's clauses, normalised, the empty ones left out."""
    return [said for clause in _CLAUSE_EDGES.split(text) if (said := normalize(clause).strip())]


def said_apart(text: str) -> bool:
    """Whether the utterance's first clause is nothing but a yes or a no ("No, could you
    make it 4?", "いいえ、…"): said apart, it answers; run on into the question ("no loaner
    car?", "no way to do it cheaper?") it is part of what is asked."""
    clauses = clauses_of(text)
    act = leading_act(clauses[0]) if clauses else None
    return act is not None and act.whole


def _spaced(word: str) -> str:
    """``word`` as a pattern in which a space may be left out ("안할래요")."""
    return r"\s*".join(re.escape(part) for part in word.split())


def _withdrawal_phrases(language: str) -> list[str]:
    """The packs' withdrawal phrases as patterns, longest first."""
    said = {_spaced(normalize(w)) for w in words(language, lambda p: p.withdrawals)}
    return sorted((phrase for phrase in said if phrase), key=len, reverse=True)


def _linear(source: str) -> CompiledPattern:
    """``source`` on RE2. The withdrawal patterns repeat alternations whose words overlap
    ("あ", "ああ"; "mm", "mmm"): a backtracking engine tries every way to split "ああああ…"
    among them, exponential in its length, and a long one held the loop for minutes. RE2
    answers the same yes or no in linear time."""
    compiled = linear_pattern(source)
    if compiled is None:
        raise ValueError(f"a language pack's withdrawal pattern is no RE2 pattern: {source!r}")
    return compiled


@lru_cache(maxsize=64)
def _withdrawal_clause(language: str) -> CompiledPattern:
    """A whole clause that only withdraws: openers and the pack's leads, one of its
    withdrawal phrases (a space in a phrase may be left out, "안할래요"), then its tails."""
    phrases = _withdrawal_phrases(language)
    if not phrases:
        return _linear(r"[^\s\S]")
    leads = [
        *(_spaced(normalize(w)) for w in opener_words(language) if normalize(w)),
        *words(language, lambda p: p.withdrawal_leads),
    ]
    tails = words(language, lambda p: p.withdrawal_tails)
    lead = f"(?:(?:{'|'.join(leads)})\\s*)*" if leads else ""
    tail = f"(?:\\s*(?:{'|'.join(tails)}))*" if tails else ""
    return _linear(f"{lead}(?:{'|'.join(phrases)}){tail}")


@lru_cache(maxsize=4096)
def is_withdrawal(text: str, language: str = "") -> bool:
    """Whether the utterance withdraws the whole request: one of its clauses is nothing but
    a withdrawal the language packs list ("Scrap that, I'm selling the car", "됐어요, 안
    할래요", "もういいです、やめておきます"). A clause that goes on to say what to do ("drop it
    at the front desk", "please cancel the extra towels", "キャンセル待ちでお願いします") is
    no withdrawal: it is an answer that happens to hold such a word."""
    if is_question(text, language):
        return False
    whole = _withdrawal_clause(language)
    return any(whole.fullmatch(clause) is not None for clause in clauses_of(text))


def puts_off(text: str, language: str = "") -> bool:
    """Whether a clause of the utterance puts the request off ("이번 달엔 짬이 안 나네요.
    다음에 할게요", "maybe another time")."""
    later = pattern(language, "put_off", lambda p: p.put_off)
    return any(later.search(normalize(clause)) for clause in clauses_of(text))


@lru_cache(maxsize=64)
def _withdrawal_ending(language: str) -> CompiledPattern:
    """A clause that ends with a withdrawal phrase (and the pack's tails), whatever comes
    before it, the phrase starting a word (RE2 has no lookbehind: the character before it
    is matched instead)."""
    phrases = _withdrawal_phrases(language)
    if not phrases:
        return _linear(r"[^\s\S]")
    tails = words(language, lambda p: p.withdrawal_tails)
    tail = f"(?:\\s*(?:{'|'.join(tails)}))*" if tails else ""
    return _linear(f"(?:^|[^a-z0-9\uac00-\ud7a3])(?:{'|'.join(phrases)}){tail}$")


@lru_cache(maxsize=4096)
def ends_in_withdrawal(text: str, language: str = "") -> bool:
    """Whether a clause of the utterance ends with a withdrawal phrase, with whatever before
    it ("やっぱり今回は変更しないことにします", "신청 안 할래요"): in languages that put the verb
    last, that is how a withdrawal names what it withdraws. "drop it at the front desk" goes
    on after the phrase: a note that uses it in passing."""
    ending = _withdrawal_ending(language)
    return any(ending.search(clause) is not None for clause in clauses_of(text))
