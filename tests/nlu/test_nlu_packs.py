"""Acts that hold in every graph, per language: questions and requests, corrections,
a slot named as wrong, function words; and the packs chosen by the scenario's language."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import correction, is_question, is_request
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._discipline import said_wrong
from dialogkit.nlu._rules import RuleNLU, content
from dialogkit.nlu._words import meant_part
from dialogkit.nlu.lang import PACKS, packs_for
from dialogkit.scenario.model import Intent, Slot
from tests.helpers import make_graph


def test_the_scenario_language_comes_first_and_every_pack_is_registered() -> None:
    assert set(PACKS) == {"ko", "en", "ja"}
    assert packs_for("ja-JP")[0].code == "ja"
    assert packs_for("en")[0].code == "en"
    assert len(packs_for("")) == len(packs_for("xx")) == 3


@pytest.mark.parametrize(
    ("text", "question", "asks_for_action"),
    [
        ("how much is the suite per night?", True, False),
        ("is there a cancellation fee", True, False),
        ("could you make it 8?", False, True),
        ("can I get a twin instead?", False, True),
        ("Can I order a drink?", False, True),
        ("could we rent two bikes for Saturday?", False, True),
        ("what can I order for a child?", True, False),
        ("토요일에도 진료하나요?", True, False),
        ("요금이 얼마예요", True, False),
        ("신용카드로 바꿀 수 있나요?", False, True),
        ("모레로 바꿔 주실래요?", False, True),
        ("土曜日は開いていますか", True, False),
        ("8時にしてもらえますか", False, True),
        ("2 adults and a kid", False, False),
    ],
)
def test_a_question_about_something_is_told_from_a_request(
    text: str, question: bool, asks_for_action: bool
) -> None:
    assert is_question(text) is question
    assert is_request(text) is asks_for_action


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("make that 3 nights", "3 nights"),
        ("no wait, a twin", "a twin"),
        ("actually, the vineyards", "the vineyards"),
        ("not a double, a twin", "a twin"),
        ("더블 말고 트윈이요", "트윈이요"),
        ("아 아니 트윈이요", "트윈이요"),
        ("いや、ツインです", "ツインです"),
        ("ダブルじゃなくてツイン", "ツイン"),
    ],
)
def test_a_correction_names_the_value_that_wins(text: str, meant: str) -> None:
    assert correction(text) == meant


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("change it from Thursday to Friday", "Friday"),
        ("7시에서 8시로", "8시로"),
        ("木曜日から金曜日に変えて", "金曜日に変えて"),
    ],
)
def test_a_moved_value_is_read_from_its_new_end(text: str, meant: str) -> None:
    assert (meant_part(text) or "").strip() == meant


SLOTS = {
    "guest_name": Slot(type="text", kind="person_name"),
    "phone": Slot(type="phone"),
    "room": Slot(type="enum", values=["double", "twin"], nouns=["room"]),
}


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("no, the name is wrong", ["guest_name"]),
        ("the phone number is incorrect", ["phone"]),
        ("이름이 틀렸어요", ["guest_name"]),
        ("전화번호가 잘못됐어요", ["phone"]),
        ("名前が違います", ["guest_name"]),
        ("the room isn't right", ["room"]),
        ("the name is Kim", []),
    ],
)
def test_a_slot_named_as_wrong(text: str, wrong: list[str]) -> None:
    assert said_wrong(text, SLOTS) == wrong


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("그렇게 해 주세요", ""),
        ("취소해 주세요", "취소해"),
        ("キャンセルお願いします", "キャンセル"),
        ("please cancel it", "cancel it"),
        ("I would like to book a table", "book a table"),
    ],
)
def test_function_words_are_not_compared(text: str, kept: str) -> None:
    assert content(text) == kept


SCENARIO = Scenario.from_dict(make_graph([{"id": "n", "description": "N.", "terminal": True}]))
INTENTS = {
    "cancel": Intent(examples=["취소해 주세요", "cancel my booking", "予約をキャンセルしたいです"]),
    "ask_fee": Intent(examples=["취소 수수료가 있나요?", "is there a cancellation fee?"]),
    **BUILTIN_INTENTS,
}


def intent_of(text: str) -> str | None:
    request = NLURequest(
        scenario=SCENARIO, node=SCENARIO.nodes[0], text=text, intents=INTENTS, slots={}
    )
    return RuleNLU().analyse(request).intent


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("취소해 주세요", "cancel"),
        ("그렇게 해 주세요", "affirm"),
        ("취소 수수료 있나요?", "ask_fee"),
        ("is there a fee for cancelling?", "ask_fee"),
        ("취소하면 돈 들어요?", None),
        ("does cancelling my booking cost anything?", None),
        ("please cancel my booking", "cancel"),
        ("キャンセルしたいです", "cancel"),
        ("キャンセル料はかかりますか", None),
    ],
)
def test_a_question_never_fires_an_action(text: str, intent: str | None) -> None:
    assert intent_of(text) == intent


@pytest.mark.parametrize(
    ("example", "says_group"),
    [
        ("배송으로 해 주세요", True),  # a particle after the phrase
        ("택배 보내 주세요", True),
        ("배송지 변경할게요", False),  # another noun that starts with it
        ("주소가 배송지예요", False),
    ],
)
def test_an_example_says_a_paraphrase_group_only_with_the_phrase_as_its_own_words(
    example: str, says_group: bool
) -> None:
    from dialogkit.nlu.lang import paraphrases_within

    assert ("배달" in paraphrases_within(example)) is says_group
