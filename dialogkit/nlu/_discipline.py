"""The right slot or none: whether a value understood in an utterance may be written.

Extraction says what an utterance *contains*; this module says whether it is an *answer*.
A re-ask costs one turn, a wrong value read back costs the user's trust, so a value is
refused when:

- the utterance asks about something ("how much is the suite?", "토요일에도 여나요?"): a
  question is never an action, so it fills no slot; a request worded as a question
  ("신용카드로 바꿀 수 있나요?", "could you make it 8?") is an answer, not a question;
- a name, an address or another identifier is a remark about the slot itself: it contains
  one of the words that name the slot (its declared ``nouns`` and its kind's label words in
  the language packs) ("이름 꼭 말해야 돼요?" is not a name; a label in front of a value
  is dropped: "주소 부산시 …");
- an identifier is the bot's own (a phrase of its persona, a value held in the context or in
  another slot) or the speaker's word for themself ("저는", "I"); no text value is only an
  interjection ("あ、…", "um", "そうですね"): a hesitation is not yet the answer, nor is an
  apology, a discourse marker ("on second thought") or a courtesy ("thanks"); a person's
  name is no clause and no person named by relation ("my wife", "우리 애요", "主人です");
- the value is implausible for its kind (``dialogkit.nlu._plausible``, shared with the value
  extractors) by the slot's kind (``dialogkit.nlu._kinds``): a birth date not in the past or
  more than 130 years ago, a phone number of the wrong length; or an address with neither a
  number nor two place units ("회사로 보내 주세요").

The functions are pure: the engine applies them to every provider's entities.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from functools import lru_cache
from typing import Any, Final

from dialogkit.nlu._acts import clauses_of, correction, is_meta_remark, is_negated, opener_words
from dialogkit.nlu._kinds import counts_people, is_identifier, slot_kind, slot_labels
from dialogkit.nlu._morphology import normalize
from dialogkit.nlu._numbers import find_quantities
from dialogkit.nlu._plausible import plausible_birth_date, plausible_phone
from dialogkit.nlu._words import nouns_pattern
from dialogkit.nlu.lang import change_hints, pattern, words
from dialogkit.scenario.model import Slot

_WORD = re.compile(r"[a-z]+|[^\W\d_a-z]+", re.IGNORECASE)
_SPACES = re.compile(r"[\s\-_.,]+")


def label_in(value: str, labels: Iterable[str]) -> str | None:
    """The first label said in ``value`` as a word of its own ("name" is not in "Anamelia",
    "名" is not in "名前")."""
    lowered = value.lower()
    for label in labels:
        if nouns_pattern((label.lower(),)).search(lowered):
            return label
    return None


def _label_span(text: str, labels: Iterable[str]) -> tuple[int, int] | None:
    """Where the longest label said in ``text`` as a word of its own is."""
    said = nouns_pattern(tuple(label.lower() for label in labels))
    spans = [match.span() for match in said.finditer(text.lower())]
    return max(spans, key=lambda span: span[1] - span[0], default=None)


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text.lower()).strip()


def is_own_value(value: Any, own: Iterable[str]) -> bool:
    """Whether ``value`` is a phrase the bot already holds for itself (its persona, context,
    other slots), compared without case and punctuation, as whole words."""
    if not isinstance(value, str) or not value.strip():
        return False
    needle = _squash(value)
    pattern = re.compile(rf"(?<!\w){re.escape(needle)}(?!\w)")
    return any(pattern.search(_squash(text)) for text in own if text)


def own_phrases(persona: str, held: Iterable[Mapping[str, Any]], slot: str = "") -> tuple[str, ...]:
    """What the bot holds for itself when ``slot`` is being filled: its persona, and every
    value with letters held in ``held`` (the context, the slots) under another key. The one
    definition the NLU and the turn share (numbers are never compared: "2" is not owned)."""
    values = (
        value
        for mapping in held
        for key, value in mapping.items()
        if key != slot and isinstance(value, str) and re.search(r"[^\W\d_]", value)
    )
    return (persona, *values)


_CLOCK: Final = re.compile(r"(\d{2}):(\d{2})")


def says_again(held: Any, heard: Any) -> bool:
    """Whether ``heard`` is the value ``held`` said again: the same, or an hour said without
    its half of the day (03:00 heard for 15:00: "네, 3시 맞아요")."""
    if heard == held:
        return True
    first, second = _CLOCK.fullmatch(str(held)), _CLOCK.fullmatch(str(heard))
    if first is None or second is None or first.group(2) != second.group(2):
        return False
    return int(first.group(1)) % 12 == int(second.group(1)) % 12


def said_wrong(
    text: str,
    slots: Mapping[str, Slot],
    language: str = "",
    *,
    changes: bool = False,
    held: Mapping[str, Any] | None = None,
    heard: Mapping[str, Any] | None = None,
    choosing: bool = False,
) -> list[str]:
    """The slots an utterance says are wrong or will not do ("no, the name is wrong", "전화번호가
    틀렸어요", "名前が違います", "I can't make it that weekend"), or with ``changes`` asks to
    change or prefers otherwise ("수거 시간을 좀 바꾸고 싶어요", "名前のところ、修正をお願い
    したい", "좀 더 늦은 오후면 좋겠어요"; not "no need to change the name"): each is to be
    cleared and asked again. A slot is named by its declared nouns or its kind's label words;
    else by its kind's hints (a part of the day for a time, "that weekend" for a date); else
    by saying again the value it ``held``: its option's name ("could we swap out the standard
    option?") or the value it was ``heard`` to hold ("세 시엔 안 되겠네요"). A slot a new
    value was heard for is never named, nor one named with its held value as the value to
    change to ("날짜를 모레로 바꿔 주세요" when that is the date held). At a node that asks
    which value to change (``choosing``), naming one is asking to change it ("苗字のところ
    です", "the phone number one")."""
    if changes and _someone_else(text, language):
        people = [name for name, slot in slots.items() if slot_kind(name, slot) == "person_name"]
        if people:
            return people
    wrong = _says_wrong(text, language)
    if changes and choosing:
        text = _chosen(text, language)
    hints = {
        name: span for name, slot in slots.items() if (span := _hinted(text, name, slot, language))
    }
    if any(counts_people(slots[name]) for name in heard or {} if name in slots):
        # "our son can't come after all, so it's just one child": the news is about the
        # count given its new value, not the adults beside it.
        hints = {name: span for name, span in hints.items() if not counts_people(slots[name])}
    change = (
        bool(text)
        if changes and choosing
        else changes and (_asks_change(text, language) or _joins(text, slots, hints, language))
    )
    if not (wrong or change):
        return []
    held, heard = held or {}, heard or {}
    # A slot a new value was heard for is never named: the value is the change.
    again = {name for name, value in heard.items() if says_again(held.get(name), value)}
    unheard = {name: slot for name, slot in slots.items() if name not in heard}
    unchanged = {name: slot for name, slot in slots.items() if name not in heard or name in again}
    named = [name for name in _named(text, slots, language, [*hints.values()]) if name in unheard]
    if named:
        return named
    # A value said again points at its slot ("그 주말에 … 딴 요일로 옮겨야겠어요"), unless
    # the slot is named with it as the value to change to ("날짜를 모레로 바꿔 주세요") or a
    # new value is what the change asks for ("二人なので、ツインの方がいいですね").
    says_new = len(again) < len(heard)
    referenced = {
        name: heard[name]
        for name in again
        if name in slots
        and (wrong or not (says_new or label_in(text, slot_labels(name, slots[name], language))))
    }
    # "Could we push it to the afternoon?": a part of the day points at the time, before
    # a value said in passing ("Thursday itself is fine, but the afternoon is out").
    hinted = [name for name in hints if name in unheard or name in referenced]
    return hinted or _repeated(text, unchanged, held, referenced, bare_hours=not heard)


def _someone_else(text: str, language: str) -> bool:
    """Whether a correction puts another person in the speaker's place ("受けるのは私じゃなくて
    息子なんです", "No, not me, my husband", "the lesson's for my daughter, not me"): the
    name held is no longer the one, and the new one is not said yet."""
    instead = correction(text, language)
    if instead is not None and is_relation(instead, language):
        return True
    said = normalize(text)
    declined = pattern(language, "not_self", lambda p: p.not_self).search(said)
    if declined is None:
        return False
    rest = f"{said[: declined.start()]} {said[declined.end() :]}"
    return _relation_in(language).search(rest) is not None


def _relation_in(language: str) -> re.Pattern[str]:
    """A person named by relation anywhere in a sentence, as a word of its own in Latin
    script ("my son", not "season")."""
    return pattern(
        language,
        "relation_in",
        lambda p: tuple(rf"(?<![a-z]){part}(?![a-z])" for part in p.relations),
        re.IGNORECASE,
    )


def _hinted(text: str, name: str, slot: Slot, language: str) -> tuple[int, int] | None:
    """Where ``text`` says a word of the slot's kind's ``change_hints``, and for a count of
    people one of someone joining."""
    hints = change_hints(language, slot_kind(name, slot))
    if counts_people(slot):
        hints = (*hints, *change_hints(language, "people"), *change_hints(language, "leaving"))
    return _label_span(text, hints)


def _joins(
    text: str, slots: Mapping[str, Slot], hints: Mapping[str, tuple[int, int]], language: str
) -> bool:
    """Whether ``text`` tells of someone or something joining ("友達がもう一人合流することに
    なって", "사촌 동생도 한 명 같이 오겠대요", "my husband's just found another pair of
    trousers that need doing too") or someone else dropping out ("후배 한 놈이 갑자기 못
    온대요"): news that asks, without a word of change, to change the count it names by its
    hint. A joining clause must not negate itself ("nobody else is coming"); a negation in
    another clause negates something else ("古い自転車も一緒に持ってってほしいの、言い忘れて
    ました"), and forgetting to say it negates nobody's coming ("동생네 부부도 따라붙는다고
    했었는데 깜빡했네요")."""
    if not any(
        counts_people(slots[name]) or slot_kind(name, slots[name]) == "count" for name in hints
    ):
        return False
    joins = (*change_hints(language, "people"), *change_hints(language, "count"))
    forgot = pattern(language, "forgetting", lambda p: p.forgetting)
    joining = any(
        _label_span(said, joins) is not None
        and not is_negated(forgot.sub(" ", normalize(said)), language)
        for said in clauses_of(text)
    )
    return joining or _label_span(text, change_hints(language, "leaving")) is not None


def _named(
    text: str, slots: Mapping[str, Slot], language: str, hints: list[tuple[int, int]]
) -> list[str]:
    """The slots ``text`` names by a noun or label, but for one whose noun lies within
    another's ("lesson" in "the type of lesson") or within a hint (``hints``: "day" in "later
    in the day")."""
    spans = {
        name: span
        for name, slot in slots.items()
        if (span := _label_span(text, slot_labels(name, slot, language))) is not None
    }
    wider = [*spans.values(), *hints]
    return [
        name
        for name, (start, end) in spans.items()
        if not any(
            (other_start, other_end) != (start, end) and other_start <= start and end <= other_end
            for other_start, other_end in wider
        )
    ]


def _repeated(
    text: str,
    slots: Mapping[str, Slot],
    held: Mapping[str, Any],
    heard: Mapping[str, Any],
    *,
    bare_hours: bool,
) -> list[str]:
    """The slots whose held value the utterance says again: the held option named, or one
    of its synonyms ("the standard option", "the haunted one"), the value ``heard`` ("세
    시엔" when 15:00 is held), or with ``bare_hours`` (no value was heard: "change the packs
    to 4" says a count) the held hour said as a bare number ("Seven's cutting it fine" when
    19:00 is held)."""
    return [
        name
        for name, slot in slots.items()
        if held.get(name) is not None
        and (
            (name in heard and says_again(held[name], heard[name]))
            or (
                slot.type == "enum"
                and isinstance(held[name], str)
                and label_in(text, (held[name], *slot.synonyms.get(held[name], ()))) is not None
            )
            or (bare_hours and slot.type == "time" and _says_hour(text, held[name]))
        )
    ]


def _says_hour(text: str, held: Any) -> bool:
    """Whether ``text`` says the hour of the time ``held`` ("HH:MM") as a bare number."""
    if not isinstance(held, str) or not re.fullmatch(r"\d{1,2}:\d{2}", held):
        return False
    hour = int(held.split(":")[0]) % 12 or 12
    return any(
        quantity.value == hour and quantity.dimension in (None, "clock")
        for quantity in find_quantities(text)
    )


def _change_requests(language: str) -> re.Pattern[str]:
    return pattern(language, "change_requests", lambda p: (*p.change_requests, *p.preferences))


def _asks_change(text: str, language: str) -> bool:
    """Whether a clause of ``text`` asks to change or prefers otherwise, and does not negate
    it: "no need to change the name" asks nothing, "젤은 회사에서 못 하게 해서요, 그거 말고 딴
    메뉴로 할 수 있을까요?" gives a reason with a negation and then asks."""
    asks = _change_requests(language)
    return any(
        asks.search(normalize(said)) is not None and not is_negated(said, language)
        for said in clauses_of(text)
    )


def _chosen(text: str, language: str) -> str:
    """What answers "which one should I change?": the clauses of ``text`` that negate
    nothing ("It's the cell, I don't use that one anymore" names the phone in its first);
    nothing when a clause declines to change ("the name's fine, no need to change it").
    The words that say something is wrong are no negation here ("苗字の漢字を間違えてお伝え
    しちゃいました" names the name), as in ``_says_wrong``."""
    wrong = _wrong(language)
    kept = []
    for said in clauses_of(text):
        if not is_negated(wrong.sub(" ", said), language):
            kept.append(said)
        elif _change_requests(language).search(normalize(said)):
            return ""
    return " ".join(kept)


def _wrong(language: str) -> re.Pattern[str]:
    """The pack's words that say something is wrong (compiled once per language)."""
    return pattern(language, "wrong", lambda p: p.wrong)


def _says_wrong(text: str, language: str) -> bool:
    """Whether a clause of ``text`` says something is wrong. A negation elsewhere in that
    clause takes it back ("nothing's wrong with the name", "名前は間違っていません"); one
    inside the words that say it is how it is said ("isn't right"), and a no before it
    answers ("no, the name is wrong")."""
    wrong = _wrong(language)
    for said in clauses_of(text):
        rest = wrong.sub(" ", said)
        if rest != said and not is_negated(rest, language):
            return True
    return False


def is_self_reference(value: Any, language: str = "") -> bool:
    """Whether ``value`` is a word the speaker uses for themself ("저는", "I")."""
    return isinstance(value, str) and _squash(value) in words(language, lambda p: p.self_words)


def plausible_address(value: str, language: str = "") -> bool:
    """An address has a number or at least two place units ("서울시 강남구 역삼동"): "회사로
    보내 주세요" is a request, not an address."""
    units = pattern(language, "place_units", lambda p: p.place_units, re.IGNORECASE)
    return bool(re.search(r"\d", value)) or len(units.findall(value)) >= 2


def _without_label(value: str, labels: tuple[str, ...]) -> str | None:
    """The value once a leading label is dropped ("주소 서울시 강남구..." -> "서울시 강남구..."),
    or None when the value talks about the slot ("이름", "이름 말하기 싫어요")."""
    if label_in(value, labels) is None:
        return value
    for label in labels:
        match = re.match(
            rf"^\s*(?:[가-힣]{{1,3}}\s+|my\s+|the\s+)?{re.escape(label)}"
            rf"(?::|\s+is|\s*['’]s|(?:은|는|이|가|을|를)요?|요)?[\s?？:,.]*",
            value,
            re.IGNORECASE,
        )
        if match is None:
            continue
        rest = value[match.end() :].strip()
        if _WORD.search(rest) and label_in(rest, labels) is None:
            return rest
    return None


def admit(
    name: str,
    slot: Slot,
    value: Any,
    *,
    question: bool,
    asked: bool,
    own: Iterable[str] = (),
    today: date | None = None,
    language: str = "",
) -> Any:
    """The value to write to slot ``name``, or None when it must not be written (see the
    module docstring).

    ``asked`` is whether the node asks for this slot now; ``question`` whether the utterance
    asks about something (a request worded as a question is not one: see
    ``acts.is_request``); ``own`` the phrases the bot holds for itself.
    """
    if question:
        return None
    kind = slot_kind(name, slot)
    labels = slot_labels(name, slot, language)
    if isinstance(value, str) and slot.type in {"text", "pattern"}:
        kept = _without_label(value, labels)
        if kept is None or (kept != value and is_meta_remark(value, language)):
            return None
        value = kept
        if is_interjection(value, language):
            return None
        if is_identifier(name, slot) and (
            is_own_value(value, own) or is_self_reference(value, language)
        ):
            return None
        if kind == "address" and not plausible_address(value, language):
            return None
        if kind == "person_name" and (
            _holds_number(value) or is_clause(value, language) or is_relation(value, language)
        ):
            return None
    if kind == "phone" and not _plausible_phone(str(value)):
        return None
    if slot.type == "date" and kind == "birth_date":
        born = _as_date(value)
        if born is None or not plausible_birth_date(born, today or date.today()):
            return None
    return value


def is_relation(value: str, language: str = "") -> bool:
    """Whether a value names a person by relation ("my wife", "우리 애요", "主人です"), which
    no person's name does."""
    relations = pattern(language, "relations", lambda p: p.relations, re.IGNORECASE)
    return relations.fullmatch(normalize(value).strip()) is not None


def is_clause(value: str, language: str = "") -> bool:
    """Whether a value is a clause ("I watched TV for long", "화분에 물을 줬어요"): a
    person's name never is."""
    marks = pattern(language, "clause_marks", lambda p: p.clause_marks, re.IGNORECASE)
    return marks.search(value.strip()) is not None


def is_interjection(value: str, language: str = "") -> bool:
    """Whether ``value`` is only a hesitation, drawn out or not ("あっ", "んー", "hmm..."), an
    apology ("ごめんなさい", "sorry"), a discourse marker ("on second thought") or a
    courtesy ("thanks", "감사합니다"; "Maria Gonzalez, thanks" names no "thanks")."""
    said = value.strip(" 、,。.!！〜…").lower()
    interjections = _interjections(language)
    return said in interjections or said.strip("ー〜っ") in interjections


@lru_cache(maxsize=64)
def _interjections(language: str) -> frozenset[str]:
    """The packs' hesitations, apologies, discourse markers and courtesies (their examples
    of thanks and greetings), merged once per language (a text value of every turn is
    checked against them)."""
    return frozenset(
        (
            *opener_words(language),
            *words(language, lambda p: p.apologies),
            *words(language, lambda p: p.discourse_markers),
            *(e.lower() for e in words(language, lambda p: p.intents.get("thanks", ((),))[0])),
            *(e.lower() for e in words(language, lambda p: p.intents.get("greet", ((),))[0])),
        )
    )


def _holds_number(value: str) -> bool:
    """A person's name holds no number: "five days" at a read-back is a duration, not a
    name (numbers in Han or Hangul are read only with a counter, so "一郎" stays a name)."""
    return bool(re.search(r"\d", value)) or (value.isascii() and bool(find_quantities(value)))


def _plausible_phone(value: str) -> bool:
    return plausible_phone(re.sub(r"\D", "", value), value.lstrip().startswith("+"))


def _as_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None
