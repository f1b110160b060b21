"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh16`): a day
named with "that" ("그 주말에", "その週末", "that weekend") points back at the one held; a
change asked as an adjustment ("시간을 좀 조정해야 할 것 같아요"); another option chosen by
what it should be ("…쪽으로 골라 볼게요"); the held hour said as a bare number and the held
option by a synonym; something read back that is off ("どこか一か所ずれてますね"); another
person in the speaker's place ("受けるのは私じゃなくて息子なんです"); "둘째" (the second
child), which counts nobody; the weather turning, which names nobody; a sum after "ので";
and more ways to ask a price or how late a place stays open."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from dialogkit.nlu._acts import is_small_talk
from dialogkit.nlu._dates import read_date
from dialogkit.nlu._frame import Frame
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import _count_step, _kimono_read_back

DAY = {"type": "date", "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}
ROOMS = {
    "type": "enum",
    "values": ["haunted manor", "bank heist"],
    "synonyms": {"haunted manor": ["haunted house", "haunted"]},
    "prompt": "?",
}
SITES = {"type": "enum", "values": ["오토캠핑", "글램핑"], "prompt": "?"}


@pytest.mark.parametrize(
    "said", ["그 주말에 결혼식이 있어요", "その週末は無理です", "that weekend"]
)
def test_a_day_named_with_that_is_no_new_date(said: str) -> None:
    frame = Frame(now=datetime(2026, 11, 23, 10))
    assert read_date(said, frame) is None


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ko",
            "day",
            DAY,
            "2026-12-05",
            "아 맞다, 그 주말에 사촌 결혼식이 있어요. 그때는 못 가겠네요.",
        ),
        ("ko", "time", TIME, "15:00", "시간을 좀 조정해야 할 것 같아요."),
        ("en", "time", TIME, "15:00", "Could we adjust the time a little?"),
        ("en", "time", TIME, "19:00", "Seven's cutting it fine for us, half the crew is at work."),
        (
            "ko",
            "site",
            SITES,
            "오토캠핑",
            "생각해 보니 텐트 치고 걷는 게 일이라, 몸 편하게 지내는 쪽으로 골라 볼게요.",
        ),
        (
            "en",
            "room",
            ROOMS,
            "haunted manor",
            "Hmm, the haunted one sounds a bit too spooky for my mother-in-law.",
        ),
    ],
)
def test_a_value_read_back_that_will_not_do(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def test_something_read_back_that_is_off_is_a_no() -> None:
    filled = {"plan": "振袖", "name": "山田花子"}
    read = analyse(_kimono_read_back(), "confirm", "うーん、どこか一か所ずれてますね", None, filled)
    assert read.intent == "deny"


def test_a_pitch_gone_off_at_a_greeting_is_no_no() -> None:
    said = "実家から譲り受けたピアノの音程がずれてきたので、見てもらいたいんです"
    assert analyse(greeting("ja"), "start", said, None).intent != "deny"


@pytest.mark.parametrize("said", ["受けるのは私じゃなくて息子なんです", "私じゃなくて娘です"])
def test_another_person_in_the_speakers_place_changes_the_name(said: str) -> None:
    filled = {"plan": "振袖", "name": "山田花子"}
    assert analyse(_kimono_read_back(), "confirm", said, None, filled).intent == "change_name"


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ko", "저희 둘째가 캠핑 간다고 벌써부터 신나 있어요.", None),
        ("ja", "私と、あと友達が一人来るので、二人です", 2),
    ],
)
def test_the_count_asked_for(language: str, said: str, value: int | None) -> None:
    assert analyse(_count_step(language), "ask_party", said, "party").entities.get("party") == value


def test_the_weather_turning_is_small_talk_and_names_nobody() -> None:
    said = "いやー、寒くなってきましたねえ"
    assert is_small_talk(said, "ja")
    scenario = _kimono_read_back()
    assert "name" not in analyse(scenario, "ask_name", said, "name").entities


@pytest.mark.parametrize(
    ("language", "examples", "said"),
    [
        ("en", ["What are your prices?"], "Sorry, how much is it per player?"),
        ("en", ["What are your prices?"], "what's this going to set each of us back?"),
        ("ko", ["1박 요금이 얼마예요?"], "데크 사이트는 하룻밤에 얼마 받으세요?"),
    ],
)
def test_a_price_asked_another_way(language: str, examples: list[str], said: str) -> None:
    prices = {"ask_price": {"examples": examples}}
    assert analyse(greeting(language, also=prices), "start", said, None).intent == "ask_price"


@pytest.mark.parametrize(
    ("language", "examples", "said"),
    [
        (
            "en",
            ["What are your opening hours?"],
            "Quick question first: how late do you folks keep the doors unlocked on weeknights?",
        ),
        (
            "ja",
            ["営業時間を教えてください", "何時まで開いていますか"],
            "会社が終わってから寄れるか気になってるんですが、夜はどのへんで閉まっちゃいます？",
        ),
    ],
)
def test_how_late_a_place_stays_open(language: str, examples: list[str], said: str) -> None:
    hours = {"ask_hours": {"examples": examples}}
    assert analyse(greeting(language, also=hours), "start", said, None).intent == "ask_hours"
