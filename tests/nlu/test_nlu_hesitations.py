"""Hesitations before a name, particles glued inside a keyword and self-corrections inside
one answer: what real answers add around the words an author declared (found by natural
cases written from the registered scenarios alone)."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import corrected_in_place, correction
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._entities import INVALID, extract_text
from dialogkit.nlu._morphology import keyword_in, normalize
from dialogkit.nlu._rules import RuleNLU
from dialogkit.scenario.model import Intent, Slot
from tests.helpers import make_graph

AUTHORED_NAME = Slot(
    type="text",
    kind="person_name",
    pattern=r"^\s*(?:(?:네|예)[,.\s]+)?(?:이름은)?\s*(?P<value>[가-힣]{2,5}?)(?=\s*(?:입니다|요|\s|$))",
)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("아 네, 저는 최지우라고 합니다", "최지우"),
        ("음... 김민수입니다", "김민수"),
        ("um, it's Alex Park", "Alex Park"),
        ("えっと、山口です", "山口"),
    ],
)
def test_a_name_after_a_hesitation_is_the_name(text: str, name: str) -> None:
    assert extract_text(Slot(type="text", kind="person_name"), text, "name") == name


def test_the_packs_frames_read_a_name_an_authored_pattern_did_not_foresee() -> None:
    assert extract_text(AUTHORED_NAME, "아 네, 저는 최지우라고 합니다", "name") == "최지우"
    assert extract_text(AUTHORED_NAME, "이서연요", "name") == "이서연"


def test_a_pattern_slot_that_is_no_name_keeps_its_pattern() -> None:
    slot = Slot(type="text", pattern=r"(?P<value>\d{3})")
    assert extract_text(slot, "아 네, 123", "code") == "123"
    assert extract_text(slot, "아 네", "code") is INVALID


@pytest.mark.parametrize(
    ("keyword", "text"),
    [
        ("언제 시작", "이가 시린 건 언제쯤 시작됐나요"),
        ("자극 없", "아무 자극이 없을 때도 아프세요"),
        ("밥 먹었", "밥은 먹었어"),
    ],
)
def test_a_korean_keyword_word_may_carry_a_particle(keyword: str, text: str) -> None:
    assert keyword_in(normalize(text), normalize(keyword))


def test_a_glued_particle_does_not_lift_a_negation() -> None:
    assert not keyword_in(normalize("밥은 안 먹었어"), normalize("밥 먹었"))


@pytest.mark.parametrize(
    ("text", "new"),
    [
        ("체크카드요, 아 아니다 신용카드로 할게요", "신용카드로 할게요"),
        ("1990년 5월 17일이요, 아 잠깐만요 18일이에요", "18일이에요"),
    ],
)
def test_a_korean_self_correction_says_what_wins(text: str, new: str) -> None:
    assert correction(text, "ko") == new


def test_a_correction_that_names_a_piece_replaces_the_last_word_before_it() -> None:
    said = "1990년 5월 17일이요, 아 잠깐만요 18일이에요"
    assert corrected_in_place(said, "ko") == "1990년 5월 18일이에요"
    assert corrected_in_place("1990년 5월 17일이요", "ko") is None


def test_a_date_corrected_by_its_day_keeps_its_year_and_month() -> None:
    slots = {"birth_date": Slot(type="date", kind="birth_date")}
    node = {"id": "n", "description": "N.", "terminal": True}
    graph = Scenario.from_dict(
        make_graph(
            [node],
            language="ko",
            slots={name: slot.model_dump(exclude_none=True) for name, slot in slots.items()},
        )
    )
    request = NLURequest(
        scenario=graph,
        node=graph.nodes[0],
        text="1990년 5월 17일이요, 아 잠깐만요 18일이에요",
        intents=dict(BUILTIN_INTENTS),
        slots=slots,
        expected_slot="birth_date",
        filled_slots={},
    )
    assert RuleNLU().analyse(request).entities == {"birth_date": "1990-05-18"}


def test_a_day_after_a_hesitation_is_no_name() -> None:
    name = Slot(type="text", kind="person_name")
    assert (
        extract_text(name, "あの、やっぱり明後日でお願いします", "guest_name") != "やっぱり明後日"
    )
    assert extract_text(name, "あ、あさみです", "guest_name") == "あさみ"


def test_a_correction_is_not_an_intent_its_value_words_resemble() -> None:
    slots = {"card": Slot(type="enum", values=["체크카드", "신용카드"])}
    info = Intent(description="Asks.", examples=["체크카드랑 신용카드 차이가 뭐예요"])
    graph = Scenario.from_dict(
        make_graph(
            [{"id": "n", "description": "N.", "terminal": True}],
            language="ko",
            slots={name: slot.model_dump(exclude_none=True) for name, slot in slots.items()},
        )
    )
    request = NLURequest(
        scenario=graph,
        node=graph.nodes[0],
        text="신용카드 말고 체크카드로 해 주세요",
        intents={"card_info": info, **BUILTIN_INTENTS},
        slots=slots,
        expected_slot="card",
        filled_slots={},
    )
    result = RuleNLU().analyse(request)
    assert (result.intent, result.entities) == (None, {"card": "체크카드"})
