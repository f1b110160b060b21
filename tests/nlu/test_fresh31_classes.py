"""Classes the blind set `benchmarks/paraphrases/fresh31` showed (six new graphs, measured once
before any change): an hour said apart before a reason ("eleven, I've got the gym first
thing"); a count of people said outright beside a couple ("うちら夫婦と、息子夫婦なんで、四人
ですね"); a hesitation between the groups of a phone number read out ("공일공에 칠칠팔삼, 어…
이오육일"); a hold-on that closes an aside ("…, hang on"); something else then, forgotten or
to be at ("시어머니가 올라오신다고 했던 걸 깜빡했네요", "김장 도와드리러 가야 해요", "7時だと
…間に合いそうにない", "Friday's out"); nothing missing as a yes; new withdrawals and a call
back as putting off; another one of the same joining a count ("집사람 것도 같이")."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import is_aside, is_withdrawal, puts_off
from dialogkit.nlu._discipline import said_wrong
from dialogkit.nlu._entities import extract_integer, extract_phone
from dialogkit.nlu._times import read_time
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse, read_back_scenario

DATE = Slot.model_validate({"type": "date", "prompt": "?"})
TIME = Slot.model_validate({"type": "time", "prompt": "?"})
PHONE = Slot.model_validate({"type": "phone", "prompt": "?"})
PEOPLE = Slot.model_validate({"type": "integer", "unit": "people", "prompt": "?"})
DEVICES = Slot.model_validate({"type": "integer", "kind": "count", "prompt": "?"})
SLOTS = {"date": DATE, "time": TIME, "phone": PHONE}
HELD = {"date": "2026-11-27", "time": "19:00", "phone": "090-1234-5678"}


@pytest.mark.parametrize(
    ("said", "hour"),
    [
        ("eleven, I've got the gym first thing", "11:00"),
        ("make it eleven, I've got the gym first thing", "11:00"),
        ("3, the kids are at their gran's", "03:00"),
    ],
)
def test_an_hour_said_apart_before_a_reason_is_the_time(said: str, hour: str) -> None:
    assert read_time(said, bare=True)[:1] == (hour,)


def test_a_number_inside_a_sentence_is_still_no_bare_hour() -> None:
    assert read_time("I have 2 kids with me", bare=True) == ()


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("うちら夫婦と、息子夫婦なんで、四人ですね", 4),
        ("夫婦と息子夫婦で四人です", 4),
        ("夫婦で来ます", 2),
        ("me and my wife and our 3 kids", 5),
    ],
)
def test_people_counted_outright_come_before_a_couple(said: str, count: int) -> None:
    assert extract_integer(PEOPLE, said) == count


@pytest.mark.parametrize(
    "said",
    [
        "공일공에 칠칠팔삼, 어… 이오육일이요.",
        "공일공, 칠칠팔삼, 음 이오육일이요",
        "010 7783, um, 2561",
    ],
)
def test_a_hesitation_inside_a_phone_number_read_out(said: str) -> None:
    assert extract_phone(said) == "010-7783-2561"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Sorry, the dog's going mad at the door, hang on."),
        ("ko", "아 택배 기사님이 벨 누르셔서요, 잠깐만요"),
        ("ja", "あ、宅配便が来ちゃった、ちょっと待ってください"),
    ],
)
def test_a_hold_on_that_closes_an_utterance_says_it_aside(language: str, said: str) -> None:
    assert is_aside(said, language)


def test_an_aside_that_closes_with_a_hold_on_is_no_name() -> None:
    scenario = read_back_scenario("en", ("Any notes?", "Your name?", "What time?"))
    read = analyse(scenario, "ask_name", "Sorry, the dog's going mad at the door, hang on.", "name")
    assert "name" not in read.entities, read


@pytest.mark.parametrize(
    ("language", "said", "slot"),
    [
        ("ko", "아 맞다, 그 토요일에 시어머니가 올라오신다고 했던 걸 깜빡했네요", "date"),
        ("ko", "아 그 금요일엔 시댁 김장 도와드리러 가야 해요, 완전 잊고 있었네.", "date"),
        ("ja", "7時だと会社を出るのがギリギリで、間に合いそうにないんですよね", "time"),
        ("en", "Friday's out, I've just remembered we're at a funeral in Leeds.", "date"),
        ("en", "Friday's out of the question for us, I'm afraid.", "date"),
    ],
)
def test_something_else_then_asks_to_change_the_value(language: str, said: str, slot: str) -> None:
    heard = {"date": HELD["date"]} if language == "en" else {}
    assert said_wrong(said, SLOTS, language, changes=True, held=HELD, heard=heard) == [slot]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ko", "아, 죄송한데 생각해 보니 집 앞 대리점이 더 가깝네요. 이번 건 없던 걸로 하죠."),
        ("ja", "ごめんなさい、やっぱり予約はなしにしてください"),
    ],
)
def test_new_withdrawals(language: str, said: str) -> None:
    assert is_withdrawal(said, language)


def test_calling_back_puts_the_request_off() -> None:
    assert puts_off("すみません、一回主人と相談してから、またこちらからかけ直しますね", "ja")


def test_another_one_of_the_same_joins_a_count() -> None:
    slots = {"count": DEVICES, "date": DATE}
    said = "아 맞다, 집사람 것도 같이 들고 가야 할 것 같아요."
    assert said_wrong(said, slots, "ko", changes=True, held={"count": 1}) == ["count"]


def test_mornings_and_later_on_point_at_the_time() -> None:
    said = "Mornings are a nightmare with the school run, could they swing by later on instead?"
    assert said_wrong(said, SLOTS, "en", changes=True, held=HELD) == ["time"]


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("ko", "빠진 거 하나 없네요, 그날 뵐게요!", "affirm"),
        ("ja", "一か所おかしいところがあります", "deny"),
    ],
)
def test_nothing_missing_is_a_yes_and_one_thing_off_a_no(
    language: str, said: str, intent: str
) -> None:
    scenario = read_back_scenario(language, ("?", "?", "?"))
    filled = {"date": "2026-11-27", "time": "19:00", "name": "Kim"}
    assert analyse(scenario, "confirm", said, None, filled).intent == intent
