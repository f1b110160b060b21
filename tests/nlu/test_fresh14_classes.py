"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh14`): someone
joining told as news at a read-back ("友達がもう一人合流することになって", "사촌 동생도 한 명
같이 오겠대요"), and "one more" that is no value; a sum said again after "그러니까" or
"つまり"; "a different kind of service", "some other week"; the answer to "which one?"
with a reason that negates ("It's the cell, I don't use that one anymore"); a change heard
beside a weak resemblance to another intent; "しときたいかな", which muses and asks nothing;
a read-back's correction that names nobody ("姉に替わってもらいたいんです"); a withdrawal
asked as a favour; "諭吉" for a price; and an anecdote of a past visit, which is small talk."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import ends_in_withdrawal, is_question, is_small_talk
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed, choose_after_no
from tests.nlu.test_fresh9_classes import greeting

PEOPLE = {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"}
PIANOS = {"type": "integer", "kind": "count", "unit": "items", "nouns": ["piano"], "prompt": "?"}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "友達がもう一人合流することになって"),
        ("ja", "あ、実は義理の母もついてくることになりまして…"),
        ("ko", "아 사촌 동생도 한 명 같이 오겠대요"),
        ("en", "Oh, my sister's coming along too."),
    ],
)
def test_someone_joining_at_a_read_back_changes_the_count_of_people(
    language: str, said: str
) -> None:
    assert changed(language, "party", PEOPLE, 2, said) == "redo"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Oh, my sister's coming along too."),
        ("ja", "姉は一緒に来ないです"),
    ],
)
def test_joining_changes_no_count_of_things_nor_when_negated(language: str, said: str) -> None:
    declared = PIANOS if language == "en" else PEOPLE
    assert changed(language, "party", declared, 2, said) is None


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ko", "저랑 남편이랑 애들 둘이요, 그러니까 네 명이요", 4),
        ("ja", "私と母と娘二人、つまり四人です", 4),
        ("ko", "두 명이 같이 갈 거예요", 2),
        # "One more" changes the count by one: it is no count of one.
        ("ja", "もう一人", None),
        ("ko", "동생도 한 명", None),
    ],
)
def test_the_count_asked_for(language: str, said: str, value: int | None) -> None:
    scenario = _count_step(language)
    assert analyse(scenario, "ask_party", said, "party").entities.get("party") == value


def _count_step(language: str) -> Scenario:
    nodes: list[dict[str, Any]] = [
        {"id": "ask_party", "collect_slots": ["party"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    return Scenario.from_dict(make_graph(nodes, language=language, slots={"party": PEOPLE}))


@pytest.mark.parametrize(
    ("slot", "declared", "held", "said"),
    [
        (
            "service",
            {"type": "enum", "values": ["tuning", "repair"], "nouns": ["service"], "prompt": "?"},
            "tuning",
            "I'd like to pick a different kind of service.",
        ),
        (
            "day",
            {"type": "date", "prompt": "?"},
            "2026-12-03",
            "Oh shoot, we're away at my in-laws' on the third. Could we go for some other week?",
        ),
    ],
)
def test_another_of_a_kind_named_by_its_noun_is_the_change(
    slot: str, declared: dict[str, Any], held: Any, said: str
) -> None:
    assert changed("en", slot, declared, held, said) == "redo"


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("It's the cell, I don't use that one anymore.", "renumber"),
        ("It's not the name, it's the phone", "renumber"),
        ("the name is fine, no need to change it", None),
    ],
)
def test_asked_which_value_to_change_a_negated_reason_leaves_the_value_named(
    said: str, intent: str | None
) -> None:
    filled = {"time": "15:00", "name": "Kim", "phone": "5551234567"}
    assert analyse(choose_after_no("en"), "which", said, None, filled).intent == intent


def _kimono_read_back() -> Scenario:
    """A read-back of a plan and a representative's name, with the author's own changes and
    a price question whose example names a plan."""
    slots = {
        "plan": {"type": "enum", "values": ["振袖", "浴衣"], "nouns": ["プラン"], "prompt": "?"},
        "name": {"type": "text", "kind": "person_name", "nouns": ["代表者"], "prompt": "?"},
    }
    changes = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
            "target": f"ask_{slot}",
            "clear_slots": [slot],
        }
        for intent, slot in (("change_plan", "plan"), ("change_name", "name"))
    ]
    nodes: list[dict[str, Any]] = [
        {"id": "ask_plan", "collect_slots": ["plan"], "default_next": "ask_name"},
        {"id": "ask_name", "collect_slots": ["name"], "default_next": "confirm"},
        {"id": "confirm", "accept_slots": ["plan", "name"], "next_nodes": changes},
    ]
    intents = {
        "change_plan": {"examples": ["プランを変更したい"]},
        "change_name": {"examples": ["名前を変更したい"]},
        "ask_price": {"examples": ["振袖のプランはいくらかかりますか？"]},
    }
    graph = make_graph(nodes, language="ja", slots=slots, intents=intents)
    return Scenario.from_dict(graph)


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("振袖だと歩きにくそうなので、もっと軽装のにしときたいかな", "change_plan"),
        ("代表者は私じゃなくて、姉に替わってもらいたいんです", "change_name"),
        ("代表者を姉に替えてください", "change_name"),
    ],
)
def test_a_change_at_a_read_back_told_with_a_reason(said: str, intent: str) -> None:
    filled = {"plan": "振袖", "name": "山田花子"}
    assert analyse(_kimono_read_back(), "confirm", said, None, filled).intent == intent


@pytest.mark.parametrize(
    ("said", "asks"),
    [
        ("もっと軽装のにしときたいかな", False),
        ("今日は行こうかな", False),
        ("どれがいいかな", True),
        ("これでどうかな", True),
    ],
)
def test_musing_on_what_one_wants_asks_nothing(said: str, asks: bool) -> None:
    assert is_question(said, "ja") is asks


@pytest.mark.parametrize(
    ("said", "withdraws"),
    [
        ("すみません、この話はなかったことにしてもらえますか", True),
        ("なかったことにしてください", True),
        ("昨日のことはなかったことにしたい", False),
    ],
)
def test_a_withdrawal_asked_as_a_favour(said: str, withdraws: bool) -> None:
    assert ends_in_withdrawal(said, "ja") is withdraws


def test_a_price_in_banknotes_is_the_price_question() -> None:
    said = "ぶっちゃけ、全部込みだと諭吉さん何人くらい飛んでいきます？"
    assert analyse(greeting("ja"), "start", said, None).intent == "ask_price"


@pytest.mark.parametrize(
    ("language", "said", "chats"),
    [
        ("ko", "저번에 다른 데서 찍었는데 너무 어색하게 나와서 속상했어요", True),
        ("ja", "前に別のお店で着たら、すごく苦しかったです。", True),
        ("en", "Last time I had it tuned somewhere else, it was awful!", True),
        ("ko", "저번에 예약한 거 취소할게요", False),
        ("ja", "前回と同じ時間でお願いします", False),
        ("en", "Last time you were late, can we do 9 this time", False),
    ],
)
def test_an_anecdote_of_a_past_visit_is_small_talk(language: str, said: str, chats: bool) -> None:
    assert is_small_talk(said, language) is chats
