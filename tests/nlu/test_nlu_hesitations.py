"""Hesitations before a name, particles glued inside a keyword and self-corrections inside
one answer: what real answers add around the words an author declared (found by natural
cases written from the registered scenarios alone)."""

from __future__ import annotations

from typing import Any

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


@pytest.mark.parametrize(
    ("language", "said", "nearest", "meant"),
    [
        ("ko", "1990년 5월 17일이요, 아 잠깐만요 18일이에요", "1990년 5월 18일이에요", None),
        ("ko", "공일공 구팔칠육, 어 아니 구팔칠오", "공일공 구팔칠오", None),
        ("ja", "午後の2時…いや、3時です", "午後の23時です", "午後の3時です"),
    ],
)
def test_a_correction_that_names_a_piece_replaces_the_end_before_it(
    language: str, said: str, nearest: str, meant: str | None
) -> None:
    """Nearest cut first; in kana and kanji a word may end anywhere, and a hesitation
    before the announcement ("어") is no part of what it corrects."""
    readings = corrected_in_place(said, language)
    assert readings[0] == nearest
    assert meant is None or meant in readings
    assert corrected_in_place("1990년 5월 17일이요", "ko") == ()


@pytest.mark.parametrize(
    ("language", "slot", "text", "value"),
    [
        (
            "ko",
            {"type": "date", "kind": "birth_date"},
            "1990년 5월 17일이요, 아 잠깐만요 18일이에요",
            "1990-05-18",
        ),
        ("ja", {"type": "time"}, "えーと、午後の2時…いや、3時でお願いします", "15:00"),
        ("ko", {"type": "time"}, "저녁 7시요, 아 아니 8시요", "20:00"),
        ("en", {"type": "time"}, "8 pm, no wait, 9", "21:00"),
        ("ja", {"type": "date"}, "来週の火曜日…あ、違う、水曜日で", "2026-12-02"),
        ("en", {"type": "date"}, "next Tuesday, no wait, Wednesday", "2026-12-02"),
        ("ja", {"type": "date"}, "えっと、再来週…いや、来週の土曜日にします", "2026-12-05"),
        ("ko", {"type": "date"}, "다다음 주… 아니 다음 주 토요일로 할게요", "2026-12-05"),
        ("en", {"type": "date"}, "two weeks out... no wait, next Saturday", "2026-12-05"),
        (
            "ko",
            {"type": "phone"},
            "공일공 구팔칠육, 어 아니 구팔칠오, 삼삼이일이요",
            "010-9875-3321",
        ),
        ("en", {"type": "integer"}, "Three, oh wait, no, just two", 2),
        ("ja", {"type": "integer"}, "三つ、あ、いや四つです", 4),
        ("ja", {"type": "time"}, "3時、いや、4時", "04:00"),
    ],
)
def test_a_value_corrected_by_a_piece_keeps_what_the_piece_left_open(
    language: str, slot: dict[str, Any], text: str, value: Any
) -> None:
    """The new part completed from what it corrects: its half of the day, its week, the
    start of its number; a whole new value (a count, a time with nothing before it) stands."""
    slots = {"asked": Slot.model_validate(slot)}
    node = {"id": "n", "description": "N.", "terminal": True}
    graph = Scenario.from_dict(
        make_graph(
            [node],
            language=language,
            slots={name: s.model_dump(exclude_none=True) for name, s in slots.items()},
        )
    )
    request = NLURequest(
        scenario=graph,
        node=graph.nodes[0],
        text=text,
        intents=dict(BUILTIN_INTENTS),
        slots=slots,
        expected_slot="asked",
        filled_slots={},
        user={"date_time": "2026-11-23T10:00:00+09:00", "timezone": "Asia/Seoul"},
    )
    assert RuleNLU().analyse(request).entities == {"asked": value}


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
