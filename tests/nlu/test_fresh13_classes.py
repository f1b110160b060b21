"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh13`): "drop it
off", which withdraws nothing; "any chance you guys could …"; an intention or a need at a
greeting ("예약 하나 하려고 하는데요", "원장님한테 한번 봬야 할 것 같아요", "…浸かれたらなあと
思いまして", "予約できますか"); "you've got it spelled wrong", which says "got it" and no yes;
and values read back that will not do ("그때는 못 가겠네요", "もうちょっと早くできます？",
"reach me on my cell instead")."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.nlu._morphology import keyword_in, normalize
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import FILLED, at_read_back, changed, read_back
from tests.nlu.test_fresh9_classes import greeting


@pytest.mark.parametrize(
    ("said", "says"),
    [
        ("could we switch the day i drop it off", False),
        ("you can pick it up friday", False),
        ("just drop it, i'm done", True),
    ],
)
def test_a_particle_after_the_object_is_another_verb(said: str, says: bool) -> None:
    verb = "drop it" if "drop" in said else "pick it"
    assert keyword_in(normalize(said), verb) is says


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        (
            "en",
            "My kid's bike is a wreck. Any chance you guys could get it rideable again?",
            "book",
        ),
        ("ko", "여드름 때문에 예약 하나 하려고 하는데요.", "book"),
        ("ko", "요즘 얼굴에 뭐가 자꾸 올라와서요, 원장님한테 한번 봬야 할 것 같아요.", "book"),
        ("ko", "취소하려고 하는데요", None),
        ("ja", "結婚記念日なもんで、夫婦だけでゆっくり湯に浸かれたらなあと思いまして", "book"),
        ("ja", "すみません、貸切のお風呂を予約できますか？", "book"),
    ],
)
def test_an_intention_or_a_need_at_a_greeting_that_offers_one_action(
    language: str, said: str, intent: str | None
) -> None:
    assert analyse(greeting(language), "start", said, None).intent == intent


def test_a_slot_said_to_be_wrong_after_got_it_is_the_change() -> None:
    said = "It's the name, you've got it spelled wrong."
    assert analyse(read_back("en", own_changes=True), "confirm", said, None, FILLED).intent == (
        "rename"
    )


def test_a_time_read_back_that_is_too_late_is_asked_again(offline: Engine) -> None:
    reply = at_read_back(offline, "ja", own_changes=False).send(
        "15時だとうちの子もう寝ちゃってるんで、もうちょっと早くできます？"
    )
    assert reply.current_node == "ask_time"


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said"),
    [
        (
            "ko",
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-04",
            "아 맞다, 그 주에 제가 출장이 잡혀 있어서 그때는 못 가겠네요.",
        ),
        (
            "en",
            "phone",
            {"type": "phone", "prompt": "?"},
            "5551234567",
            "Oh shoot, that's my work line. You'd better reach me on my cell instead.",
        ),
    ],
)
def test_a_value_that_will_not_do_is_the_change(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed(language, slot, declared, held, said) == "redo"
