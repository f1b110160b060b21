"""Classes the blind set `benchmarks/paraphrases/fresh32` showed (six new graphs, measured once
before any change): a total announced after the parts a noun took ("大人が四人と子供が二人なので、
全部で六人ですね"); "部屋" as a counter ("三部屋"); a new withdrawal ("we'll give
it a miss"); putting the request off with no farewell heard ("嫁さんに相談してからにしますわ"); a
visit then, or a part of the day that will not do ("my in-laws are staying with us that
weekend", "mornings are hopeless for us … something a bit later"); a phone given up
("そのスマホ、今月いっぱいで手放すことになってる"); a better option by what it should be ("お肉は
もうちょっといいやつにしたいなあ", which "いいやつ" had negated); a time that cannot be made
("그때는 못 맞출 것 같아요"); and calling because of a plan or a need ("도전해 보려고
전화드렸어요", "발이 있어야 해서 연락드렸어요")."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import is_negated, is_withdrawal, puts_off, wants_to_act
from dialogkit.nlu._counts import read_counts
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse, note_scenario, read_back_scenario

DATE = Slot.model_validate({"type": "date", "prompt": "?"})
TIME = Slot.model_validate({"type": "time", "prompt": "?"})
PHONE = Slot.model_validate({"type": "phone", "prompt": "?"})
PLAN = Slot.model_validate(
    {"type": "enum", "kind": "choice", "prompt": "?", "values": ["スタンダード", "プレミアム"]}
)
HELD = {"date": "2026-12-05", "time": "10:00", "phone": "090-1234-5678", "plan": "スタンダード"}


@pytest.mark.parametrize(
    ("said", "total"),
    [
        ("大人が四人と子供が二人なので、全部で六人ですね", 6),
        ("two adults and three kids, so five in total", 5),
    ],
)
def test_a_total_replaces_the_part_a_noun_took(said: str, total: int) -> None:
    party = Slot.model_validate(
        {"type": "integer", "unit": "people", "nouns": ["大人", "adults"], "prompt": "?"}
    )
    language = "ja" if said.startswith("大人") else "en"
    assert read_counts(said, {"party": party}, "party", language) == {"party": total}


def test_parts_for_slots_of_their_own_keep_them_beside_a_total() -> None:
    adults = Slot.model_validate(
        {"type": "integer", "unit": "people", "nouns": ["adults"], "prompt": "?"}
    )
    kids = Slot.model_validate(
        {"type": "integer", "unit": "people", "nouns": ["kids"], "prompt": "?"}
    )
    counted = read_counts(
        "two adults and three kids, five in total", {"adults": adults, "kids": kids}, "adults", "en"
    )
    assert counted == {"adults": 2, "kids": 3}


def test_rooms_are_counted_in_kanji() -> None:
    rooms = Slot.model_validate(
        {"type": "integer", "kind": "count", "nouns": ["部屋"], "prompt": "?"}
    )
    assert read_counts("全部で三部屋ですね", {"rooms": rooms}, "rooms", "ja") == {"rooms": 3}


@pytest.mark.parametrize(
    "said",
    [
        "Ah look, we've had a rethink. We'll give it a miss.",
    ],
)
def test_new_withdrawals(said: str) -> None:
    assert is_withdrawal(said, "en")


def test_putting_off_mid_way_calls_the_request_off() -> None:
    said = "あー、ちょっと嫁さんに相談してからにしますわ。すんません"
    assert puts_off(said, "ja")
    filled = {"name": "山田", "note": "なし"}
    read = analyse(note_scenario("ja", note_denies=True), "confirm", said, None, filled)
    assert read.intent == "cancel", read


@pytest.mark.parametrize(
    ("language", "said", "slot"),
    [
        ("en", "Oh no, my in-laws are staying with us that weekend.", "date"),
        (
            "en",
            "Ah, mornings are hopeless for us. Could we go for something a bit later, say at 2?",
            "time",
        ),
        ("ja", "あ、そのスマホ、今月いっぱいで手放すことになってるんですよ", "phone"),
        (
            "ja",
            "よく考えたら、せっかくの集まりなのでお肉はもうちょっといいやつにしたいなあ",
            "plan",
        ),
        ("ko", "비행기가 저녁 편으로 밀려서 그때는 못 맞출 것 같아요", "time"),
    ],
)
def test_what_will_not_do_asks_to_change_it(language: str, said: str, slot: str) -> None:
    slots = {"date": DATE, "time": TIME, "phone": PHONE, "plan": PLAN}
    assert said_wrong(said, slots, language, changes=True, held=HELD) == [slot]


@pytest.mark.parametrize(
    ("said", "negated"),
    [("もうちょっといいやつにしたい", False), ("いや、違います", True), ("それはいやです", True)],
)
def test_iya_negates_as_a_word_of_its_own(said: str, negated: bool) -> None:
    assert is_negated(said, "ja") is negated


@pytest.mark.parametrize(
    "said",
    [
        "안녕하세요, 친구가 벽 타는 게 그렇게 재밌다길래 저도 도전해 보려고 전화드렸어요",
        "비행기 내리고 나서 섬에서 돌아다닐 발이 있어야 해서 연락드렸어요",
    ],
)
def test_calling_for_a_plan_or_a_need_asks_for_the_offer(said: str) -> None:
    assert wants_to_act(said, "ko")


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "That's us to a tee, pop us in the diary!", "affirm"),
        ("en", "Great, pencil us in", "affirm"),
        ("en", "Hmm, you've got a bit of that muddled up.", "deny"),
        ("ko", "음, 하나 잘못 들어간 것 같은데요", "deny"),
    ],
)
def test_new_ways_to_say_yes_and_no_at_a_read_back(language: str, said: str, intent: str) -> None:
    scenario = read_back_scenario(language, ("?", "?", "?"))
    filled = {"date": "2026-12-05", "time": "10:00", "name": "Kim"}
    assert analyse(scenario, "confirm", said, None, filled).intent == intent


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "すみません、やっぱり予約はなしでお願いします"),
        ("ko", "죄송한데 이번 건 없던 일로 하죠"),
        ("ko", "그냥 없던 걸로 하자"),
    ],
)
def test_sibling_withdrawals(language: str, said: str) -> None:
    assert is_withdrawal(said, language)


@pytest.mark.parametrize(
    "said",
    ["Evenings are impossible for us, could we do earlier on?", "Afternoons are a nightmare"],
)
def test_parts_of_the_day_that_will_not_do_point_at_the_time(said: str) -> None:
    slots = {"date": DATE, "time": TIME, "phone": PHONE, "plan": PLAN}
    assert said_wrong(said, slots, "en", changes=True, held=HELD) == ["time"]
