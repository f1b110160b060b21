"""Classes the blind set `benchmarks/paraphrases/fresh27` showed (three new graphs, measured
once before any change): a sum said last after a list of counts ("so thirteen altogether",
"thirteen in total"); a first thought taken back with "oh wait"; a value offered after a
reason ("…, so say quarter past nine?"); a name said after a question about it ("남편 이름으로
해도 되죠? 오성민이요"); "어디 하나" as "somewhere", no question; and a call back later
("다음에 다시 전화드릴게요") that puts a request off."""

from __future__ import annotations

from datetime import date

import pytest

from dialogkit.nlu._acts import is_question, offers_values, puts_off
from dialogkit.nlu._entities import extract_number, extract_text
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse, read_back_scenario

WINDOWS = Slot.model_validate({"type": "integer", "kind": "count", "unit": "items", "prompt": "?"})
NAME = Slot.model_validate({"type": "text", "kind": "person_name", "prompt": "?"})


@pytest.mark.parametrize(
    ("said", "total"),
    [
        ("Um, there's eight at the front and five round the back, so thirteen altogether.", 13),
        ("eight at the front and five round the back, so 13 altogether.", 13),
        ("eight at the front and five at the back, thirteen in total.", 13),
        ("eight at the front, five at the back, twenty-one altogether", 21),
        ("two upstairs and three downstairs, so that's five", 5),
        ("eight at the front and five round the back", 8),
    ],
)
def test_a_sum_said_last_is_the_count(said: str, total: int) -> None:
    assert extract_number(WINDOWS, said) == total


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Thursday would be... oh wait, that's Thanksgiving. Friday then.", 27),
        ("Thursday, oh wait, Friday", 27),
        ("Thursday... wait, Friday works better", 27),
        ("Thursday, I can wait for the guy to come", 26),
    ],
)
def test_oh_wait_takes_the_first_thought_back(said: str, day: int) -> None:
    scenario = read_back_scenario("en", ("Note?", "Name?", "When?"))
    user = {"date_time": "2026-11-23T10:00:00-05:00", "timezone": "America/New_York"}
    read = analyse(scenario, "ask_time", said, "time", user=user)
    assert read.entities["date"] == date(2026, 11, day).isoformat(), read


@pytest.mark.parametrize(
    ("said", "offers"),
    [
        ("Mornings are best for me, so say quarter past nine?", True),
        ("Evenings suit us, then say half six?", True),
        ("Mornings are best for me, so say what time you open?", False),
    ],
)
def test_a_value_offered_after_a_reason(said: str, offers: bool) -> None:
    assert offers_values(said, "en") is offers


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("어... 남편 이름으로 해도 되죠? 오성민이요.", "오성민"),
        ("主人の名前でもいいですか？山田太郎です。", "山田太郎"),
        ("Can I put it under my wife's name? Sarah Mitchell.", "Sarah Mitchell"),
    ],
)
def test_a_name_said_after_a_question_about_it(said: str, name: str) -> None:
    assert extract_text(NAME, said, "customer_name") == name


@pytest.mark.parametrize(
    ("said", "asks"),
    [
        ("음… 어디 하나 어긋난 데가 있는 것 같아요.", False),
        ("어디 하나 틀린 게 있는 것 같은데요.", False),
        ("어디로 가면 돼요?", True),
    ],
)
def test_somewhere_asks_nothing(said: str, asks: bool) -> None:
    assert is_question(said, "ko") is asks


def test_something_off_somewhere_is_a_no() -> None:
    scenario = read_back_scenario("ko", ("메모?", "성함?", "시간?"))
    read = analyse(scenario, "confirm", "음… 어디 하나 어긋난 데가 있는 것 같아요.", None)
    assert read.intent == "deny", read


@pytest.mark.parametrize(
    ("language", "said", "later"),
    [
        ("ko", "생각 좀 더 해 보고 다음에 다시 전화드릴게요.", True),
        ("ko", "나중에 연락드리겠습니다", True),
        ("ko", "다음에 다시 전화해 주세요", False),
        ("en", "Let me talk to my wife, I'll call you back.", True),
        ("ja", "ちょっと考えて、改めて電話します", True),
    ],
)
def test_a_call_back_later_puts_the_request_off(language: str, said: str, later: bool) -> None:
    assert puts_off(said, language) is later
