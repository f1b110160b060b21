"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh6`): an
anecdote at the name step is no name, "that's different from what I said" is a no even
asked, "그대로 가시죠" is a yes and "그대로 진행하면 안 돼요" none, a list counted with "の四人",
and a change request that names a part of the day or a week is about the time or the date."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._embeddings import leaves_to_rules
from dialogkit.nlu._result import NLUResult
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_pack_fillers import stored


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Ha, my cat just knocked a glass off the table."),
        ("ko", "아 근데 상담원분 목소리가 되게 친절하시네요."),
        ("ko", "어제 비가 많이 와서 길이 막혔거든요"),
    ],
)
def test_an_anecdote_at_the_name_step_is_no_name(offline: Engine, language: str, said: str) -> None:
    assert stored(offline, language, "name", said) is None


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [("en", "Ha, Anna Smith", "Anna Smith"), ("ko", "제 이름이 김민수예요", "김민수")],
)
def test_a_name_after_a_laugh_or_in_a_sentence_is_still_read(
    offline: Engine, language: str, said: str, value: str
) -> None:
    assert stored(offline, language, "name", said) == value


def read_back(language: str) -> Scenario:
    """A read-back of a date and a time with the author's own change intents."""
    on: list[dict[str, Any]] = [
        {"condition": {"field": "nlu.intent", "operator": "equals", "value": i}, "target": t}
        for i, t in (("affirm", "end"), ("deny", "fix"))
    ]
    for intent, slot in (("move_day", "day"), ("move_hour", "hour")):
        on.append(
            {
                "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
                "target": f"ask_{slot}",
                "clear_slots": [slot],
            }
        )
    nodes: list[dict[str, Any]] = [
        {"id": "ask_day", "collect_slots": ["day"], "default_next": "ask_hour"},
        {"id": "ask_hour", "collect_slots": ["hour"], "default_next": "confirm"},
        {"id": "confirm", "accept_slots": ["day", "hour"], "next_nodes": on},
        {"id": "fix", "description": "Ask what to change.", "default_next": "confirm"},
        {"id": "end", "terminal": True},
    ]
    slots = {"day": {"type": "date", "prompt": "?"}, "hour": {"type": "time", "prompt": "?"}}
    intents = {
        "move_day": {"examples": ["move_day please"]},
        "move_hour": {"examples": ["move_hour please"]},
    }
    return Scenario.from_dict(make_graph(nodes, language=language, slots=slots, intents=intents))


FILLED = {"day": "2026-11-27", "hour": "10:00"}


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("ja", "ん？それ、私が言ったのとちょっとズレてますね", "deny"),
        ("ko", "잠깐만요, 그거 제가 말씀드린 거랑 다른데요?", "deny"),
        ("ko", "음… 제가 말한 거랑 좀 어긋나 있는 것 같은데요.", "deny"),
        ("en", "Hmm, that's different from what I said.", "deny"),
        ("ko", "흠잡을 데 없네요. 그대로 가시죠.", "affirm"),
        ("en", "Could we push it to the afternoon? Mornings are tricky.", "move_hour"),
        ("en", "We're away that whole week. Any chance we could move it?", "move_day"),
        ("ja", "その週はちょっと都合が悪いので、別の日に変えてもらえますか", "move_day"),
        ("ko", "그때는 애 학원 픽업 가야 돼서요, 좀 더 늦은 오후면 좋겠어요.", "move_hour"),
        ("ja", "お昼過ぎだと子どもが寝ちゃうので、もう少し朝のうちがいいです", "move_hour"),
        ("en", "Honestly, the afternoon would work better for me.", "move_hour"),
        ("ko", "그대로가 좋겠어요", "affirm"),
    ],
)
def test_at_a_read_back(language: str, said: str, intent: str) -> None:
    assert analyse(read_back(language), "confirm", said, None, FILLED).intent == intent


@pytest.mark.parametrize(
    "said", ["그대로 진행하면 안 돼요", "그대로 가면 안 돼요", "주말엔 안 하세요?"]
)
def test_a_prohibition_or_a_negated_question_is_no_yes_and_no_no(said: str) -> None:
    assert analyse(read_back("ko"), "confirm", said, None, FILLED).intent not in {
        "affirm",
        "deny",
    }


def test_the_people_listed_then_counted_with_no_are_the_count(offline: Engine) -> None:
    assert stored(offline, "ja", "people", "父と母と私と、あと妹の四人です") == 4


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("이삿날을 다른 날로 옮겨야 해요", True),
        ("시간을 좀 바꾸고 싶어요", True),
        ("보험은 되나요?", False),
    ],
)
def test_a_change_request_at_a_read_back_is_left_to_the_read_back(said: str, left: bool) -> None:
    """The read-back clears the slot and asks it again; the tier once took "이삿날을 다른
    날로 옮겨야 해요" for an insurance question."""
    graph = read_back("ko")
    request = NLURequest(
        scenario=graph,
        node=graph.node("confirm"),
        text=said,
        intents=graph.index.intents,
        slots=graph.index.node("confirm").slots,
        filled_slots=FILLED,
    )
    assert leaves_to_rules(request, NLUResult()) is left


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ko", "지난주에 전화로 신청해 둔 게 있는데 그게 제대로 들어갔는지 궁금해서요."),
        ("ja", "ちゃんと予約が入ったかどうか知りたいんですが"),
    ],
)
def test_wondering_whether_it_is_so_does_not_say_it_is(language: str, said: str) -> None:
    """ "제대로 들어갔" is a yes at a read-back; "…들어갔는지 궁금해서요" asks."""
    assert analyse(read_back(language), "confirm", said, None, FILLED).intent != "affirm"


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("そちらって日曜もやってます？", "ask_hours"),
        ("朝一番だと、もう受付ってやってます？", "ask_hours"),
        ("何をやってるんですか", None),
    ],
)
def test_being_open_asked_colloquially_is_the_hours_question(said: str, intent: str | None) -> None:
    step = {"id": "n", "description": "Welcome.", "terminal": True}
    hours = {"examples": ["土日も開いていますか？", "営業時間は何時までですか？"]}
    graph = Scenario.from_dict(make_graph([step], language="ja", intents={"ask_hours": hours}))
    assert analyse(graph, "n", said, None).intent == intent


def test_a_question_about_changing_a_value_is_judged() -> None:
    """ "Does moving the date cost extra?" asks; the scenario may answer it."""
    graph = read_back("ja")
    request = NLURequest(
        scenario=graph,
        node=graph.node("confirm"),
        text="日にちをずらすと追加で費用が発生しますか？",
        intents=graph.index.intents,
        slots=graph.index.node("confirm").slots,
        filled_slots=FILLED,
    )
    assert not leaves_to_rules(request, NLUResult())
