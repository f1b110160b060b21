"""Classes the blind set `benchmarks/paraphrases/fresh28` showed (six new graphs, measured once
before any change): a date read back that a plan made before and forgotten clashes with ("가기로
했었네요", "ことになってたんやった", "すっかり忘れてました", "I'd completely forgotten"); a
withdrawal that does not want to go ahead; a first thought given up ("기본으로 할까 하다가");
new yes and no wordings; undecided between the options as a request for help; choosing again
as a change; and a call back said before anything was asked for,
where the node takes leave, as a farewell ("また改めてお電話しますね。失礼します")."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import correction, ends_in_withdrawal, is_withdrawal
from dialogkit.nlu._discipline import said_wrong
from dialogkit.scenario.model import Slot
from dialogkit.scenario.scenario import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse, read_back_scenario

DATE = Slot.model_validate({"type": "date", "prompt": "?"})
TIME = Slot.model_validate({"type": "time", "prompt": "?"})
SERVICE = Slot.model_validate({"type": "enum", "values": ["家具回収", "家電回収"], "prompt": "?"})


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ko", "아 맞다, 그 목요일엔 시어머니 모시고 대학병원 가기로 했었네요."),
        ("ko", "아 그 화요일엔 시어머니가 올라오셔서 꼼짝을 못 하겠네요."),
        ("ja", "あっ、その火曜はお義母さんが泊まりに来ることになってたんやった…"),
        ("ja", "あっ、その日って子どもの運動会だったの、すっかり忘れてました"),
        ("en", "Ah, that Saturday's my niece's christening, I'd completely forgotten."),
    ],
)
def test_a_plan_made_before_clashes_with_the_date_read_back(language: str, said: str) -> None:
    held = {"date": "2026-11-27", "time": "10:00"}
    assert said_wrong(said, {"date": DATE, "time": TIME}, language, held=held) == ["date"]


def test_choosing_again_is_a_change() -> None:
    slots = {"service": SERVICE, "date": DATE}
    assert said_wrong("頼む内容を選び直させてください", slots, "ja", changes=True) == ["service"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Sorry, I don't want to go ahead with this after all."),
        ("ja", "すみません、今回はなしにしてください"),
    ],
)
def test_new_withdrawals(language: str, said: str) -> None:
    assert is_withdrawal(said, language) or ends_in_withdrawal(said, language)


def test_leaving_a_value_as_it_is_withdraws_nothing() -> None:
    # "so let's leave it" was tried as a withdrawal: a phrase is heard anywhere, so "let's
    # leave it at eleven" then called the booking off.
    scenario = read_back_scenario("en", ("?", "?", "?"))
    read = analyse(scenario, "ask_time", "Ten's a bit early, so let's leave it at eleven.", "time")
    assert read.intent is None and read.entities["time"] == "11:00", read


def test_a_first_thought_given_up_is_not_the_choice() -> None:
    assert (
        correction("어... 기본으로 할까 하다가, 그냥 종합으로 해 주세요.", "ko")
        == "종합으로 해 주세요"
    )


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "That all tallies up, you can lock it in.", "affirm"),
        ("ko", "빠진 거 하나 없이 잘 적어 주셨네요. 그날 뵐게요!", "affirm"),
        ("ko", "딱 제가 말씀드린 그대로네요. 그걸로 잡아 주세요.", "affirm"),
        ("ko", "제가 불러 드린 거랑 적으신 게 좀 엇갈린 것 같아요.", "deny"),
        ("ko", "좀 엇갈렸어요", "deny"),
    ],
)
def test_new_yes_and_no_wordings(language: str, said: str, intent: str) -> None:
    scenario = read_back_scenario(language, ("?", "?", "?"))
    assert analyse(scenario, "confirm", said, None).intent == intent


@pytest.mark.parametrize(
    "said", ["うーん、どれにすればいいのか迷っちゃって", "どれにしたらいいか…"]
)
def test_undecided_between_the_options_asks_for_help(said: str) -> None:
    scenario = read_back_scenario("ja", ("?", "?", "?"))
    assert analyse(scenario, "ask_name", said, "name").intent == "help"


def _cancel_or_leave(language: str) -> Scenario:
    """A greeting that takes leave and books, with the scenario's own cancel intent."""

    def on(intent: str, target: str) -> dict[str, Any]:
        return {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
            "target": target,
        }

    nodes: list[dict[str, Any]] = [
        {
            "id": "welcome",
            "description": "Greet.",
            "next_nodes": [on("book", "ask_day"), on("cancel", "cancelled"), on("goodbye", "bye")],
        },
        {
            "id": "ask_day",
            "description": "Ask the day.",
            "collect_slots": ["day"],
            "next_nodes": [on("cancel", "cancelled")],
            "default_next": "bye",
        },
        {"id": "cancelled", "description": "Cancelled.", "terminal": True},
        {"id": "bye", "description": "Bye.", "terminal": True},
    ]
    intents = {
        "book": {"description": "予約したい", "examples": ["予約したいです", "予約をお願いします"]},
        "cancel": {
            "description": "予約をやめる",
            "examples": ["やめます", "キャンセルします", "予約を取り消したいです"],
        },
    }
    slots = {"day": {"type": "date", "prompt": "?"}}
    return Scenario.from_dict(make_graph(nodes, language=language, slots=slots, intents=intents))


@pytest.mark.parametrize(
    ("node", "expected", "filled", "intent"),
    [
        ("welcome", None, {}, "goodbye"),
        ("ask_day", "day", {"day": "2026-11-27"}, "cancel"),
    ],
)
def test_a_call_back_before_anything_was_asked_for_takes_leave(
    node: str, expected: str | None, filled: dict[str, Any], intent: str
) -> None:
    said = "わかりました、じゃあまた改めてお電話しますね。失礼します"
    read = analyse(_cancel_or_leave("ja"), node, said, expected, filled)
    assert read.intent == intent, read
