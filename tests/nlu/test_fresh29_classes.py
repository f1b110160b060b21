"""Classes the blind set `benchmarks/paraphrases/fresh29` showed (six new graphs, measured once
before any change): a value read back that something else is due at ("Two o'clock is right
when I'm doing the school run", "その木曜って義理の母が泊まりに来るんだったわ", "그 토요일에
시어머니가 올라오신다고"); a phone that is switched off or given up ("회사 폰이라 퇴근하면 꺼
놔요"); "아직" as "still", no negation; a later time said as "느지막이"; things added to a
count ("奥の寝室のぶんも一緒に"); new withdrawals; a name given as "it'd be under ..."; a
time offered with "say" after a reason; and an exclamation ("Blimey, ...") taken for a name."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import ends_in_withdrawal, is_negated, is_withdrawal, offers_values
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse, read_back_scenario

DATE = Slot.model_validate({"type": "date", "prompt": "?"})
TIME = Slot.model_validate({"type": "time", "prompt": "?"})
PHONE = Slot.model_validate({"type": "phone", "prompt": "?"})
COUNT = Slot.model_validate({"type": "integer", "kind": "count", "prompt": "?"})
NAME = Slot.model_validate({"type": "text", "kind": "person_name", "prompt": "?"})
HELD = {"date": "2026-12-05", "time": "14:00", "phone": "010-2345-6789", "count": 6}


@pytest.mark.parametrize(
    ("language", "said", "slot"),
    [
        ("en", "Two o'clock is right when I'm doing the school run.", "time"),
        ("ja", "あっ、その土曜って義理の母が泊まりに来るんだったわ…", "date"),
        ("ko", "아 참, 그 토요일에 시어머니가 올라오신다고 하셨어요", "date"),
        ("ko", "두 시면 제가 아직 회사에 묶여 있을 때라서요…", "time"),
    ],
)
def test_something_due_at_the_value_read_back_asks_to_change_it(
    language: str, said: str, slot: str
) -> None:
    slots = {"date": DATE, "time": TIME, "phone": PHONE}
    assert said_wrong(said, slots, language, changes=True, held=HELD) == [slot]


@pytest.mark.parametrize(
    "said",
    [
        "아 그거 회사 폰이라 퇴근하면 꺼 놔요",
        "아 맞다, 그거 회사 폰이라 주말엔 꺼 놔요.",
        "그 폰은 이번 달까지만 쓰고 정지시킬 거라서요.",
    ],
)
def test_a_phone_switched_off_or_given_up_asks_for_another(said: str) -> None:
    slots = {"date": DATE, "time": TIME, "phone": PHONE}
    assert said_wrong(said, slots, "ko", changes=True, held=HELD) == ["phone"]


@pytest.mark.parametrize(
    ("said", "negated"),
    [
        ("아직이요", True),
        ("아니 아직", True),
        ("약이요? 아 아직이요", True),
        ("아직 안 먹었어", True),
        ("아직 회사에 묶여 있어요", False),
    ],
)
def test_still_is_no_not_yet(said: str, negated: bool) -> None:
    assert is_negated(said, "ko") is negated


@pytest.mark.parametrize(
    "said",
    [
        "그때는 애가 한창 낮잠 잘 때라서요, 좀 느지막이 가는 게 낫겠어요",
        "좀 느지막하게 가고 싶어요",
        "좀 늦게 가고 싶어요",
        # "무리" says the time read back will not do; "아침" names the time.
        "그렇게 이른 아침은 애 등원 때문에 무리예요.",
    ],
)
def test_a_later_time_or_an_impossible_one_changes_the_time(said: str) -> None:
    slots = {"date": DATE, "time": TIME}
    assert said_wrong(said, slots, "ko", changes=True, held=HELD) == ["time"]


@pytest.mark.parametrize(
    "said",
    [
        "そういえば、奥の寝室のぶんも一緒に持っていってほしいんですけど",
        "物置の自転車も一緒に持ってってほしいです",
    ],
)
def test_things_added_change_the_count(said: str) -> None:
    slots = {"count": COUNT, "name": NAME}
    assert said_wrong(said, slots, "ja", changes=True, held=HELD) == ["count"]


@pytest.mark.parametrize(
    ("said", "changed"),
    [
        # A negation in another clause negates something else.
        ("そういえば、物置にある古い自転車も一緒に持ってってほしいの、言い忘れてました", ["count"]),
        ("物置の自転車は一緒に持っていかなくていいです", []),
    ],
)
def test_only_a_negation_in_the_joining_clause_takes_it_back(said: str, changed: list[str]) -> None:
    slots = {"count": COUNT, "name": NAME}
    assert said_wrong(said, slots, "ja", changes=True, held=HELD) == changed


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "On second thoughts, my wife's terrified of heights, so let's just leave it there."),
        ("ko", "아무래도 이번엔 예약 안 하는 걸로 할게요"),
    ],
)
def test_new_withdrawals(language: str, said: str) -> None:
    assert is_withdrawal(said, language) or ends_in_withdrawal(said, language)


def test_a_name_given_as_what_the_booking_would_be_under() -> None:
    scenario = read_back_scenario("en", ("?", "?", "?"))
    read = analyse(scenario, "ask_name", "Yeah, it'd be under Marguerite O'Donnell.", "name")
    assert read.entities.get("name") == "Marguerite O'Donnell", read


@pytest.mark.parametrize(
    ("said", "offers"),
    [
        ("Mornings are better for me, say half past nine?", True),
        ("Could we say 10 instead?", True),
        ("What did you say, nine?", False),
    ],
)
def test_a_value_after_say_is_offered(said: str, offers: bool) -> None:
    # A question that offers its value is answered by it (the turn takes the time); one
    # that asks about it is not.
    assert offers_values(said, "en") is offers


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Blimey, it's bitter out there this morning.", None),
        ("Crikey, it's Emma Johnson.", "Emma Johnson"),
    ],
)
def test_an_exclamation_before_a_remark_is_no_name(said: str, name: str | None) -> None:
    scenario = read_back_scenario("en", ("?", "?", "?"))
    assert analyse(scenario, "ask_name", said, "name").entities.get("name") == name
