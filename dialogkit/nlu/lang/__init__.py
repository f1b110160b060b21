"""Language packs: everything a rule knows about one language, as data.

A pack lists the words and patterns of the conversational acts (a question, a correction, a
negation, a request), the words that count people without a number ("just me", "no kids"),
the label words of each slot kind, the function words that carry no intent, and the counters
of durations. Generic code (``acts``, ``counts``, ``discipline``, ``rules``) reads packs and
never names a word itself.

Packs are chosen by the scenario's ``metadata.language``: its own pack comes first, then the
others, since a mixed-language utterance ("OK, 3명이요") is common and the scripts of the
registered languages do not overlap. Adding a language is adding a module with a ``PACK`` and
listing it in ``PACKS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final


@dataclass(frozen=True)
class LanguagePack:
    """One language's words and patterns (regular expressions run on normalised text:
    lower case, NFKC, punctuation turned into spaces, unless a field says otherwise)."""

    code: str
    intents: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    """The built-in intents' examples and keywords in this language, by intent (``affirm``,
    ``deny``, ``greet``, ``goodbye``, ``help``, ``repeat``, ``thanks``)."""
    lead_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that open a yes (``affirm``) or a no (``deny``)."""
    act_fillers: tuple[str, ...] = ()
    """Politeness around a yes or a no that says nothing more ("요", "please", "お願いします")."""
    numerals: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)
    """Number words by script ("sino", "native", "kanji", "kana", "en"): each word's role
    ("digit", "teen", "tens", "small", "big", "point") and value. How words of one script
    combine is the grammar of ``dialogkit.nlu._numbers``."""
    prenominal: tuple[str, ...] = ()
    """Number forms that only stand before a counter ("세 명"; alone "네" is yes)."""
    number_particles: str = ""
    """Particles that may follow a number glued to it ("셋이요", "둘도")."""
    number_stopwords: tuple[str, ...] = ()
    """Digit-and-counter words that are no number ("이번 주" = this week)."""
    number_lookalikes: tuple[str, ...] = ()
    """Patterns in which the group ``word`` looks like a number and is none ("어느 정도
    하나요?": the ending of a question, not "one") (normalised text)."""
    people_counts: tuple[str, ...] = ()
    """Number words that count people by themselves ("ふたり")."""
    people_cue: tuple[str, ...] = ()
    """Words before a bare number that make it a count of people ("a table for 4")."""
    change_by: tuple[str, ...] = ()
    """Words after a number that change a value by it ("한 명 더", "two more", "一人増えた"):
    the number is then not the value (run right after the number's counter)."""
    change_by_before: tuple[str, ...] = ()
    """Words before a number that change a value by it ("もう一人", "동생도 한 명", "another
    two"): run on the text before the number, so anchored at its end."""
    totals: tuple[str, ...] = ()
    """Patterns that announce the sum of what was just listed ("me, my husband and my sister,
    so three", "애들 둘 해서 네 명", "全部で四人"): the number after the last of them is the
    value (raw text, case-insensitive)."""
    ordinal_after: tuple[str, ...] = ()
    """What makes a number an ordinal ("10th", "두 번째", "3番目"): never a count."""
    month_before_day: tuple[str, ...] = ()
    """What before a day counter makes it a day of a month ("12월 10일", "12月10日")."""
    counters: dict[str, str] = field(default_factory=dict)
    """Counter patterns after a number, by counter id (``dialogkit.nlu._numbers.COUNTER_KINDS``
    says what each id measures): "명", "km", "泊", "nights"..."""
    relative_days: dict[str, int] = field(default_factory=dict)
    """Days counted from today ("내일" 1, "明後日" 2, "yesterday" -1)."""
    week_shifts: dict[str, int] = field(default_factory=dict)
    """Weeks counted from this one ("다음" 1, "来週" 1, "last" -1)."""
    month_names: dict[str, int] = field(default_factory=dict)
    """Month names by their first three letters ("dec" 12)."""
    ordinal_words: dict[str, int] = field(default_factory=dict)
    """Ordinals in words ("third" 3)."""
    eras: dict[str, int] = field(default_factory=dict)
    """Eras by the year before their first ("平成" 1988)."""
    day_counts: dict[str, int] = field(default_factory=dict)
    """Words that count days by themselves ("이틀" 2)."""
    day_spans: tuple[str, ...] = ()
    """Words after a day number that make it a number of days, not a day of the month
    ("3일 동안", "1일 이용권", "2日間", "一日中"): as written, each a prefix of what follows."""
    day_parts: dict[str, str] = field(default_factory=dict)
    """Parts of the day ("저녁" evening, "午前" am): which half of the clock an hour is in."""
    openers: tuple[str, ...] = ()
    """Hesitations an answer may open with ("um", "아", "えっと")."""
    apologies: tuple[str, ...] = ()
    """Apologies an answer may open with ("sorry, ...", "죄송한데요, ...", "ごめんなさい、..."):
    never part of a value, and no value alone (as written, compared in lower case)."""
    email_symbols: dict[str, str] = field(default_factory=dict)
    """Words said for the symbols of an e-mail address ("at", "골뱅이", "アットマーク" for
    "@"; "dot", "점", "ドット" for "."): read as the symbols when that makes an address."""
    phone_digits: dict[str, int] = field(default_factory=dict)
    """Words for single digits when a number is read out digit by digit ("ゼロ", "ナナ",
    "ゴー"): a run of three or more is a phone number's digits, never a word alone."""
    digit_repeats: dict[str, int] = field(default_factory=dict)
    """Words that repeat the digit after them, in a number read digit by digit ("double
    oh" = 00, "triple five" = 555)."""
    discourse_markers: tuple[str, ...] = ()
    """Markers an utterance may open with to frame what follows ("you know what, ...",
    "솔직히, ...", "そういえば、..."): never part of a value, and no value alone, like the
    hesitations (as written, compared in lower case)."""
    positive_words: tuple[str, ...] = ()
    """Standalone words that say yes."""
    negation: tuple[str, ...] = ()
    """Patterns of a negated statement ("didn t", "안 먹", "ない")."""
    forgetting: tuple[str, ...] = ()
    """Patterns of having forgotten to say something ("I forgot to mention", "깜빡했네요",
    "言い忘れてました"): a negation of the speaker's memory, not of the news said with it
    (normalised text)."""
    question: tuple[str, ...] = ()
    """Patterns of a question (an ending, a question word in front)."""
    question_word: tuple[str, ...] = ()
    """Patterns of a question word that needs an asking ending to make a question."""
    asking_end: tuple[str, ...] = ()
    information_requests: tuple[str, ...] = ()
    """Patterns of a request to be told something ("tell me your opening hours", "영업시간
    알려 주세요", "営業時間を教えてください"): an example that says one asks, as a question
    does (normalised text)."""
    not_knowing: tuple[str, ...] = ()
    """A statement that the speaker does not know or has not decided ("왜 그런지 모르겠어요",
    "not sure yet", "まだ決めかねています"): not a question, and no intent but ``help``."""
    request: tuple[str, ...] = ()
    """A request worded as a question ("could you make it 8?", "8時にしてもらえますか"):
    it asks for an action, so its values are meant (run on the raw text, case-insensitive)."""
    offers: tuple[str, ...] = ()
    """A question that offers a value for the bot to take ("is 10 ok?", "내일 2시 가능해요?",
    "明日9時は空いてますか"): its typed values are meant, though it still asks for no action
    and fills no text (run on normalised text)."""
    general_asks: tuple[str, ...] = ()
    """A question about what is possible in general ("토요일에도 되나요?", "do you deliver on
    Saturdays?", "土曜日も大丈夫ですか"): it offers no value (run on normalised text)."""
    correction: tuple[str, ...] = ()
    """Words that announce a correction ("make that", "제 말은", "訂正します"); run on the raw
    text, case-insensitive."""
    replaced: tuple[str, ...] = ()
    """Markers after a value being replaced ("X 말고 Y", "X じゃなくて Y", "not X but Y")."""
    moved: tuple[str, ...] = ()
    """Markers after a value being moved from ("7시에서 8시로", "change it from X to Y")."""
    rejected_after: tuple[str, ...] = ()
    """Markers before a value being replaced ("Friday, not Thursday")."""
    rejects_before: tuple[str, ...] = ()
    """Patterns ending right before a value that turn it down ("don't want the", "anything
    but", "not a"); searched in the words just before the value."""
    rejects_after: tuple[str, ...] = ()
    """Patterns right after a value that turn it down ("는 싫어요", "じゃない", "말고요")."""
    range_end: tuple[str, ...] = ()
    """Markers of a range's end ("until", "까지", "まで")."""
    range_start: tuple[str, ...] = ()
    """Markers after (ko, ja) or before (en) a range's start ("from", "부터", "から")."""
    range_joint: tuple[str, ...] = ()
    """What stands between the two ends of a range ("to", "through", "~")."""
    wishes: tuple[str, ...] = ()
    """Patterns of a wish or a request to act ("I want to", "해 주세요", "したいです"): an
    intent whose examples say these is an action, which a question never fires."""
    function_words: tuple[str, ...] = ()
    """Phrases every intent shares ("please", "해 주세요", "お願いします"): they never decide
    an intent on their own."""
    common_words: tuple[str, ...] = ()
    """Content-looking words too common to say what a question is about ("before", "혹시",
    "今日"): never a question intent's topic (``dialogkit.nlu._topics``), normalised."""
    titles: tuple[str, ...] = ()
    """Patterns of a title said with a person's name, before it ("Mrs.", "Dr") or after it
    ("과장님", "様"): dropped from a name that stays whole without it ("Mrs. Patricia
    Nguyen" -> "Patricia Nguyen", but "Dr. Alvarez" keeps it). Case-insensitive."""
    relations: tuple[str, ...] = ()
    """Patterns of a person named by relation, whole ("my wife", "우리 애요", "主人です"):
    never a person's name (normalised text)."""
    self_words: tuple[str, ...] = ()
    """Words a speaker uses for themself: never a name or an identifier."""
    not_self: tuple[str, ...] = ()
    """Patterns of the speaker saying they are not the one meant ("not me", "제가 아니라",
    "私じゃなくて"): with a relation said beside them, another person takes their place
    ("it's not me, it's my son taking the lesson") and the name held is no longer the one
    (normalised text)."""
    alone: tuple[str, ...] = ()
    """Patterns that count one person without a number ("just me", "혼자")."""
    with_companion: tuple[str, ...] = ()
    """Patterns of the speaker and one companion ("me and my wife", "아내랑 저"): two."""
    plus_self: tuple[str, ...] = ()
    """Patterns right after a count of people that add the speaker to it ("one kid and me",
    "아이 한 명이랑 저요", "친구 한 명 데려갈게요", "子供一人と私"): one more."""
    self_plus: tuple[str, ...] = ()
    """Patterns ending right before a count of people that add the speaker to it ("me and 3
    friends", "저랑 제 친구 한 명이요", "私と友達一人です"): one more (normalised text). In
    Korean and Japanese only before companions that may be many: "저랑 아내 둘이요" and
    "私と妻の二人です" count the speaker already."""
    pair_plus: tuple[str, ...] = ()
    """Patterns ending right before a count of people that add the speaker and a partner to
    it ("me, my wife and our three kids", "저랑 아내랑 애들 둘", "私と妻と子供二人"): two more
    (normalised text)."""
    at_all: tuple[str, ...] = ()
    """Patterns right after a number (and its counter) that make it "at all" ("하나도
    모르겠어요", "一つも分からない"): it counts nothing."""
    in_compound: tuple[str, ...] = ()
    """Patterns right after a count of people that make it part of a compound word
    ("ひとりカラオケ", "二人部屋", "一人暮らし", "2인실"): it names a kind of thing and
    counts nobody."""
    whole_group: tuple[str, ...] = ()
    """Patterns right after a count of people that make it the whole party ("둘이서": the
    two of us): nothing is added to it, whoever was named before ("저랑 제 친구 둘이서")."""
    pro_forms: tuple[str, ...] = ()
    """Words that stand for the head of a noun already named ("big ones" for "big bikes",
    "큰 거" for "큰 자전거"): a declared noun of two words or more is also said with one."""
    zero_before: tuple[str, ...] = ()
    """Words before a noun that make its count zero ("no kids", "without children")."""
    zero_after: tuple[str, ...] = ()
    """Patterns after a noun that make its count zero ("아이는 없어요", "子供はいません")."""
    particles: tuple[str, ...] = ()
    """Particles between a noun and its number ("아이는 둘", "子供は二人"): no distance."""
    conjunctions: tuple[str, ...] = ()
    """Words that join two phrases ("and", "하고", "と"): a noun does not claim a number
    across one when a nearer number is on its other side."""
    span_after: tuple[str, ...] = ()
    """What makes a day counter a span rather than a date ("3일간", "3日間"): without it,
    "13일" is the 13th, a number of days only when days are asked for."""
    stay_spans: tuple[str, ...] = ()
    """Spans of days that hold a day counter but are no date ("2박 3일", "3日間"), run on
    the text with numbers written as digits: a date is read around them."""
    one_before: tuple[str, ...] = ()
    """Patterns ending right before a noun that count one of it ("a kid", "an adult")."""
    nothing_answers: tuple[str, ...] = ()
    """Whole answers that give nothing ("nothing else", "특별히 없어요", "特にないです"), after
    an opening no: a no to an optional question, never its text (matched whole)."""
    zero_answers: tuple[str, ...] = ()
    """Whole answers that mean zero of what was asked ("none", "없어요", "いません")."""
    counted: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Nouns of things commonly counted, by concept ("adult", "child"): a count slot that
    declares no ``nouns`` but whose name or description says one of them is named by all
    the concept's words in every pack."""
    address_frames: tuple[str, ...] = ()
    """Patterns around an address said in a sentence, the address in group ``value`` ("we're
    at 12 Oak Street", "주소는 서울시 마포구 …이에요", "住所は…です"): run on the answer
    without its lead-in and closing courtesy, case-insensitive, for an ``address`` slot."""
    name_frames: tuple[str, ...] = ()
    """Patterns around a person's name said in a sentence, the name in group ``value``
    ("제 이름은 김민수입니다", "山田と申します", "my name is Ann"): run on the raw text,
    case-insensitive, for a ``person_name`` slot without a pattern of its own."""
    small_talk: tuple[str, ...] = ()
    """Patterns of a remark that chats rather than answers ("nice weather today", "오늘 날씨
    좋네요", "今日はいい天気ですね"): its day word names no date (normalised text)."""
    no_intent: tuple[str, ...] = ()
    """Sentences that ask nothing of any task: small talk, anecdotes of the day, questions to
    the bot about itself ("nice weather today", "are you a robot?"). Plain sentences, not
    patterns: the embedding tier compares an utterance with them as the class *no intent*,
    so a remark nearer to one of these than to the scenario's own sentences picks no intent.
    Nothing a task scenario would declare as an intent belongs here."""
    concepts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Many ways of asking what a service is commonly asked (``price``, ``deposit``,
    ``opening_hours``...), as plain sentences by concept. A scenario's question intent whose
    own examples are clearly about one concept takes that concept's sentences as examples for
    the embedding tier (``dialogkit.nlu._embeddings.adopt_concepts``); an author writes three
    examples, an asker uses any of a hundred wordings."""
    act_concepts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Many ways of doing the acts any scenario may have, as plain sentences by act:
    ``withdraw`` (calling the whole request off), ``repeat`` (asking to hear it again),
    ``goodbye`` (taking leave). The embedding tier gives each to the intent the rules find
    for the act (``dialogkit.nlu._embeddings.act_owners``), whatever the scenario calls it."""
    change_concepts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Many ways of saying, at a read-back, that a value of one slot kind (``date``, ``time``,
    ``phone``, ``address``, ``person_name``, ``count``, ``duration``, ``choice``) is wrong or
    will not do, without the new value ("I'll be out of town that week", "그 시각엔 제가
    회사에 있어요", "その携帯、もうすぐ使えなくなるんです"). The embedding tier gives each
    kind's sentences to the scenario's own intent for changing its one slot of that kind
    (``dialogkit.nlu._embeddings.act_owners``)."""
    asks_to_act: tuple[str, ...] = ()
    """Patterns of a question that asks the listener to do something ("could you book me a
    table?", "예약해 주실 수 있나요?", "手配してもらえますか"), as opposed to one that asks
    about something ("can I cancel later?"): the embedding tier lets it mean an action
    (normalised text)."""
    desires: tuple[str, ...] = ()
    """Patterns of the speaker saying they want to do or have something ("I'd like to come
    in", "한번 받아 보고 싶어요", "伺いたいなと思いまして"), not to be told something or to call
    something off: at a node that offers one action, that action (normalised text)."""
    asides: tuple[str, ...] = ()
    """Patterns of an utterance said aside, not to the question: the speaker asking themself
    ("what was it again", "뭐였더라", "何だっけ") or busy with something else ("my phone is
    ringing"). Never a text value (normalised text)."""
    hold_ons: tuple[str, ...] = ()
    """Patterns of a hold-on an utterance opens with ("hold on", "잠깐만요", "ちょっと待って";
    matched at its start, normalised text): said aside, unless the utterance goes on to ask,
    request or call the request off ("hang on, how much is it?")."""
    clause_marks: tuple[str, ...] = ()
    """Patterns of a clause rather than a name (a pronoun, an object particle before a verb,
    a past-tense ending): "I watched TV for long", "화분에 물을 줬어요" name nobody (run on
    the value, case-insensitive)."""
    paraphrases: tuple[tuple[str, ...], ...] = ()
    """Groups of phrases that say the same thing ("forget it", "forget the whole thing"; "안
    할게요", "관둘래요"): an intent keyed by one of them is keyed by all of its group, and an
    enum value or synonym in a group is also said by the rest of it ("bring it to my house"
    for "delivery")."""
    withdrawals: tuple[str, ...] = ()
    """Phrases that withdraw the whole request ("scrap that", "안 할래요", "やめておきます"),
    as written (also listed as a paraphrase group, so an intent keyed by one is keyed by
    all): said as a clause of its own, they are no answer to the question asked."""
    put_off: tuple[str, ...] = ()
    """Patterns of a clause that puts the request off ("다음에 할게요", "また今度にします",
    "maybe another time"; at its end, normalised text): a farewell at a greeting, calling the
    request off once one is under way."""
    withdrawal_leads: tuple[str, ...] = ()
    """Patterns of words that may open a withdrawal clause without making it say anything
    else ("actually", "아무래도", "その件は"); the pack's ``openers`` count too."""
    withdrawal_tails: tuple[str, ...] = ()
    """Patterns of words that may close a withdrawal clause ("for now", "after all")."""
    change_hints: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that point at a slot kind without naming it, by kind: parts of the day for a
    ``time`` ("the afternoon", "늦은 오후", "朝のうち"), weeks and weekends for a ``date``.
    A change request that says one ("could we push it to the afternoon?") is about that
    kind's slot; they name no slot otherwise (an afternoon is no label of a time). Under
    ``people``, the words for someone joining, and under ``leaving`` for someone else
    dropping out ("후배 한 놈이 못 온대요"), which point at a count of people only."""
    labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Label words of each slot kind: a value that contains one talks about the slot."""
    meta_remarks: tuple[str, ...] = ()
    """Remarks about giving a value ("why do I have to", "말해야 돼요")."""
    place_units: tuple[str, ...] = ()
    """Patterns of an address's place units ("강남구", "丁目", "street")."""
    wrong: tuple[str, ...] = ()
    """Patterns that say a named value is wrong ("is wrong", "틀렸", "違います")."""
    change_requests: tuple[str, ...] = ()
    """Patterns that ask to change a named value ("change the time", "시간을 바꾸고 싶어요",
    "名前の修正をお願いします"); a negated one ("no need to change the name") asks nothing
    (normalised text)."""
    preferences: tuple[str, ...] = ()
    """Patterns of a preference ("I'd prefer", "늦은 오후면 좋겠어요", "朝のうちがいいです"):
    at a read-back, one that points at a slot asks to change it, as a change request does
    (normalised text)."""


def _registered() -> dict[str, LanguagePack]:
    from dialogkit.nlu.lang import en, ja, ko

    return {pack.code: pack for pack in (ko.PACK, ja.PACK, en.PACK)}


PACKS: Final[dict[str, LanguagePack]] = _registered()
"""Every registered pack by language code."""


@lru_cache(maxsize=64)
def language_code(language: str) -> str:
    """The pack code of a ``metadata.language`` value ("ko-KR" -> "ko"); "" for none.

    Remembered: every pattern lookup of a turn asks it for its scenario's few languages."""
    return language.strip().lower().replace("_", "-").split("-")[0]


@lru_cache(maxsize=32)
def packs_for(language: str = "") -> tuple[LanguagePack, ...]:
    """The packs a scenario in ``language`` reads: its own first, then the others."""
    own = PACKS.get(language_code(language))
    return (own, *(p for p in PACKS.values() if p is not own)) if own else tuple(PACKS.values())


def words(language: str, pick: Callable[[LanguagePack], tuple[str, ...]]) -> tuple[str, ...]:
    """One field of every pack ``language`` reads, in pack order, without repeats."""
    seen: dict[str, None] = {}
    for pack in packs_for(language):
        for word in pick(pack):
            seen.setdefault(word, None)
    return tuple(seen)


_PATTERNS: dict[tuple[str, str, int], re.Pattern[str]] = {}


def pattern(
    language: str, name: str, pick: Callable[[LanguagePack], tuple[str, ...]], flags: int = 0
) -> re.Pattern[str]:
    """The patterns of one field of the packs ``language`` reads, as one alternation that
    never matches when no pack has any (compiled once per language and field)."""
    key = (language_code(language), name, flags)
    known = _PATTERNS.get(key)
    if known is None:
        parts = words(language, pick)
        source = "|".join(f"(?:{part})" for part in parts) if parts else r"(?!x)x"
        known = _PATTERNS[key] = re.compile(source, flags)
    return known


def counted_concepts() -> dict[str, tuple[str, ...]]:
    """Every pack's counted nouns, merged by concept."""
    merged: dict[str, dict[str, None]] = {}
    for pack in PACKS.values():
        for concept, nouns in pack.counted.items():
            merged.setdefault(concept, {}).update(dict.fromkeys(nouns))
    return {concept: tuple(nouns) for concept, nouns in merged.items()}


@lru_cache(maxsize=1)
def _paraphrase_groups() -> dict[str, tuple[str, ...]]:
    groups: dict[str, tuple[str, ...]] = {}
    for pack in PACKS.values():
        for group in pack.paraphrases:
            for phrase in group:
                groups[phrase] = group
    return groups


def paraphrases(phrase: str) -> tuple[str, ...]:
    """The other phrases of the group ``phrase`` belongs to in any pack (compared as
    written, in lower case); none when it is in no group."""
    group = _paraphrase_groups().get(phrase.strip().lower(), ())
    return tuple(other for other in group if other != phrase.strip().lower())


def paraphrases_within(text: str) -> tuple[str, ...]:
    """The phrases of every group one of whose phrases ``text`` says ("그냥 안 할래요" holds
    "안 할래요"): an example that says one says what its whole group says."""
    lowered = text.strip().lower()
    ranks, starts = _phrase_index()
    said: set[str] = set()
    for start in range(len(lowered)):
        for phrase in (
            *starts.get(lowered[start : start + 2], ()),
            *starts.get(lowered[start], ()),
        ):
            if lowered.startswith(phrase, start) and _said_at(lowered, phrase, start):
                said.add(phrase)
    groups = _paraphrase_groups()
    found: dict[str, None] = {}
    for phrase in sorted(said, key=ranks.__getitem__):
        found.update(dict.fromkeys(groups[phrase]))
    return tuple(found)


@lru_cache(maxsize=1)
def _phrase_index() -> tuple[dict[str, int], dict[str, tuple[str, ...]]]:
    """Every group phrase's rank (the packs' order, which the result keeps) and the phrases
    by their first two characters: a text is scanned once, not once per phrase (an index of a
    scenario with 15,000 examples took 7 s with a scan per phrase)."""
    ranks = {phrase: rank for rank, phrase in enumerate(_paraphrase_groups())}
    starts: dict[str, list[str]] = {}
    for phrase in ranks:
        if phrase:
            starts.setdefault(phrase[:2], []).append(phrase)
    return ranks, {start: tuple(phrases) for start, phrases in starts.items()}


_LETTERS: Final = (re.compile(r"[a-z]"), re.compile(r"[\uac00-\ud7a3]"))
"""Scripts whose letters join into words: a phrase inside such a word is not said by it."""


@lru_cache(maxsize=1)
def _particles() -> re.Pattern[str]:
    """What may follow a noun of a language written with spaces ("배송으로"), every pack's."""
    source = "|".join(f"(?:{p.number_particles})" for p in PACKS.values() if p.number_particles)
    return re.compile(source or r"(?!x)x")


def _said_at(text: str, phrase: str, start: int) -> bool:
    """Whether ``phrase``, found in ``text`` at ``start``, is said there as words of its own:
    "배송" is not said by "배송지" (another noun) though it is by "배송으로" (a particle after
    it), nor "pick" by "picture"; kana and kanji do not join into words that way, so there
    containment is enough."""
    end = start + len(phrase)
    joined_before = start > 0 and _joins(text[start - 1], phrase[0])
    joined_after = (
        end < len(text) and _joins(phrase[-1], text[end]) and not _particles().match(text, end)
    )
    return not joined_before and not joined_after


def _joins(left: str, right: str) -> bool:
    return any(letter.match(left) and letter.match(right) for letter in _LETTERS)


@lru_cache(maxsize=256)
def change_hints(language: str, kind: str) -> tuple[str, ...]:
    """The words that point at a slot kind in a change request (``change_hints``)."""
    return words(language, lambda pack: pack.change_hints.get(kind, ()))


@lru_cache(maxsize=256)
def labels(language: str, kind: str) -> tuple[str, ...]:
    """The label words of a slot kind in the packs ``language`` reads (remembered, as the
    packs' patterns are: every extraction of a labelled slot asks for them)."""
    return words(language, lambda pack: pack.labels.get(kind, ()))
