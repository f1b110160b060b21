"""Classes left open by the blind sets before (`benchmarks/paraphrases/fresh17`) and found
by the one after (`benchmarks/paraphrases/fresh18`): another person in the speaker's place
said in English or Korean ("No, not me, my husband"), which had read a party of two; a count
word inside a compound ("ひとりカラオケ", "二人部屋", "2인실"), which counts nobody; a greeting
or a yes that picks up the call before the request ("안녕하세요, 대관 예약하고 싶어요" had read
a greeting); a need as the reason for calling; a read-back that would suit better otherwise
("…데가 나을 것 같아요", "ゆっくりめだと助かる", "something more serious"); questions of
price, hours and bringing one's own food in other words; "뭐라고 하시나요?", which asks no
repeat; a remark said aside, which asks nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import PEOPLE, _count_step
from tests.nlu.test_fresh15_classes import _asking

NAME = {"type": "text", "kind": "person_name", "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "held", "said"),
    [
        ("en", "Emma Stone", "No, not me, my husband"),
        ("en", "Emma Stone", "it's not me, it's my son taking the lesson"),
        ("en", "Emma Stone", "Actually the lesson's for my daughter, not me"),
        ("ko", "김지은", "아뇨 제가 아니라 제 딸이 받을 거예요"),
        ("ko", "김지은", "저 말고 친구가 받을 거예요"),
    ],
)
def test_another_person_in_the_speakers_place_changes_the_name(
    language: str, held: str, said: str
) -> None:
    assert changed(language, "name", NAME, held, said) == "redo"


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Not me, I'm fine with all of it"), ("ko", "저 말고는 다 괜찮아요")],
)
def test_the_speaker_declining_alone_changes_no_name(language: str, said: str) -> None:
    """Guard: without a person named by relation nobody takes the speaker's place."""
    assert changed(language, "name", NAME, "Emma Stone", said) != "redo"


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ja", "この前ひとりカラオケしたんですけど、楽しかったです", None),
        ("ja", "二人部屋ってありますか", None),
        ("ja", "一人旅が好きなんです", None),
        ("ko", "2인실 있어요?", None),
        ("ja", "二人きりです", 2),
        ("ja", "三人連れです", 3),
        ("ja", "4人予約で", 4),
        ("ko", "2인이요", 2),
        ("en", "No, not me and my husband, just me", 1),
    ],
)
def test_a_count_word_in_a_compound_counts_nobody(
    language: str, said: str, value: int | None
) -> None:
    assert analyse(_count_step(language), "ask_party", said, "party").entities.get("party") == value


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Yeah hi, I was hoping to get somebody out to spruce up my flat.", "book"),
        ("en", "We're looking for a cleaner for our new place", "book"),
        ("ko", "안녕하세요, 예약하고 싶어요", "book"),
        ("ko", "네 안녕하세요, 대관 좀 하려고요", "book"),
        ("ko", "연말에 팀 송년회 할 장소가 필요해서 연락드렸어요", "book"),
        ("ja", "実家に帰省するんですけど、向こうで動き回る足がなくて困ってまして", "book"),
        ("ja", "こんにちは、来週ちょっと借りようかと思って", "book"),
        # A greeting with a remark is still a greeting; calling off is no booking.
        ("ko", "안녕하세요, 날씨가 좋네요", "greet"),
        ("ja", "キャンセルしようかと思って", None),
        ("ja", "どうかと思いますけど", None),
    ],
)
def test_the_request_after_a_greeting_or_as_a_need(
    language: str, said: str, intent: str | None
) -> None:
    assert analyse(greeting(language), "start", said, None).intent == intent


ROOMS = {"type": "enum", "values": ["파티룸", "세미나실"], "prompt": "?"}
SERVICES = {"type": "enum", "values": ["standard clean", "deep clean"], "prompt": "?"}
DATE = {"type": "date", "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "en",
            "service",
            SERVICES,
            "standard clean",
            "Hmm, honestly a quick tidy won't cut it, the oven alone is a disaster. "
            "Can we go for something more serious?",
        ),
        ("en", "day", DATE, "2026-12-05", "Ugh, that Saturday is out for me, my kid has a game"),
        ("ko", "time", TIME, "15:00", "그날 낮에 일이 하나 생겨서요, 좀 더 늦게 모일 수 있을까요?"),
        ("ko", "party", PEOPLE, 10, "회사 동료들이 몇 명 더 따라온대요"),
        ("ko", "day", DATE, "2026-12-05", "아 그 토요일엔 제가 지방 출장이라 못 가겠네요"),
        (
            "ko",
            "room",
            ROOMS,
            "파티룸",
            "생각해 보니 너무 들뜬 분위기보다는 차분하게 이야기 나눌 수 있는 데가 나을 것 같아요",
        ),
        ("ja", "day", DATE, "2026-12-05", "先方の都合で、出かけるのが別の週になりそうなんです"),
        (
            "ja",
            "time",
            TIME,
            "10:00",
            "朝イチはちょっと起きられそうにないので、もう少しゆっくりめだと助かるんですが",
        ),
    ],
)
def test_a_read_back_that_would_suit_better_otherwise(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def test_a_pet_that_wants_to_come_along_changes_no_count() -> None:
    """Guard: "따라가고 싶어 하는데 괜찮을까요?" asks whether the dog may come."""
    said = "저희 집 댕댕이도 따라가고 싶어 하는데 괜찮을까요?"
    assert changed("ko", "party", PEOPLE, 4, said) != "redo"


def test_keeping_it_as_it_is_would_suit_better_is_a_yes() -> None:
    """Guard: "이대로 가는 게 나을 것 같아요" keeps what was read back."""
    assert changed("ko", "room", ROOMS, "파티룸", "이대로 가는 게 나을 것 같아요") == "affirm"


HOURS = {"en": ["What are your opening hours?"], "ko": ["영업시간이 어떻게 되나요?"]}
FOOD = {"ko": ["음식 가져가도 되나요?", "케이크 반입 가능해요?"]}


@pytest.mark.parametrize(
    ("language", "intent", "examples", "said"),
    [
        ("en", "ask_price", None, "Hang on, roughly what am I gonna be paying for this?"),
        ("en", "ask_price", None, "Sorry, before we finish, how much is this going to cost?"),
        ("ja", "ask_price", None, "あ、その前に、支払いってだいたいどのくらいになりそうですか？"),
        ("en", "ask_hours", HOURS, "Can I reach you guys on Sundays, or are you shut then?"),
        ("ko", "ask_hours", HOURS, "혹시 새벽까지 놀다 가도 괜찮은 거죠?"),
        ("ko", "ask_food", FOOD, "아 그리고 치킨이랑 맥주 좀 사 들고 가면 뭐라고 하시나요?"),
    ],
)
def test_a_question_in_other_words(
    language: str, intent: str, examples: dict[str, list[str]] | None, said: str
) -> None:
    also = {intent: {"examples": examples[language]}} if examples else None
    assert analyse(greeting(language, also=also), "start", said, None).intent == intent


@pytest.mark.parametrize(("said", "repeat"), [("뭐라고요?", True), ("뭐라고 하시나요?", False)])
def test_what_would_you_say_asks_no_repeat(said: str, repeat: bool) -> None:
    assert (analyse(greeting("ko"), "start", said, None).intent == "repeat") is repeat


def test_not_knowing_the_kind_at_a_choice_asks_for_help() -> None:
    cars = {"type": "enum", "values": ["SUV", "ミニバン"], "prompt": "?"}
    said = "車にはまったく詳しくないもので、どれにしたらいいのやら…"
    assert analyse(_asking("ja", cars), "ask", said, "asked").intent == "help"


def test_a_remark_aside_is_no_note() -> None:
    note = {"type": "text", "prompt": "?"}
    read = analyse(_asking("en", note), "ask", "Sorry, one sec, my kettle's whistling.", "asked")
    assert "asked" not in read.entities


def test_a_remark_aside_asks_no_question_it_resembles() -> None:
    food = {"ask_food": {"examples": ["배달 시켜 먹어도 돼요?"]}}
    assert analyse(greeting("ko", also=food), "start", "잠깐만요, 택배 왔어요", None).intent is None


def test_a_value_asked_for_by_a_group_is_given() -> None:
    said = "Could you guys do next Friday? That'd be perfect."
    assert "asked" in analyse(_asking("en", DATE), "ask", said, "asked").entities
