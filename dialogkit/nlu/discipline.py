"""The right slot or none: whether a value understood in an utterance may be written.

Extraction says what an utterance *contains*; this module says whether it is an *answer*.
A re-ask costs one turn, a wrong value read back costs the user's trust, so a value is
refused when:

- the utterance is a question: it fills no free-text slot, and no slot the node did not ask
  for (except an enum value, which is said on purpose: "신용카드로 바꿀 수 있나요?");
- a name, an address or another identifier is a remark about the slot itself: it contains
  the slot's own label word ("이름 꼭 말해야 돼요?" is not a name; a label in front of a value
  is dropped: "주소 부산시 …");
- an identifier is the bot's own (the persona's call sign, a value held in the context or in
  another slot): "Hammer 6, this is Eagle 2-4" gives the observer's call sign, not Hammer 6;
  nor is it the speaker's word for themself ("저는", "I"), nor an interjection ("あ、…");
- the value is implausible for its kind (``dialogkit.nlu.plausible``, shared with the value
  extractors): a birth date not in the past or more than 130 years ago, a phone number of
  the wrong length for its kind; or an address with neither a number nor two place units
  ("회사로 보내 주세요").

The functions are pure: the engine applies them to every provider's entities.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from typing import Any, Final

from dialogkit.nlu.acts import OPENERS
from dialogkit.nlu.plausible import is_birth_date, plausible_birth_date, plausible_phone
from dialogkit.scenario.model import Slot

SLOT_LABELS: Final[dict[str, tuple[str, ...]]] = {
    "name": ("이름", "성함", "名前", "氏名", "name"),
    "address": ("주소", "배송지", "住所", "address"),
    "phone": ("전화번호", "휴대폰 번호", "연락처", "電話番号", "phone number"),
    "email": ("이메일", "メール", "email"),
    "birth": ("생년월일", "생일", "誕生日", "生年月日", "birthday", "date of birth"),
    "callsign": ("호출부호", "콜사인", "コールサイン", "call sign", "callsign"),
}
"""Label words by the name parts of a slot (``birth_date`` -> birth, ``observer_callsign`` ->
callsign): a value that contains one is talking about the slot, not filling it."""

SELF_REFERENCES: Final = frozenset(
    {
        "저",
        "저는",
        "전",
        "제가",
        "제",
        "나",
        "나는",
        "난",
        "내가",
        "저요",
        "i",
        "me",
        "my",
        "i m",
        "私",
        "僕",
        "わたし",
        "ぼく",
        "俺",
    }
)
"""Words a speaker uses for themself: never a name or an identifier."""

_META = re.compile(
    r"말해야|말씀해야|말씀드려야|알려\s*(?:줘|주)야|말하기\s*싫|알려\s*주기\s*싫|싫어|싫은데|"
    r"왜\s|꼭\s|필요해|필요한가|모르겠|안\s*알려|do i have to|why|must i|言わないと|必要ですか"
)
"""A remark about giving the value ("이름 꼭 말해야 돼요", "주소는 왜요")."""

_ADDRESS_UNIT = re.compile(
    r"[가-힣]+(?:시|도|구|군|동|읍|면|리|로|길)(?:\s|$)|[都道府県市区町村]|丁目|番地|\b(?:street|st|avenue|ave|road|rd)\b",
    re.IGNORECASE,
)

_WORD = re.compile(r"[a-z]+|[^\W\d_a-z]+", re.IGNORECASE)
_SPACES = re.compile(r"[\s\-_.,]+")


def slot_labels(name: str) -> tuple[str, ...]:
    """The label words of a slot, from the parts of its name."""
    parts = set(name.lower().replace("call_sign", "callsign").split("_"))
    return tuple(label for part in sorted(parts) for label in SLOT_LABELS.get(part, ()))


def label_in(value: str, labels: Iterable[str]) -> str | None:
    """The first label said in ``value`` (a Latin label as a whole word: "name" is not in
    "Anamelia")."""
    lowered = value.lower()
    for label in labels:
        if label.isascii():
            if re.search(rf"(?<![a-z]){re.escape(label)}(?![a-z])", lowered):
                return label
        elif label in lowered:
            return label
    return None


def is_identifier(slot: Slot) -> bool:
    """A slot whose value names something (a pattern value, a text slot read by a pattern)."""
    return slot.type == "pattern" or (slot.type == "text" and bool(slot.pattern))


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


def is_self_reference(value: Any) -> bool:
    """Whether ``value`` is a word the speaker uses for themself ("저는", "I")."""
    return isinstance(value, str) and _squash(value) in SELF_REFERENCES


def plausible_address(value: str) -> bool:
    """An address has a number or at least two place units ("서울시 강남구 역삼동"): "회사로
    보내 주세요" is a request, not an address."""
    return bool(re.search(r"\d", value)) or len(_ADDRESS_UNIT.findall(value)) >= 2


def _without_label(value: str, labels: tuple[str, ...]) -> str | None:
    """The value once a leading label is dropped ("주소 서울시 강남구..." -> "서울시 강남구..."),
    or None when the value talks about the slot ("이름", "이름 말하기 싫어요")."""
    if label_in(value, labels) is None:
        return value
    for label in labels:
        match = re.match(
            rf"^\s*(?:[가-힣]{{1,3}}\s+|my\s+|the\s+)?{re.escape(label)}"
            rf"(?:은|는|이|가|을|를|요|:|\s+is)?[\s?？:,.]*",
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
) -> Any:
    """The value to write to slot ``name``, or None when it must not be written (see the
    module docstring).

    ``asked`` is whether the node asks for this slot now; ``question`` whether the utterance
    is a question; ``own`` the phrases the bot holds for itself.
    """
    if question and (slot.type == "text" or (not asked and slot.type != "enum")):
        return None
    labels = slot_labels(name)
    if isinstance(value, str) and slot.type in {"text", "pattern"}:
        kept = _without_label(value, labels)
        if kept is None or (kept != value and _META.search(value.lower())):
            return None
        value = kept
        if is_identifier(slot) and (
            is_own_value(value, own) or is_self_reference(value) or _is_interjection(value)
        ):
            return None
        if "주소" in labels and not plausible_address(value):
            return None
    if slot.type == "phone" and not _plausible_phone(str(value)):
        return None
    if slot.type == "date" and is_birth_date(name, slot.description):
        born = _as_date(value)
        if born is None or not plausible_birth_date(born, today or date.today()):
            return None
    return value


def _is_interjection(value: str) -> bool:
    return value.strip(" 、,。.!！ー〜っ").lower() in OPENERS


def _plausible_phone(value: str) -> bool:
    return plausible_phone(re.sub(r"\D", "", value), value.lstrip().startswith("+"))


def _as_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None
