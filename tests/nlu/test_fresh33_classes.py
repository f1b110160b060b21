"""Classes the blind set `benchmarks/paraphrases/fresh33` showed (six new graphs, measured once
before any change): a name spelled out with its ending ("박, 준, 혁이요") or after a topic
("예약은요, …, 정하늘이에요"); a first choice given up with any verb ("기장만 줄일까
했는데요"); withdrawals ("let's knock it on the head", "예약하지 않는 걸로 할게요"); weather and
a past anecdote as small talk; being undecided between the options as a call for help;
people dropping out said with their number ("同僚が二人、急に来られなくなっちゃいまして"), or
joining though forgotten ("…따라붙는다고 했었는데 깜빡했네요"); "we're off to Egypt" as no
"off"; a phone out of use; and, asked which value to change, a value that will not do said in
a negated clause ("I can't do ten, that's when I drop the kids at school")."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import is_small_talk, is_withdrawal
from dialogkit.nlu._entities import changes_by, extract
from dialogkit.nlu._numbers import normalize, quantities
from dialogkit.scenario.model import Slot
from tests.helpers import make_graph
from tests.nlu.reading import analyse, intent_step
from tests.nlu.test_change_requests import changed, choose_after_no

NAME = Slot.model_validate({"type": "text", "kind": "person_name", "prompt": "?"})
PEOPLE = {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"}
PHONE = {"type": "text", "kind": "phone", "prompt": "?"}


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("아 네, 박준혁이라고 합니다. 박, 준, 혁이요.", "박준혁"),
        ("예약은요, 음, 제 이름으로 해 주세요. 정하늘이에요.", "정하늘"),
        ("저는요, 김민수요", "김민수"),
        ("김지은이요", "김지은"),
        ("Sarah Mitchell, M, I, T, C, H, E, L, L", "Sarah Mitchell"),
    ],
)
def test_the_name_in_an_answer_that_spells_it_or_opens_with_a_topic(said: str, name: str) -> None:
    assert extract(NAME, said, expected=True, name="customer_name") == name


@pytest.mark.parametrize(
    ("said", "chosen"),
    [
        ("어, 원래는 기장만 줄일까 했는데요, 그냥 허리 품 줄이는 걸로 해 주세요.", "품 수선"),
        ("기장만 손보려고 했는데요, 역시 품 줄이는 걸로 할게요", "품 수선"),
    ],
)
def test_a_first_thought_given_up_with_any_verb(said: str, chosen: str) -> None:
    service = {
        "type": "enum",
        "kind": "choice",
        "prompt": "?",
        "values": ["기장 수선", "품 수선", "지퍼 교체"],
        "synonyms": {"기장 수선": ["기장"], "품 수선": ["품"], "지퍼 교체": ["지퍼"]},
    }
    nodes: list[dict[str, Any]] = [
        {"id": "ask_service", "collect_slots": ["service"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    scenario = Scenario.from_dict(make_graph(nodes, language="ko", slots={"service": service}))
    assert analyse(scenario, "ask_service", said, "service").entities["service"] == chosen


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("Actually, you know what, let's knock it on the head. My ears are playing up.", "en"),
        ("Actually, I think I'll leave it for now, thanks.", "en"),
        ("아무래도 이번엔 예약하지 않는 걸로 할게요.", "ko"),
    ],
)
def test_new_withdrawals(said: str, language: str) -> None:
    assert is_withdrawal(said, language)


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("Gosh, it's turned bitterly cold out there this morning, hasn't it?", "en"),
        ("It's getting warmer today, isn't it", "en"),
        ("そういえば去年は台風で花火大会が中止になっちゃって、残念だったんですよね", "ja"),
    ],
)
def test_weather_and_a_past_anecdote_are_small_talk(said: str, language: str) -> None:
    assert is_small_talk(said, language)


@pytest.mark.parametrize(
    ("said", "language"),
    [("the oven is getting hot on Friday", "en"), ("去年と同じコースでお願いします", "ja")],
)
def test_small_talk_words_that_ask_for_something_are_no_small_talk(
    said: str, language: str
) -> None:
    assert not is_small_talk(said, language)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "I'm not really sure which one is right for me."),
        ("en", "I can't decide which one to go for"),
        ("ko", "어떤 게 저한테 맞는지 잘 모르겠어요"),
        ("ko", "뭘로 해야 할지 모르겠네요"),
    ],
)
def test_undecided_between_the_options_asks_for_help(language: str, said: str) -> None:
    plan = {"type": "enum", "kind": "choice", "values": ["basic", "full"], "prompt": "?"}
    nodes: list[dict[str, Any]] = [
        {"id": "ask_plan", "collect_slots": ["plan"], "default_next": "end"},
        {"id": "end", "terminal": True},
    ]
    help_step = {"condition": {"field": "nlu.intent", "operator": "equals", "value": "help"}}
    graph = make_graph(
        nodes,
        language=language,
        slots={"plan": plan},
        global_transitions=[{**help_step, "target": "ask_plan"}],
    )
    scenario = Scenario.from_dict(graph)
    assert analyse(scenario, "ask_plan", said, "plan").intent == "help"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "実は同僚が二人、急に来られなくなっちゃいまして"),
        ("ko", "친구 두 명이 못 오게 됐어요"),
        ("ko", "아 그러고 보니 동생네 부부도 따라붙는다고 했었는데 깜빡했네요."),
        ("en", "Oh, I forgot to mention my sister's coming along too"),
    ],
)
def test_people_dropping_out_or_joining_change_the_count(language: str, said: str) -> None:
    """The number said with the news is how many come or go, not the new count; forgetting
    to say it negates nobody's coming."""
    assert changed(language, "party", PEOPLE, 4, said) == "redo"


def test_only_the_number_next_to_the_news_drops_out() -> None:
    """ "4人ですが、一人来られなくなりました": one drops out of four; the four is a count."""
    said = normalize("4人ですが、一人来られなくなりました")
    four, one = quantities(said)
    assert not changes_by(said, four, "ja")
    assert changes_by(said, one, "ja")


@pytest.mark.parametrize(
    "said",
    [
        "My girlfriend and I are off to Egypt in the spring. Can you get us sorted?",
        "We're off on holiday next month, so I'd like to book before then",
    ],
)
def test_being_off_somewhere_is_no_no(said: str) -> None:
    book = {"book": {"examples": ["I'd like to book", "can you get me booked in"]}}
    scenario = intent_step("en", book, {"id": "next", "terminal": True})
    assert analyse(scenario, "start", said, None).intent != "deny"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "すみません、その携帯、最近落として壊れちゃって今使ってないんです"),
        ("ja", "あ、それ会社から支給されてるスマホなんで、休みの日は出られないんですよ"),
        ("ko", "그 폰 떨어뜨려서 고장 났어요"),
        ("en", "That phone got smashed last week"),
        ("en", "I don't use that mobile any more"),
    ],
)
def test_a_phone_out_of_use_asks_for_another(language: str, said: str) -> None:
    assert changed(language, "phone", PHONE, "090-1234-5678", said) == "redo"


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("I can't do ten, that's when I drop the kids at school.", "other_hour"),
        ("the name is fine, no need to change it", None),
    ],
)
def test_asked_which_value_to_change_a_value_that_will_not_do_names_its_slot(
    said: str, intent: str | None
) -> None:
    filled: dict[str, Any] = {"time": "10:00", "name": "Kim", "phone": "5551234567"}
    assert analyse(choose_after_no("en"), "which", said, None, filled).intent == intent
