"""The offline NLU: intents from examples, keywords and patterns; entities by slot type.

Examples are compared by character n-grams (Dice coefficient over 2- and 3-grams with word
boundary marks), which works for Korean and Japanese without a tokenizer and is fully
deterministic. Keywords and patterns are stronger signals than examples.

Everything derived from the scenario (normalized examples and their n-grams, keywords,
compiled patterns, the intents each node can use) is prepared once per scenario by
``RuleIndex``; a turn only normalizes the utterance and scores the node's intents.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cached_property, lru_cache
from typing import Any, Final

from dialogkit.nlu._acts import (
    CLAUSE_PAUSE,
    WHOLE_ACT_SCORE,
    after_greeting,
    asks,
    asks_about_values,
    asks_to_act,
    asks_to_be_told,
    clauses_of,
    corrected_in_place,
    correction,
    ends_in_withdrawal,
    is_aside,
    is_negated,
    is_not_knowing,
    is_question,
    is_request,
    is_withdrawal,
    leading_act,
    only_hesitates,
    puts_off,
    said_apart,
    says_nothing,
    wish,
    without_restarts,
)
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS, HELP
from dialogkit.nlu._counts import counted_slots, people_of_kinds, read_counts, shares_numbers
from dialogkit.nlu._dates import bare_weekday, names_its_week
from dialogkit.nlu._discipline import (
    admit,
    is_own_value,
    is_self_reference,
    label_in,
    own_phrases,
    said_wrong,
    says_again,
)
from dialogkit.nlu._entities import (
    INVALID,
    date_period,
    exact,
    extract,
    extract_text,
    in_slot_unit,
    validate,
    without_courtesy,
)
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._kinds import counts_people, is_identifier, slot_kind, slot_labels
from dialogkit.nlu._morphology import keyword_needle, keyword_pattern, normalize, stem
from dialogkit.nlu._numbers import Quantity, words_as_digits
from dialogkit.nlu._ranges import nights, read_range
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._topics import TOPIC_SCORE, asked_topic, distinctive_topics, only_asks
from dialogkit.nlu._words import meant_part
from dialogkit.nlu.lang import paraphrases, paraphrases_within, pattern, words
from dialogkit.scenario.conditions import compile_pattern
from dialogkit.scenario.model import Intent, Slot
from dialogkit.scenario.patterns import CompiledPattern, linear_pattern
from dialogkit.scenario.scenario import Scenario

INTENT_THRESHOLD: Final = 0.5
"""At or below this score an utterance has no intent (which is not, by itself, a fallback).

Ties between intents go to the one listed first: the scenario's own intents come before the
built-in ones, so a scenario's wording wins over the generic sentences."""

ASKED_DENY_SCORE: Final = 0.93
"""A question is a no only by a phrase that says so ("제가 말씀드린 거랑 다른데요?"), never
for the negation it holds ("주말엔 안 하세요?", "No loaner car?")."""

KEYWORD_SCORE: Final = 0.85
"""The least a keyword hit scores (longer keywords score a little more)."""

REQUEST_SCORE: Final = 0.6
"""A request to act that names nothing the scenario declares, at a node that offers one
action (``RuleIndex.offered_action``): above no intent, below any keyword and below the
hybrid threshold, so a configured chat model still reads the turn."""
ASKED_VALUES_SCORE: Final = 0.5
"""Confidence of values a question names only to ask about them ("are you open on Sundays?"
at a date step): the turn takes none of them, so the rules are unsure what the utterance
means, and the tiers above (embeddings, a language model) may say."""

PARAPHRASE_RESEMBLANCE: Final = 0.78
"""A question this close to an example question is the same question said a little
differently ("예약 취소는 어떻게 하나요" for "예약 취소는 어떻게 해요"): it names the whole
thing asked about, so it outranks a keyword that names only a part of it ("예약"). Only
questions: between statements one small word ("안") can turn the meaning round."""
PARAPHRASE_SCORE: Final = 0.96

NAME_WORDS_SCORE: Final = 0.9
"""Score of an implied intent (named in conditions, not declared) whose name words were all
said: as strong as a keyword, since the scenario's author chose those words."""
NAME_FILLERS: Final = frozenset({"the", "and", "for", "with", "from", "about"})
"""Words of an intent name that say nothing on their own."""

CONTROL_INTENTS: Final = frozenset({"help", "repeat", "goodbye"})
"""Intents that mean the user is not answering the question, so no text slot is filled."""

DIALOGUE_ACTS: Final = {
    "affirm": "affirm",
    "deny": "deny",
    "greet": "greeting",
    "goodbye": "closing",
    "help": "request_help",
    "repeat": "request_repeat",
    "thanks": "thanks",
}
_PARTICLE = re.compile(r"^(?:\s+is|(?:은|는|이|가|을|를)요?|요)?[\s?？:,.]*")
_UNDER_LABEL: Final = re.compile(r"^\s*(?:으로|로)[^,，、.。]*[,，、.。]?\s*")
"""A label followed by "으로" ("남편 이름으로요", "제 이름으로 해 주세요, 박서연이에요") ends
its clause: the value, if any, is in the next one."""
BEST_KEPT: Final = 4096
"""Utterances whose best intent a scenario's index remembers (per node)."""
BEST_TEXT_CHARS: Final = 80
"""Only short utterances are remembered: they are the ones that recur, and the memory stays
bounded."""
SOCIAL_INTENTS: Final = frozenset({"thanks", "greet"})
LEAVE_TAKING: Final = frozenset({"goodbye", "thanks", "greet"})
"""Built-in intents a scenario's own intent said by keyword in the same sentence overrides."""
ANSWERED_BY_QUESTIONS: Final = frozenset({"help", "repeat"}) | SOCIAL_INTENTS
"""Built-in intents a question may carry ("can you say that again?", "how are you?"). Not
``goodbye``: a question asks and stays ("나중에 취소하면 위약금 있나요?" says 나중에 ... 하 of
"나중에 할게요" and asks about a fee); taking leave is said, not asked."""
"""A short utterance with one of these intents is a courtesy, not an answer to a text slot."""


@lru_cache(maxsize=1)
def _function_words() -> re.Pattern[str]:
    """The function words of every pack as one pattern: a spaced word (Latin, Hangul) must
    be a whole word, a Japanese one may end any word ("キャンセルお願いします")."""
    parts = []
    for word in sorted(words("", lambda p: p.function_words), key=len, reverse=True):
        normal = normalize(word)
        spaced = any(ch.isascii() or "\uac00" <= ch <= "\ud7a3" for ch in word)
        if spaced and normal:
            # The start-of-word test comes after the first letter, so that every alternative
            # opens with a literal and re skips ahead to the next possible first letter
            # instead of trying each word at each position (15x faster on the natural cases).
            first, rest = re.escape(normal[0]), re.escape(normal[1:])
            parts.append(rf"{first}(?<!\S[\s\S]){rest}(?!\S)")
        else:
            parts.append(rf"(?<!\S){re.escape(normal)}(?!\S)" if spaced else re.escape(normal))
    return re.compile("|".join(parts))


@lru_cache(maxsize=8192)
def content(text: str) -> str:
    """The normalized text without the function words every intent shares ("please", "해
    주세요", "お願いします"), which never decide an intent on their own."""
    return " ".join(_function_words().sub(" ", normalize(text)).split())


@lru_cache(maxsize=4096)
def ngrams(text: str) -> frozenset[str]:
    grams: set[str] = set()
    for word in normalize(text).split():
        padded = f"^{word}$"
        for n in (2, 3):
            grams.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return frozenset(grams)


@dataclass(frozen=True)
class Utterance:
    """The user's text with what every intent's scoring reads, computed once per turn: a
    node scores a dozen intents and a hundred examples against the same utterance."""

    text: str
    lowered: str
    words: tuple[str, ...]
    grams: frozenset[str]
    negated: bool
    asking: bool = False
    starts: frozenset[str] = frozenset()
    """Every one- and two-character run of ``lowered`` (and ""): where a keyword's needle
    may start (``IntentMatcher.keyword_starts``)."""

    @classmethod
    def of(cls, text: str, language: str = "") -> Utterance:
        lowered = normalize(text)
        grams = ngrams(content(lowered))
        asking = is_question(text, language)
        starts = frozenset({"", *lowered, *(lowered[i : i + 2] for i in range(len(lowered) - 1))})
        words = tuple(lowered.split())
        return cls(text, lowered, words, grams, is_negated(lowered), asking, starts)


@dataclass(frozen=True)
class Example:
    """One intent example, normalized, with its n-grams and polarity."""

    text: str
    grams: frozenset[str]
    negated: bool
    asking: bool = False


@dataclass(frozen=True)
class IntentMatcher:
    """One intent, prepared for scoring: compiled patterns, keyword matchers with their
    scores (highest first, so the first hit is the best), examples with their n-grams and
    polarity, and for an implied intent the words of its name."""

    patterns: tuple[CompiledPattern, ...]
    keywords: tuple[tuple[re.Pattern[str], float, str], ...]
    """Each keyword's matcher, score and needle (``keyword_needle``): most intents hear none
    of theirs, and a substring test tells so without the matcher's slow search."""
    keyword_starts: dict[str, tuple[int, ...]]
    """The keywords (their indexes, best first) by the first two characters of their needle:
    a built-in intent has hundreds of keywords in all languages, and an utterance can hold
    only those whose needle starts with one of its own character pairs."""
    examples: tuple[Example, ...]
    by_gram: dict[str, tuple[int, ...]]
    """Which examples hold each n-gram: an utterance is compared only with the examples it
    shares one with (most of an intent's, the built-ins' in every language, share none)."""
    exact: frozenset[str]
    """The normalized examples: an utterance equal to one of them scores 1."""
    linear: bool
    """Every pattern runs on RE2, so a score never depends on a search's time budget."""
    name_words: tuple[str, ...] = ()
    action: bool = False
    """Every example is a statement, none a question ("cancel my booking"): a question
    ("does cancelling cost anything?") never fires it, since a question is never an
    action."""

    @classmethod
    def of(cls, intent: Intent, *, implied_name: str = "", grouped: bool = True) -> IntentMatcher:
        """``grouped``: a keyword or example that says a phrase of a paraphrase group also
        says the rest of the group (off: only the scenario's own words count)."""
        compiled = (compile_pattern(pattern) for pattern in intent.patterns)
        texts = [*intent.examples]
        if implied_name and intent.description:
            texts.append(intent.description)
        said = [*intent.keywords]
        if grouped:
            said += [
                *(p for k in intent.keywords for p in paraphrases(k)),
                *(p for e in intent.examples for p in paraphrases_within(e)),
            ]
        needles = (k for k in (normalize(k) for k in said) if k)
        # A longer keyword is more specific; a stemmed one is as specific as its stem.
        keywords = [
            (keyword_pattern(k), KEYWORD_SCORE + min(len(stem(k)), 10) / 100, keyword_needle(k))
            for k in needles
        ]
        examples = tuple(
            Example(
                normalize(text),
                ngrams(content(text)),
                is_negated(normalize(text)),
                is_question(text),
            )
            for text in texts
        )
        by_gram: dict[str, list[int]] = {}
        for index, example in enumerate(examples):
            for gram in example.grams:
                by_gram.setdefault(gram, []).append(index)
        ranked = tuple(sorted(keywords, key=lambda pair: pair[1], reverse=True))
        starts: dict[str, list[int]] = {}
        for index, (_, _, needle) in enumerate(ranked):
            starts.setdefault(needle[:2], []).append(index)
        return cls(
            patterns=tuple(pattern for pattern in compiled if pattern is not None),
            keywords=ranked,
            keyword_starts={start: tuple(found) for start, found in starts.items()},
            examples=examples,
            by_gram={gram: tuple(found) for gram, found in by_gram.items()},
            exact=frozenset(example.text for example in examples),
            linear=all(linear_pattern(pattern) is not None for pattern in intent.patterns),
            name_words=_name_words(implied_name),
            action=_is_action(intent.examples),
        )

    def score(self, utterance: Utterance) -> float:
        """How well the utterance fits, from 0 to 1."""
        if utterance.lowered in self.exact:
            return 1.0
        if any(pattern.search(utterance.text) for pattern in self.patterns):
            return 1.0
        lowered = utterance.lowered
        best = 0.0
        starts = self.keyword_starts
        for index in sorted(i for start in utterance.starts & starts.keys() for i in starts[start]):
            matcher, score, needle = self.keywords[index]
            if needle in lowered and matcher.search(lowered):
                best = score
                break
        if self.name_words and all(_said(word, utterance) for word in self.name_words):
            best = max(best, NAME_WORDS_SCORE)
        grams = utterance.grams
        if not grams:
            return best
        size = len(grams)
        shared: dict[int, int] = {}
        for gram in grams & self.by_gram.keys():
            for index in self.by_gram[gram]:
                shared[index] = shared.get(index, 0) + 1
        for index, count in shared.items():
            example = self.examples[index]
            # Half the resemblance when one sentence is negated and the other is not:
            # "만들래요" shares most of its characters with "안 만들래요".
            agreement = 1.0 if example.negated == utterance.negated else 0.5
            resemblance = 2 * count / (len(example.grams) + size) * agreement
            if resemblance >= PARAPHRASE_RESEMBLANCE and utterance.asking and example.asking:
                resemblance = max(resemblance, PARAPHRASE_SCORE)
            best = max(best, resemblance)
        return best


def _is_action(examples: list[str]) -> bool:
    """Whether an intent's examples ask for an action: none is a question and at least half
    say a wish or a request in their language ("cancel my booking", "취소해 주세요")."""
    if not examples or any(asks(example) for example in examples):
        return False
    wishes = pattern("", "wishes", lambda p: p.wishes)
    return 2 * sum(bool(wishes.search(normalize(e))) for e in examples) >= len(examples)


def _name_words(name: str) -> tuple[str, ...]:
    words = [w for w in re.split(r"[_\-\s]+", name.lower()) if w]
    kept = [w for w in words if len(w) >= 3 and w not in NAME_FILLERS]
    return tuple(kept or words)


def _said(word: str, utterance: Utterance) -> bool:
    """A word of an intent's name is said when an utterance word starts with its stem (its
    first letters, so "apply" is found in "applying" and "application")."""
    if not word.isascii():
        return word in utterance.lowered
    stem = word if len(word) <= 4 else word[: max(4, len(word) - 2)]
    return any(candidate.startswith(stem) for candidate in utterance.words)


class RuleIndex:
    """A scenario's intents prepared once (``Scenario.derived(RuleIndex)``), and for each
    node the intents worth scoring: those its own and the global conditions name, plus the
    built-ins, plus declared intents that no condition names (they can only be meant for
    templates, skill inputs or the transcript), in the scenario's order so ties still go to
    the intent listed first. An intent only another node's conditions name is not scored."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        implied = set(scenario.index.implied_intents)
        self.intents = scenario.index.intents
        self.matchers = {
            name: IntentMatcher.of(intent, implied_name=name if name in implied else "")
            for name, intent in self.intents.items()
        }
        self.exact: dict[str, str] = {}
        """Normalized example -> the first intent listing it, over every intent: an utterance
        that is word for word another node's example means that intent, not a weaker match
        among the intents this node can use."""
        for name, matcher in self.matchers.items():
            for example in matcher.examples[: len(self.intents[name].examples)]:
                self.exact.setdefault(example.text, name)
        self.topics = distinctive_topics(self.intents)
        """Question intent -> the words only its examples use (``dialogkit.nlu._topics``)."""
        self._candidates: dict[str, tuple[str, ...]] = {}
        self._rememberable: dict[str, bool] = {}
        self._withdrawals: dict[str, str | None] = {}
        self._offered: dict[str, str | None] = {}
        self._own_words: dict[str, IntentMatcher] = {}
        self.best: dict[tuple[str, str], tuple[str | None, float]] = {}
        """(node, utterance) -> its best intent and score, for the last ``BEST_KEPT`` texts."""

    def rememberable(self, node_id: str) -> bool:
        """Whether the node's best intent is a pure function of the text: not when a
        lookaround pattern, which gives up when a turn's search budget runs out, can decide."""
        known = self._rememberable.get(node_id)
        if known is None:
            known = all(self.matchers[name].linear for name in self.candidates(node_id))
            self._rememberable[node_id] = known
        return known

    def remember(self, key: tuple[str, str], best: tuple[str | None, float]) -> None:
        if len(self.best) >= BEST_KEPT:
            self.best.pop(next(iter(self.best)), None)  # the oldest first
        self.best[key] = best

    def withdrawal_intent(self, node_id: str) -> str | None:
        """The intent a withdrawal means at ``node_id`` (``_withdrawal_intent``), computed
        on first use."""
        if node_id not in self._withdrawals:
            matchers = [(name, self.matchers[name]) for name in self.candidates(node_id)]
            named = self.scenario.index.named_intents.keys()
            language = self.scenario.language
            self._withdrawals[node_id] = _withdrawal_intent(matchers, named, language)
        return self._withdrawals[node_id]

    def offered_action(self, node_id: str) -> str | None:
        """The one thing the node offers to do: of the scenario's intents its own transitions
        name, the only one that is no question (not every example asks), no end, no change of
        a value and no built-in. None when it offers none or several, and at a read-back (a
        node that also offers changes): there a request ("旧姓のほうで登録しておいてもらえます？")
        is about the values read back, not the booking they make."""
        if node_id not in self._offered:
            index = self.scenario.index
            changing = {name for names in index.changers.values() for name in names}
            language = self.scenario.language
            own = index.node(node_id).own_intents
            actions = [
                name
                for name in sorted(own if not own & changing else ())
                if name in self.intents
                and name not in BUILTIN_INTENTS
                and name not in index.ending_intents
                and name not in changing
                and not only_asks(self.intents[name], language)
            ]
            self._offered[node_id] = actions[0] if len(actions) == 1 else None
        return self._offered[node_id]

    @cached_property
    def withdrawal_owner(self) -> str | None:
        """The scenario's own intent a withdrawal means wherever it is usable (the one most
        of the packs' withdrawal phrases reach, ``_withdrawal_intent``); None when that is
        no intent of its own (the built-in ``goodbye``, or nothing)."""
        named = self.scenario.index.named_intents.keys()
        found = _withdrawal_intent(list(self.matchers.items()), named, self.scenario.language)
        return None if found is None or found in BUILTIN_INTENTS else found

    def own_words(self, name: str) -> IntentMatcher:
        """The matcher of a declared intent on the scenario's own words only (no
        paraphrase group), prepared on first use."""
        matcher = self._own_words.get(name)
        if matcher is None:
            implied = name in self.scenario.index.implied_intents
            matcher = IntentMatcher.of(
                self.intents[name], implied_name=name if implied else "", grouped=False
            )
            self._own_words[name] = matcher
        return matcher

    def candidates(self, node_id: str) -> tuple[str, ...]:
        """The intents scored at ``node_id``, computed on first use."""
        known = self._candidates.get(node_id)
        if known is None:
            usable = self.scenario.index.node(node_id).intents
            named = self.scenario.index.named_intents
            known = tuple(
                name
                for name in self.intents
                if usable is None or name in usable or name in BUILTIN_INTENTS or name not in named
            )
            self._candidates[node_id] = known
        return known


def _unsure_which(request: NLURequest, text: str, entities: dict[str, Any]) -> bool:
    """Whether the speaker, asked to choose among options, says they do not know which ("뭘
    골라야 할지 감이 안 와요", "I'm not sure which one to pick"): they ask for the options to
    be told, the scenario's help. A date or a name not known yet is an answer of its own."""
    slot = _asked_slot(request)
    return (
        slot is not None
        and slot.type == "enum"
        and HELP in request.intents
        and request.expected_slot not in entities
        and is_not_knowing(text, request.scenario.language)
    )


def _drop_refused_text(request: NLURequest, entities: dict[str, Any]) -> None:
    """Leave out a text value that no turn would take for what it is (an apology alone, a
    clause where a name is asked: "ごめんなさい、別の手段で行くことにします" names nobody; a
    read-back's correction "姉に替わってもらいたいんです" neither): proposed, it would read as
    the node's answer or the new value, and the tiers above would never hear what the
    utterance says instead."""
    language = request.scenario.language
    for name, value in list(entities.items()):
        slot = request.scenario.slot(name)
        if (
            slot is not None
            and slot.type in ("text", "pattern")
            and isinstance(value, str)
            and admit(name, slot, value, question=False, asked=True, language=language) is None
        ):
            del entities[name]


def _answering(request: NLURequest, entities: dict[str, Any]) -> dict[str, Any]:
    """The values that answer the node: of a slot it collects, or a correction of one it
    reads back. A value said early at a greeting that takes it ("이번 주말에 제주도 가는데
    …") answers nothing yet: what the speaker wants is still to be understood."""
    node = request.node
    filled = request.filled_slots
    return {
        name: value
        for name, value in entities.items()
        if name in node.collect_slots
        or name == request.expected_slot
        or filled.get(name) not in (None, "")
    }


def _values_confidence(entities: dict[str, Any], text: str, language: str) -> float:
    """How sure the rules are of a turn that names values and no intent: sure, unless a
    question names them only to ask about them (``ASKED_VALUES_SCORE``)."""
    if not entities:
        return 0.0
    return ASKED_VALUES_SCORE if asks_about_values(text, language) else 1.0


def _withdrawal_intent(
    matchers: list[tuple[str, IntentMatcher]], named: Iterable[str], language: str
) -> str | None:
    """The intent a withdrawal the language packs list ("scrap that", "안 할래요",
    "やめておきます") means among ``matchers``, of those a condition names (else taking it
    would change nothing): the scenario's own intent that most of the packs' withdrawal
    phrases reach (its cancel intent, whatever its name and words), or else the built-in
    ``goodbye``; None when the scenario has no use for a withdrawal."""
    usable = [(name, matcher) for name, matcher in matchers if name in named]
    own = [(name, matcher) for name, matcher in usable if name not in BUILTIN_INTENTS]
    hits: dict[str, int] = {}
    for phrase in words(language, lambda p: p.withdrawals):
        utterance = Utterance.of(phrase, language)
        best, top = None, INTENT_THRESHOLD
        for name, matcher in own:
            score = matcher.score(utterance)
            if score > top:
                best, top = name, score
        if best is not None:
            hits[best] = hits.get(best, 0) + 1
    if hits:
        # Ties go to the intent listed first, as everywhere in the rules.
        return max((name for name, _ in own if name in hits), key=lambda name: hits[name])
    return "goodbye" if any(name == "goodbye" for name, _ in usable) else None


def _withdrawn(request: NLURequest, index: RuleIndex) -> str | None:
    """The intent the utterance means when, at a step that asks for a text value (a note,
    a description, a name), it withdraws the whole request instead of answering: "Scrap
    that, I'm selling the car" is no car, "됐어요, 안 할래요" no name. None when it is no
    withdrawal, the step asks for no text, or the scenario has no intent it means."""
    if not _asks_text(request) or not is_withdrawal(request.text, request.scenario.language):
        return None
    return _withdrawal_target(request, index)


def _asks_for_the_offer(request: NLURequest, text: str) -> bool:
    """Whether the utterance asks the bot to do something, or says the speaker wants to,
    without saying what in the scenario's words ("can you set that up for us?", "그거 하나
    잡아 주세요", "一回ほぐしに伺いたいなと思いまして"): at a node that offers one action, that
    action. A request to be told something, a withdrawal or a negated request asks for none
    (a negation in the reason before it does not: "土いじりってやったことないんですけど、一回
    作ってみたくて"), and a node that asks for a value takes the request as its answer."""
    language = request.scenario.language
    if request.expected_slot is not None or request.node.collect_slots:
        return False
    asking: list[str] = []
    for clause in clauses_of(text):
        if asks_to_act(clause, language) or is_request(clause, language):
            asking.append(clause)
        # "A few of us have never tried this and we'd love to give it a go": the wish, not
        # the reason before it, says whether it is refused.
        if (wished := wish(clause, language)) is not None:
            asking.append(wished)
    return any(not is_negated(said, language) for said in asking) and not (
        asks_to_be_told(text, language)
        or is_withdrawal(text, language)
        or ends_in_withdrawal(text, language)
    )


def _asks_text(request: NLURequest) -> bool:
    """Whether the step asks for a text value (a note, a description, a name)."""
    slot = _asked_slot(request)
    return slot is not None and slot.type == "text"


def _asked_slot(request: NLURequest) -> Slot | None:
    """The definition of the slot the step asks for, if any."""
    name = request.expected_slot
    return request.slots.get(name) if name is not None else None


def _leave_taking(request: NLURequest, index: RuleIndex, utterance: Utterance) -> float:
    """How well the utterance fits the built-in ``goodbye`` (0 when the scenario has none): a
    keyword score says it takes leave, whatever else it also says."""
    if "goodbye" not in request.intents:
        return 0.0
    return _matcher(index, "goodbye", request.intents["goodbye"]).score(utterance)


def _withdrawal_target(request: NLURequest, index: RuleIndex) -> str | None:
    """The intent a withdrawal means at the request's node (``_withdrawal_intent``)."""
    known = request.scenario.has_node(request.node.id)
    if known and request.intents is index.intents:
        return index.withdrawal_intent(request.node.id)
    named = {
        intent
        for intent in request.intents
        if intent in request.scenario.index.named_intents or intent not in index.intents
    }
    matchers = RuleNLU._matchers(request, index)
    return _withdrawal_intent(matchers, named, request.scenario.language)


def _withdrawal_in_passing(
    request: NLURequest, index: RuleIndex, utterance: Utterance, intent: str | None
) -> bool:
    """Whether, at a step that asks for a text value, ``intent`` (the one a withdrawal
    means) was heard only in a withdrawal phrase of the packs that the answer uses in
    passing ("drop it at the front desk" as a delivery note, "don't bother with turndown"):
    no clause ends with the phrase (``ends_in_withdrawal``) and the scenario's own words of
    the intent do not reach it, so the note is the note."""
    if intent is None or intent in BUILTIN_INTENTS or not _asks_text(request):
        return False
    if request.intents.get(intent) is not index.intents.get(intent):
        return False
    if ends_in_withdrawal(request.text, request.scenario.language):
        return False
    if _withdrawal_target(request, index) != intent:
        return False
    return index.own_words(intent).score(utterance) <= INTENT_THRESHOLD


def _matcher(index: RuleIndex, name: str, definition: Intent) -> IntentMatcher:
    """The prepared matcher of ``definition``; prepared now only when a caller passes an
    intent the scenario does not hold."""
    matcher = index.matchers.get(name)
    if matcher is None or index.intents.get(name) is not definition:
        matcher = IntentMatcher.of(definition)
    return matcher


HELD_WEEKDAY_DAYS: Final = 21
"""How far after the nearest such weekday a date read back may lie and still be the one a
bare weekday names: three weeks, about as far as "that Wednesday" reaches in a booking."""


def _held_weekday(request: NLURequest, name: str, slot: Slot, text: str, value: Any) -> Any:
    """The date held, for a weekday said without its week at a step that holds a later date
    on that weekday ("Wednesday's when my mother-in-law flies in" at a read-back of Wednesday
    2 December): the weekday points at the date read back, not at the nearest Wednesday, so
    it says that date again and is no new one."""
    if slot.type != "date" or not isinstance(value, str) or name == request.expected_slot:
        return value
    held = request.filled_slots.get(name)
    if not isinstance(held, str):
        return value
    weekday = bare_weekday(text)
    if weekday is None:
        return value
    try:
        heard, kept = date.fromisoformat(value), date.fromisoformat(held)
    except ValueError:
        return value
    same_day = heard.weekday() == kept.weekday() == weekday
    return held if same_day and 0 < (kept - heard).days <= HELD_WEEKDAY_DAYS else value


def _replaced_value(request: NLURequest, name: str, text: str, content: str) -> bool:
    """Whether a correction turns down the slot's current value ("it's not Kim, it's Lee"):
    then the slot is read from the correction as if it were asked for."""
    held = request.filled_slots.get(name)
    if content == text or not isinstance(held, str) or not held.strip():
        return False
    return held.lower() in text.lower() and held.lower() not in content.lower()


def _changes_filled(request: NLURequest, entities: dict[str, Any]) -> bool:
    """Whether ``entities`` give a filled slot another value. A yes/no is no such change, nor
    an hour said again without its half of the day ("네, 3시 맞아요" for 15:00)."""
    filled = request.filled_slots
    return any(
        not isinstance(value, bool)
        and filled.get(name) not in (None, "")
        and not says_again(filled[name], value)
        for name, value in entities.items()
    )


def _notes_nothing(request: NLURequest) -> bool:
    """Whether an answer that gives nothing is the value of the slot asked for: a free-text
    slot at a node none of whose transitions tests a no (an optional note the scenario takes
    as said)."""
    return _asks_free_text(request) and (
        "deny" not in request.scenario.index.node(request.node.id).own_intents
    )


def _asks_free_text(request: NLURequest) -> bool:
    """Whether the step asks for a slot of free text (a note, a request), not a name or an
    identifier."""
    slot = _asked_slot(request)
    if slot is None or request.expected_slot is None:
        return False
    return slot_kind(request.expected_slot, slot) == "free_text"


def _accepted_by_pattern(request: NLURequest, name: str, slot: Slot) -> bool:
    """A text slot the node accepts and that has a pattern is read like an asked-for slot,
    so a confirmation step can take "이름은 김민준이에요" as a correction (unless the utterance
    reads as an intent: "that's perfect" at a read-back is a yes, not a name)."""
    return slot.type == "text" and bool(slot.pattern) and name in request.node.accept_slots


def _renamed(request: NLURequest, name: str, slot: Slot, text: str) -> bool:
    """A text slot the node accepts without a pattern is read like an asked-for slot when the
    utterance names the slot and says its new value in a frame of the language ("the name
    should be Alex Park", "이름을 김민준으로 바꿔 주세요", "名前は山口です"); "名前が間違っています"
    names the slot but gives no value, and leaves it alone."""
    if slot.type != "text" or slot.pattern or name not in request.node.accept_slots:
        return False
    labels = slot_labels(name, slot, request.scenario.language)
    if label_in(text, labels) is None:
        return False
    # "이름은 김지은 말고 정하늘로 바꿔 주세요": the new value is the one meant.
    value = extract_text(slot, meant_part(text, request.scenario.language) or text, name)
    return isinstance(value, str) and label_in(value, labels) is None


def _said_after_naming(request: NLURequest, name: str, slot: Slot, text: str) -> str | None:
    """What follows the clause that names a text slot the node accepts, when it frames the
    slot's new value ("the address is wrong, it should be 15 Willow Court" -> "it should be
    15 Willow Court"); None when nothing after it frames one ("no, the name is wrong")."""
    if slot.type != "text" or slot.pattern or name not in request.node.accept_slots:
        return None
    label = label_in(text, slot_labels(name, slot, request.scenario.language))
    if label is None:
        return None
    pause = CLAUSE_PAUSE.search(text, text.lower().index(label))
    rest = text[pause.end() :] if pause else ""
    value = extract_text(slot, rest, name) if rest.strip() else INVALID
    framed = isinstance(value, str) and value.strip(" .!") != rest.strip(" .!")
    return rest if framed else None


def _changer(
    request: NLURequest, text: str, heard: str | None, confidence: float, entities: dict[str, Any]
) -> str | None:
    """The scenario's own intent for changing the one slot the utterance says is wrong or
    asks to change ("수거 시간을 좀 바꾸고 싶어요" -> the intent whose transition clears the
    pick-up time, ``ScenarioIndex.changers``), when the rules heard no intent, a no, a yes
    ("you've got it spelled wrong" says "got it"), the intent that changes another slot,
    or another intent only by a weak resemblance ("It's the cell, I don't use that one
    anymore" is not "I don't want the visit anymore"); None when no single such intent is
    usable here, or when the utterance gives the new value ("이름을 김민준으로 바꿔 주세요" is
    the value)."""
    index = request.scenario.index
    usable = index.node(request.node.id).intents
    by_slot = {
        slot: found
        for slot, names in index.changers.items()
        if (found := (names if usable is None else names & usable) & request.intents.keys())
    }
    language = request.scenario.language
    # A question intent's words said in no question ("予算が厳しくて、もうちょっと安く収まる
    # コースのほうがいいかも") give a reason, and the change they give it for stands.
    statement = not is_question(text, language)
    if not by_slot or (
        heard not in (None, "deny", "affirm")
        and not any(heard in n for n in by_slot.values())
        and (
            not statement
            or (confidence >= KEYWORD_SCORE and not only_asks(request.intents.get(heard), language))
        )
    ):
        return None
    slots = {name: slot for name in by_slot if (slot := request.scenario.slot(name)) is not None}
    # Asked which value to change, the one named is the answer; "체크카드 맞죠?" asks back.
    # A value that will not do, said in a negated clause the answer would drop ("I can't do
    # ten, that's when I drop the kids at school"), still names its slot.
    choosing = request.node.id in index.asks_what_to_change and statement
    named = _said_wrong(request, text, slots, entities, choosing=True) if choosing else []
    named = named or _said_wrong(request, text, slots, entities, choosing=False)
    if len(named) != 1 or len(by_slot[named[0]]) != 1:
        return None
    # The value the slot holds, named to be changed, is no new value ("swap out the standard
    # option"); a new one is the value itself ("이름을 김민준으로 바꿔 주세요").
    said = entities.get(named[0])
    if said is not None and not says_again(request.filled_slots.get(named[0]), said):
        return None
    entities.pop(named[0], None)
    return next(iter(by_slot[named[0]]))


def _said_wrong(
    request: NLURequest, text: str, slots: dict[str, Slot], heard: dict[str, Any], *, choosing: bool
) -> list[str]:
    return said_wrong(
        text,
        slots,
        request.scenario.language,
        changes=True,
        held=request.filled_slots,
        heard=heard,
        choosing=choosing,
    )


class RuleNLU:
    """Deterministic NLU from the scenario's own declarations."""

    async def understand(self, request: NLURequest) -> NLUResult:
        return self.analyse(request)

    def analyse(self, request: NLURequest) -> NLUResult:
        text = request.text
        if not text.strip():
            return NLUResult(dialogue_act="silence", source="rules")
        intent, confidence = None, 0.0
        utterance = Utterance.of(text, request.scenario.language)
        index = request.scenario.derived(RuleIndex)
        said = index.exact.get(utterance.lowered)
        exact = said is not None and request.intents.get(said) is index.intents[said]
        greeted: str | None = None
        if exact:
            intent, confidence = said, 1.0
        else:
            asking = utterance.asking
            intent, confidence = self._best(request, index, utterance, asking=asking)
            closed = without_courtesy(text) if intent == "thanks" else text
            if closed != text and len(normalize(closed).split()) >= 2:
                # "Every detail matches, thanks": the thanks closes what the rest says.
                rest = Utterance.of(closed, request.scenario.language)
                intent, confidence = self._best(request, index, rest, asking=rest.asking)
            opened = after_greeting(text) if intent == "greet" else None
            if opened is not None:
                greeted = opened
                # "안녕하세요, 대관 예약하고 싶어요": the greeting opens what the rest says.
                rest = Utterance.of(opened, request.scenario.language)
                heard, score = self._best(request, index, rest, asking=rest.asking)
                if heard is not None and score > INTENT_THRESHOLD:
                    intent, confidence = heard, score
        act = leading_act(text)
        question = is_question(text, request.scenario.language)
        if act is not None and question and not act.whole and not said_apart(text):
            act = None
        # A no that goes on to say all is fine declines what was asked ("いえ、電車で行くので
        # 大丈夫です", "no, we're good"): the fine is no yes. Not at a read-back, where "no,
        # leave it like that" keeps what was read.
        collects = bool(request.node.collect_slots)
        declines = collects and act is not None and act.act == "deny" and intent == "affirm"
        # A yes or no said with nothing but politeness is that answer, whatever courtesy the
        # politeness holds ("はい、お願いします、ありがとう" is a yes, not a thank-you), unless
        # the scenario gives those very words as an example of the courtesy.
        courtesy = act is not None and act.whole and intent in SOCIAL_INTENTS and not exact
        if act is not None and act.act in request.intents and (act.score > confidence or courtesy):
            intent, confidence = act.act, max(act.score, confidence)
        if declines and "deny" in request.intents:
            intent, confidence = "deny", max(act.score if act else 0.0, confidence)
        if intent == "thanks":
            # A thank-you that also takes leave ("thanks, bye") is a closing.
            closing = _leave_taking(request, index, utterance)
            if closing >= KEYWORD_SCORE:
                intent, confidence = "goodbye", max(confidence, closing)
        # "이번 달엔 짬이 안 나네요. 다음에 할게요" with a request under way calls it off: the
        # scenario's way out, not a farewell, nor the question whose words the reason says
        # without asking ("財布と相談したら今月ちょっと厳しくて…落ち着いたらまた電話しますね").
        weakly = (
            intent in (None, "goodbye")
            or confidence <= INTENT_THRESHOLD
            or (
                not utterance.asking
                and only_asks(request.intents.get(intent or ""), request.scenario.language)
            )
        )
        putting_off = weakly and request.filled_slots and not exact
        if putting_off and puts_off(text, request.scenario.language):
            withdrawal = _withdrawal_target(request, index)
            if withdrawal is not None:
                intent, confidence = withdrawal, max(confidence, KEYWORD_SCORE)
        # "わかりました、じゃあまた改めてお電話しますね。失礼します" before anything was asked
        # for, where the node takes leave: nothing to call off yet, a farewell.
        elif (
            not request.filled_slots
            and intent is not None
            and intent != "goodbye"
            and "goodbye" in request.scenario.index.node(request.node.id).own_intents
            and intent == _withdrawal_target(request, index)
            and _leave_taking(request, index, utterance) >= KEYWORD_SCORE
        ):
            intent = "goodbye"
        # "Nope, nothing else" to an optional question is a no, not its text.
        nothing = says_nothing(text, request.scenario.language)
        # To a free note ("any requests?") a whole answer that declines ("I'll pass",
        # "特にないです、大丈夫です", "패스할게요") turns down the note, not the booking: no
        # yes for its "fine", no withdrawal for its "pass".
        declines_note = (
            nothing
            and _asks_free_text(request)
            and (
                intent is None
                or intent in BUILTIN_INTENTS
                or intent == _withdrawal_target(request, index)
            )
        )
        weak = intent in (None, "deny") or confidence <= INTENT_THRESHOLD or declines_note
        if nothing and "deny" in request.intents and weak:
            intent, confidence = "deny", max(confidence, WHOLE_ACT_SCORE)
        # ... unless the node asks for a free note and has no use for a no: then "특별히
        # 없어요" is the note, or the node could never be answered.
        nothing_noted = nothing and _notes_nothing(request)
        if nothing_noted:
            intent, confidence = None, 0.0
        # A withdrawal at a text step ("scrap that, I'm selling the car" when asked for the
        # car) is the scenario's way out, not the text: it outranks whatever the rest of the
        # sentence resembles, but not another of the scenario's intents said by keyword.
        withdrawn = None if declines_note else _withdrawn(request, index)
        if withdrawn is not None:
            if intent == withdrawn:
                confidence = max(confidence, KEYWORD_SCORE)
            elif intent is None or intent in BUILTIN_INTENTS or confidence < KEYWORD_SCORE:
                intent, confidence = withdrawn, KEYWORD_SCORE
            else:
                withdrawn = None
        nothing_noted = nothing_noted and withdrawn is None
        if withdrawn is None and _withdrawal_in_passing(request, index, utterance, intent):
            intent, confidence = None, 0.0
        # A hesitation alone has not answered yet, whatever its words resemble; only an
        # intent the scenario declares for it by keyword stands.
        hesitating = only_hesitates(text, request.scenario.language)
        if hesitating and (intent in BUILTIN_INTENTS or confidence < KEYWORD_SCORE):
            intent, confidence = None, 0.0
        # Said aside ("잠깐만요, 택배 왔어요", "one sec, my kettle's whistling"), a remark asks
        # nothing: the question intent its words resemble is not what it means.
        aside = not question and is_aside(text, request.scenario.language)
        if (
            aside
            and intent is not None
            and only_asks(request.intents.get(intent), request.scenario.language)
        ):
            intent, confidence = None, 0.0
        if confidence <= INTENT_THRESHOLD:
            intent = None
        # A question intent heard only by resemblance ("Could one of your teachers work with
        # my son?" resembles "who are your teachers?") yields to a request to act.
        resembled = (
            intent is not None
            and confidence < KEYWORD_SCORE
            and only_asks(request.intents.get(intent), request.scenario.language)
        )
        offered = (
            index.offered_action(request.node.id)
            if intent is None or resembled or (greeted is not None and intent == "greet")
            else None
        )
        if offered is not None and _asks_for_the_offer(request, greeted or text):
            # "Could you set that up for us?" at a greeting that offers one thing to do.
            intent, confidence = offered, REQUEST_SCORE
        not_an_answer = (
            question
            or aside
            or hesitating
            or (nothing and not nothing_noted)
            or withdrawn is not None
            or (act is not None and act.whole and not nothing_noted)
            or (intent in CONTROL_INTENTS and confidence >= 0.8)
            or (intent in SOCIAL_INTENTS and confidence >= 0.8 and len(text.split()) <= 3)
        )
        # A correction is read for what it says instead: "신용카드 말고 체크카드요".
        corrected = None if nothing else correction(text, request.scenario.language)
        content = without_restarts(text if corrected is None else corrected)
        entities = {}
        frame = Frame.of(request.user)
        language = request.scenario.language
        shared = counted_slots(request.slots) if shares_numbers(request.slots) else {}
        changers = request.scenario.index.changers
        renamed_after_no = False
        counts = _counts(text, content, shared, request.expected_slot, language)
        for name, slot in request.slots.items():
            # The slot's own change intent may come with the new value: "the address is
            # wrong, it should be 15 Willow Court".
            changing = (
                intent is None
                or (intent == "deny" and meant_part(text, language) is not None)
                or (intent in changers.get(name, ()) and request.filled_slots.get(name) is not None)
            )
            accepted = changing and (
                _accepted_by_pattern(request, name, slot) or _renamed(request, name, slot, text)
            )
            said = content
            if intent == "deny" and not accepted:
                # "No, the address is wrong, it should be 15 Willow Court": the new value in
                # a frame after the clause that names the slot.
                said = _said_after_naming(request, name, slot, content) or content
                accepted = said is not content
                renamed_after_no = renamed_after_no or accepted
            expected = (
                name == request.expected_slot
                or accepted
                or _replaced_value(request, name, text, content)
            )
            if expected and slot.type == "text" and not_an_answer:
                continue
            if name in shared:
                value = validate(slot, counts[name]) if name in counts else INVALID
            else:
                value = _extract_not_own(request, name, slot, said, expected, frame)
                value = _held_weekday(request, name, slot, text, value)
                if expected and corrected is not None:
                    value = _completed(request, name, slot, text, value, frame)
                if name == request.expected_slot and _counts_everyone(slot):
                    summed = people_of_kinds(content, language)
                    value = value if summed is None else validate(slot, summed)
            if value is not INVALID:
                entities[name] = value
        entities.update(_ranges(request, content, frame))
        _drop_refused_text(request, entities)
        # A no said apart answers a yes/no question, whatever reason follows it ("No, we're
        # taking the train, so we're fine").
        asked = _asked_slot(request)
        said_no = declines or (act is not None and act.act == "deny" and said_apart(text))
        if asked is not None and asked.type == "boolean" and intent == "deny" and said_no:
            entities.setdefault(request.expected_slot or "", False)
        changer = _changer(request, text, intent, confidence, entities)
        if changer is not None:
            intent, confidence = changer, max(confidence, KEYWORD_SCORE)
        # A no that names a new value is a correction; a no that answers a yes/no slot is not.
        corrects = renamed_after_no or (
            corrected is not None and any(not isinstance(v, bool) for v in entities.values())
        )
        # "The address is wrong, it should be 15 Willow Court": the intent that would clear
        # the slot to ask it again is not wanted when the new value is already said.
        if intent is not None and any(
            intent in changers.get(name, ()) and request.filled_slots.get(name) not in (None, value)
            for name, value in entities.items()
            if not isinstance(value, bool)
        ):
            intent, corrects = None, True
        # A yes that goes on to change a value ("네 근데 시간은 4시로 해 주세요", "yes, but
        # make it 4 pm") changes it: the read-back is not confirmed with the old value.
        if intent == "affirm" and act is not None and act.act == "affirm" and not act.whole:
            corrects = corrects or _changes_filled(request, entities)
        # A weak resemblance to an example is no intent when the utterance corrects a value:
        # "신용카드 말고 체크카드로" shares its card words with "체크카드랑 신용카드 차이가 뭐예요".
        if corrects and (intent in ("deny", "affirm") or confidence < KEYWORD_SCORE):
            intent, confidence = None, 0.0
        # Nor when an answer that asks nothing resembles a question: "a deep clean please"
        # gives the service asked for, though "how much do you charge for a deep clean?" is
        # the price question's example; nor when a question offers the value asked for and
        # only names a question's topic ("아침엔 애들 등원시켜야 해서요, 열한 시 반쯤 괜찮을까요?"
        # names the morning of the hours question).
        if (
            confidence < KEYWORD_SCORE
            and (not question or confidence <= TOPIC_SCORE)
            and request.expected_slot in entities
            and only_asks(request.intents.get(intent or ""), language)
        ):
            intent, confidence = None, 0.0
        # "どれが自分に合ってるのかさっぱりで": a "fits" wondered about is no yes.
        if intent in (None, "affirm") and _unsure_which(request, text, entities):
            intent, confidence = HELP, TOPIC_SCORE
        return NLUResult(
            intent=intent,
            entities=entities,
            confidence=round(
                confidence
                if intent
                else _values_confidence(_answering(request, entities), text, language),
                3,
            ),
            dialogue_act="correct"
            if corrects
            else self._dialogue_act(question, intent, bool(entities)),
            source="rules",
        )

    def _best(
        self, request: NLURequest, index: RuleIndex, utterance: Utterance, *, asking: bool
    ) -> tuple[str | None, float]:
        """The best-scoring intent and its score. On the scenario's own intents the answer
        depends only on the node and the text, so the index remembers it: short answers
        ("네", "응", "아니요") come back in every session."""
        key = (request.node.id, utterance.text)
        own = (
            len(utterance.text) <= BEST_TEXT_CHARS
            and request.intents is index.intents
            and request.scenario.has_node(request.node.id)
            and index.rememberable(request.node.id)
        )
        known = index.best.get(key) if own else None
        if known is not None:
            return known
        intent, confidence = None, 0.0
        declared: tuple[str | None, float] = (None, 0.0)
        for name, matcher in self._matchers(request, index):
            # A question is no action, and no "no" for the negation it holds ("주말엔 안
            # 하세요?", "can't I pay by card?"); a no said apart before it is read above.
            if asking and matcher.action and name not in ANSWERED_BY_QUESTIONS | {"deny"}:
                continue
            score = matcher.score(utterance)
            if asking and name == "deny" and score < ASKED_DENY_SCORE:
                continue
            if score > confidence:
                intent, confidence = name, score
            if name not in BUILTIN_INTENTS and score > declared[1]:
                declared = (name, score)
        # A leave-taking that also says one of the scenario's own intents by keyword ("다음에
        # 할게요, 신청 안 할래요") is that intent: the scenario declared what it means here.
        if intent in LEAVE_TAKING and declared[1] >= KEYWORD_SCORE:
            intent, confidence = declared
        if confidence <= INTENT_THRESHOLD and asking and request.intents is index.intents:
            # A question said in other words still names the thing it asks about.
            topic = asked_topic(utterance.text, index.topics, index.candidates(request.node.id))
            if topic is not None:
                intent, confidence = topic, TOPIC_SCORE
        if own:
            index.remember(key, (intent, confidence))
        return intent, confidence

    @staticmethod
    def _matchers(request: NLURequest, index: RuleIndex) -> list[tuple[str, IntentMatcher]]:
        """The intents worth scoring for this request, prepared once per scenario.

        Of the scenario's intents only those the node can use count; an intent a caller
        passes that the scenario does not know is prepared here and scored too.
        """
        known = request.scenario.has_node(request.node.id)
        names: Iterable[str]
        if known and request.intents is index.intents:
            names = index.candidates(request.node.id)
        else:
            usable = set(index.candidates(request.node.id)) if known else None
            names = [
                n
                for n in request.intents
                if usable is None or n in usable or n not in index.intents
            ]
        return [(name, _matcher(index, name, request.intents[name])) for name in names]

    @staticmethod
    def _dialogue_act(question: bool, intent: str | None, has_entities: bool) -> str:
        if intent in DIALOGUE_ACTS:
            return DIALOGUE_ACTS[intent]
        if question:
            return "question"
        return "inform" if has_entities or intent else "statement"


def _counts(
    text: str, content: str, shared: dict[str, Slot], expected: str | None, language: str
) -> dict[str, int | float]:
    """The counted slots' values: those of a correction's new part win over the whole
    utterance's ("2 adults, no wait 3 adults"), and the whole utterance still counts what
    the correction part drops ("no kids" is a zero, not a no followed by "kids")."""
    if not shared:
        return {}
    said = read_counts(text, shared, expected, language)
    if content == text:
        return said
    corrected = read_counts(content, shared, expected, language)
    if not corrected and len(said) == 1:
        # "not 2 nights, 3": the bare new number replaces the count the rejected part named.
        corrected = read_counts(content, shared, next(iter(said)), language)
    return {**said, **corrected}


def _ranges(request: NLURequest, text: str, frame: Frame) -> dict[str, Any]:
    """A date range said in one breath: its start for a date slot, and its end
    (``range_end``) and length (``range_length``) where the slot declares them; a value moved
    from one date to another ("change it from Thursday to Friday") is no range."""
    language = request.scenario.language
    found: dict[str, Any] = {}
    for name, slot in request.slots.items():
        if slot.type != "date":
            continue
        if meant_part(text, language) is not None:
            continue
        span = read_range(text, frame, date_period(slot, name), language)
        if span is None:
            continue
        start, end = span
        found[name] = start.isoformat()
        end_slot = request.slots.get(slot.range_end or "")
        if end_slot is not None and end_slot.type == "date":
            found[slot.range_end or ""] = end.isoformat()
        length_slot = request.slots.get(slot.range_length or "")
        if length_slot is not None:
            length = in_slot_unit(Quantity(nights(start, end), 0, 0, 0, "day"), length_slot)
            if length is not None and validate(length_slot, exact(length)) is not INVALID:
                found[slot.range_length or ""] = exact(length)
    return {k: v for k, v in found.items() if validate(request.slots[k], v) is not INVALID}


def _counts_everyone(slot: Slot) -> bool:
    """Whether a number slot counts people of every kind (a party size, not its adults)."""
    return slot.type in {"integer", "number"} and counts_people(slot) and not slot.nouns


def _completed(
    request: NLURequest, name: str, slot: Slot, text: str, said: Any, frame: Frame
) -> Any:
    """A correction's value, completed from what it corrects where the new part is only a
    piece of it: "5월 17일, 아 아니 18일" is May 18th, "午後の2時…いや、3時" is 3 pm, and
    "来週の火曜日…あ、違う、水曜日" next week's Wednesday."""
    language = request.scenario.language
    if slot.type == "date" and names_its_week(correction(text, language) or ""):
        return said  # "再来週…いや、来週の土曜日": the new part is whole
    for reading in corrected_in_place(text, language):
        fuller = _extract_not_own(request, name, slot, reading, True, frame)
        if fuller is not INVALID and (said is INVALID or _refines(slot, said, fuller)):
            return fuller
    return said


_WHOLE_PHONE: Final = 10
"""Digits of a whole national phone number: a new part that has them is no piece."""


def _refines(slot: Slot, said: Any, fuller: Any) -> bool:
    """Whether ``fuller`` says what ``said`` says and more: the same clock time with its
    half of the day, the same weekday or day of the month in its week or month, the new
    digits of a phone number, too few for a whole one, within the whole number."""
    if said == fuller or not isinstance(said, str) or not isinstance(fuller, str):
        return False
    if slot.type == "phone":
        digits, whole = re.sub(r"\D", "", said), re.sub(r"\D", "", fuller)
        return len(digits) < _WHOLE_PHONE <= len(whole) and digits[:4] in whole
    if slot.type == "time":
        (h1, m1), (h2, m2) = (map(int, v.split(":")[:2]) for v in (said, fuller))
        return m1 == m2 and h1 % 12 == h2 % 12
    if slot.type == "date":
        first, second = date.fromisoformat(said), date.fromisoformat(fuller)
        return first.weekday() == second.weekday() or first.day == second.day
    return False


def _extract_not_own(
    request: NLURequest, name: str, slot: Slot, text: str, expected: bool, frame: Frame
) -> Any:
    """The slot's value, reading past phrases that cannot be it: the FDC's own call sign in
    "Hammer 6, Eagle 2-4", the speaker's "저는" in "저는 박서준이에요", the label in "성함요?
    김철수요"."""
    value = extract(slot, text, expected=expected, frame=frame, name=name)
    if not is_identifier(name, slot):
        return value
    language = request.scenario.language
    own = own_phrases(request.scenario.document.prompts.bot, (request.filled_slots,), name)
    labels = slot_labels(name, slot, language)
    for _attempt in range(2):
        if value is INVALID or not isinstance(value, str):
            return value
        label = label_in(value, labels)
        if label is not None:
            # Read what follows the label: "성함요? 김철수요", "집 주소 서울시 …".
            text = text[text.lower().index(label) + len(label) :]
            text = _PARTICLE.sub("", _UNDER_LABEL.sub("", text))
            if not text.strip():
                return INVALID
        elif is_own_value(value, own) or is_self_reference(value, language):
            if value.lower() not in text.lower():
                # The value was read from numbers said in words ("Hammer six").
                text = words_as_digits(text)
            rest = re.sub(re.escape(value), " ", text, count=1, flags=re.IGNORECASE)
            text = rest.lstrip(" ,.;:-")
        else:
            return value
        value = extract(slot, text, expected=expected, frame=frame, name=name)
    return INVALID
