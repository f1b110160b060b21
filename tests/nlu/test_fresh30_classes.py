"""Classes the blind set `benchmarks/paraphrases/fresh30` showed (six new graphs, measured once
before any change): a weekday said without its week at a read-back of a later date on that
weekday ("Wednesday's when my mother-in-law flies in"); something else due at the date read
back, said as news or as something forgotten ("その土曜は義母が泊まりに来ることになっちゃって",
"그 토요일에 회사 워크숍이 있는 걸 깜빡했네요"); "まだ" as
"still", no negation; a phone switched off ("電源切っちゃってる"); the sky as small talk; "do
you know what, ..." as an opener; a first choice given up ("원래는 케이크 할까 했는데 그냥 쿠키로
할게요", "I was thinking group lesson, but ..."); and two ways to ask for the offer ("is there
a chance you could fit her in?", "만들어 보면 좋겠다 싶어서 연락드렸어요")."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import (
    asks_to_act,
    correction,
    is_negated,
    is_question,
    is_small_talk,
    is_withdrawal,
    wants_to_act,
)
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse, read_back_scenario

DATE = Slot.model_validate({"type": "date", "prompt": "?"})
TIME = Slot.model_validate({"type": "time", "prompt": "?"})
PHONE = Slot.model_validate({"type": "phone", "prompt": "?"})
SLOTS = {"date": DATE, "time": TIME, "phone": PHONE}
HELD = {"date": "2026-12-05", "time": "14:00", "phone": "090-1234-5678"}
MONDAY = {"date_time": "2026-11-23T10:00:00-06:00", "timezone": "America/Chicago"}
QUESTIONS = ("Any notes?", "Your name?", "What time?")


@pytest.mark.parametrize(
    ("said", "heard"),
    [
        # Wednesday 2 December is read back: a bare Wednesday is that one, said again.
        ("Shoot, Wednesday's when my mother-in-law flies in.", "2026-12-02"),
        ("Wednesday works great", "2026-12-02"),
        # A week or a day of the month says which Wednesday.
        ("No, make it Wednesday the 25th", "2026-11-25"),
        ("Can we do this Wednesday instead?", "2026-11-25"),
    ],
)
def test_a_bare_weekday_at_a_read_back_is_the_date_read_back(said: str, heard: str) -> None:
    scenario = read_back_scenario("en", QUESTIONS)
    filled = {"date": "2026-12-02", "time": "10:00", "name": "Kim"}
    read = analyse(scenario, "confirm", said, None, filled, MONDAY)
    assert read.entities.get("date") == heard, read


@pytest.mark.parametrize(
    ("language", "said", "slot"),
    [
        ("en", "Shoot, Wednesday's when my mother-in-law flies in.", "date"),
        ("ja", "その土曜は義母が泊まりに来ることになっちゃって…", "date"),
        ("ja", "あ、その火曜はまだ私が家にいるんでした…", "date"),
        ("ko", "아 맞다, 그 토요일에 회사 워크숍이 있는 걸 깜빡했네요", "date"),
        ("ja", "その携帯、仕事用なんで休みのあいだはたぶん電源切っちゃってるんですよね", "phone"),
    ],
)
def test_something_else_then_asks_to_change_the_value(language: str, said: str, slot: str) -> None:
    held = {**HELD, "date": "2026-12-02"} if language == "en" else HELD
    heard = {"date": "2026-12-02"} if language == "en" else {}
    assert said_wrong(said, SLOTS, language, changes=True, held=held, heard=heard) == [slot]


@pytest.mark.parametrize(
    ("said", "negated"),
    [
        ("まだです", True),
        ("いえ、まだ", True),
        ("まだ決まっていない", True),
        ("まだ家にいる", False),
    ],
)
def test_mada_negates_only_as_not_yet(said: str, negated: bool) -> None:
    assert is_negated(said, "ja") is negated


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ko", "와 오늘 하늘 진짜 맑다, 궁 앞에 사람 바글바글하겠네요"),
        ("ja", "今日は空がきれいですね"),
        ("en", "Look at those blue skies today"),
    ],
)
def test_the_sky_is_small_talk(language: str, said: str) -> None:
    assert is_small_talk(said, language)


def test_do_you_know_what_opens_a_withdrawal_and_asks_nothing() -> None:
    said = "Do you know what, I'll hold off on the whole thing for now, sorry."
    assert not is_question(said, "en") and is_withdrawal(said, "en")
    assert is_question("do you know what time you close", "en")
    assert is_question("do you know what we need to bring", "en")


@pytest.mark.parametrize(
    ("language", "said", "kept", "given_up"),
    [
        ("ko", "음... 원래는 케이크 할까 했는데 그냥 쿠키로 할게요", "쿠키", "케이크"),
        ("ko", "처음엔 케이크 생각했는데 쿠키로 할게요", "쿠키", "케이크"),
        ("en", "I was thinking group lesson, but a trail ride sounds more fun", "trail", "group"),
    ],
)
def test_a_first_choice_given_up_is_replaced(
    language: str, said: str, kept: str, given_up: str
) -> None:
    corrected = correction(said, language)
    assert corrected is not None and kept in corrected and given_up not in corrected


def test_two_more_ways_to_ask_for_the_offer() -> None:
    assert asks_to_act("Hiya, is there a chance you could fit her in?", "en")
    assert wants_to_act("딸내미랑 주말에 뭐 하나 같이 만들어 보면 좋겠다 싶어서 연락드렸어요", "ko")
    assert not wants_to_act("취소하면 좋겠다 싶어서요", "ko")
