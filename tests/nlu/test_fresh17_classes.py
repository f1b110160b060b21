"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh17`): a value
read back that "won't do" in other words ("빠듯할 것 같아요", "그걸로 하시면 안 될 것 같아요",
"we can't make that"; the second had booked); a reason running on, which names nobody;
"정신이 하나도 없네요", which chats; a price asked as what to budget and hours as how long a
place goes on ("どのくらい見ておけば", "朝方までやってる"); "決められなくて" at a choice, which
asks for help; "her name's …"; and "sorry, what" that goes on to ask something else."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import is_small_talk
from dialogkit.nlu._entities import extract_text
from dialogkit.scenario.model import Slot
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import _kimono_read_back
from tests.nlu.test_fresh15_classes import _asking

PHONE = {"type": "phone", "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ko",
            "phone",
            PHONE,
            "010-1234-5678",
            "아, 그 폰은 곧 해지할 거라서 그걸로 하시면 안 될 것 같아요.",
        ),
        (
            "ko",
            "time",
            {"type": "time", "prompt": "?"},
            "15:00",
            "세 시는 애 데리러 가야 해서 빠듯할 것 같아요.",
        ),
        (
            "en",
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-05",
            "Oh shoot, the fifth is my sister's wedding, we can't make that.",
        ),
    ],
)
def test_a_value_read_back_that_will_not_do(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"


def test_a_reason_running_on_names_nobody() -> None:
    said = "저 사실 이런 거 처음 받아 봐서 좀 떨려요."
    name = Slot(type="text", kind="person_name")
    read = analyse(_asking("ko", name.model_dump(exclude_none=True)), "ask", said, "asked")
    assert "asked" not in read.entities


def test_being_run_off_ones_feet_is_small_talk() -> None:
    assert is_small_talk("요즘 연말이라 정신이 하나도 없네요 진짜.", "ko")


@pytest.mark.parametrize(
    ("intent", "examples", "said"),
    [
        (
            "ask_price",
            ["料金はいくらですか？"],
            "これって支払いは大体どのくらい見ておけばいいですか？",
        ),
        (
            "ask_hours",
            ["営業時間を教えてください", "何時まで営業していますか"],
            "そちらって朝方までずっとやってるお店ですか？",
        ),
    ],
)
def test_a_price_to_budget_and_hours_as_how_long_a_place_goes_on(
    intent: str, examples: list[str], said: str
) -> None:
    scenario = greeting("ja", also={intent: {"examples": examples}})
    assert analyse(scenario, "start", said, None).intent == intent


def test_unable_to_decide_at_a_choice_asks_for_help() -> None:
    rooms = {"type": "enum", "values": ["小部屋", "大部屋"], "prompt": "?"}
    said = "うーん、どの広さがいいのか自分じゃ決められなくて…"
    assert analyse(_asking("ja", rooms), "ask", said, "asked").intent == "help"


def test_her_name_is_the_name() -> None:
    name = Slot(type="text", kind="person_name")
    said = "Sure, it's for my daughter, her name's Olivia Martin."
    assert extract_text(name, said, "student_name") == "Olivia Martin"


@pytest.mark.parametrize(
    ("said", "repeat"),
    [
        ("Sorry, what?", True),
        ("Sorry, what was that?", True),
        ("Sorry, what are your hours?", False),
    ],
)
def test_sorry_what_asks_to_hear_it_again_only_alone(said: str, repeat: bool) -> None:
    hours = {"ask_hours": {"examples": ["What are your opening hours?"]}}
    read = analyse(greeting("en", also=hours), "start", said, None)
    assert (read.intent == "repeat") is repeat


def test_the_kimono_read_back_is_unchanged_by_a_name_frame() -> None:
    """Guard: a ja name said at a read-back is still the new name."""
    filled = {"plan": "振袖", "name": "山田花子"}
    read = analyse(_kimono_read_back(), "confirm", "名前は山田じゃなくて山本です", None, filled)
    assert read.entities == {"name": "山本"}
