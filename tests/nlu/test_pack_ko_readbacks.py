"""Korean pack data for read-backs, "nothing to add", and help / repeat / goodbye in other
words: a read-back confirmed ("다 맞아요", "그대로 진행해 주세요") is a yes, one with a
mistake ("한 군데 틀렸어요") a no; a question ("정확해요?") or a negated form ("정확하지
않아요") is never taken as a yes."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import says_nothing
from tests.nlu.reading import analyse, nothing_to_add, read_back_scenario

FILLED: dict[str, Any] = {"time": "15:00", "name": "김민수"}


def scenario(*, note_denies: bool = False) -> Scenario:
    return read_back_scenario(
        "ko",
        ("요청사항 있으세요?", "성함이 어떻게 되세요?", "몇 시로 할까요?"),
        note_denies=note_denies,
    )


SCENARIO = scenario()


def read_back(text: str) -> str | None:
    return analyse(SCENARIO, "confirm", text, None, FILLED).intent


@pytest.mark.parametrize(
    "text",
    [
        "다 맞아요",
        "네 다 맞아요",
        "정확해요",
        "정확합니다",
        "정확하네요",
        "모두 정확합니다",
        "완벽해요",
        "완벽해요 그대로 해 주세요",
        "문제없어요 진행해 주세요",
        "네 문제없어요",
        "틀린 거 없어요",
        "틀린 거 하나도 없어요",
        "고칠 게 없어요",
        "수정할 거 없어요",
        "그대로 진행해 주세요",
        "이대로 진행할게요",
        "딱 맞아요",
        "맞게 적으셨어요",
        "제대로 들어갔네요",
        "확정해 주세요",
        "네 그걸로 확정해 주세요",
        "그대로 두세요",
        "바꾸지 말고 그대로 둬 주세요",
    ],
)
def test_a_confirmed_read_back_is_a_yes(text: str) -> None:
    assert read_back(text) == "affirm"


@pytest.mark.parametrize(
    "text",
    [
        "하나 잘못 들어갔어요",
        "뭔가 다르게 적혔어요",
        "한 군데 틀렸어요",
        "틀린 부분이 있어요",
        "제가 말한 거랑 달라요",
        "그렇게 말 안 했어요",
        "그렇게 말한 적 없어요",
        "수정할 게 있어요",
        "고칠 게 있어요",
        "정정할 게 있어요",
        "잘못 적으셨어요",
        "잘못 들으신 것 같아요",
        "뭔가 섞인 것 같아요",
        "뭔가 이상해요",
        "정확하지 않아요",
        "맞지 않아요",
        "다 맞지는 않아요",
        "날짜는 문제없는데 시간이 틀렸어요",
        "다 맞아요 근데 이름이 틀렸어요",
        "날짜는 맞지만 이름이 틀렸어요",
    ],
)
def test_a_read_back_with_a_mistake_is_a_no(text: str) -> None:
    assert read_back(text) == "deny"


@pytest.mark.parametrize(
    "text", ["다 맞아요?", "정확해요?", "정확한가요?", "틀린 거 없죠?", "확정된 건가요?"]
)
def test_a_question_about_the_read_back_is_no_yes(text: str) -> None:
    assert read_back(text) != "affirm"


@pytest.mark.parametrize("text", ["완벽하지 않아요", "안 정확해요", "정확하지 않아요"])
def test_a_negated_yes_is_no_yes(text: str) -> None:
    assert read_back(text) != "affirm"


@pytest.mark.parametrize("text", ["완벽한 날씨네요", "오늘 날씨 정말 좋네요"])
def test_small_talk_confirms_nothing(text: str) -> None:
    assert read_back(text) != "affirm"


def test_a_yes_that_changes_the_time_is_no_confirmation() -> None:
    result = analyse(SCENARIO, "confirm", "네 근데 시간은 오후 4시로 해 주세요", None, FILLED)
    assert result.intent is None
    assert result.entities.get("time") == "16:00"


def test_the_korean_yes_examples_stay_mostly_requests() -> None:
    """A yes is an action (``_is_action``: at least half its examples are requests), so a
    question ("정확해요?") never confirms: the Korean examples keep that share on their own."""
    from dialogkit.nlu._morphology import normalize
    from dialogkit.nlu.lang import PACKS, pattern

    wishes = pattern("", "wishes", lambda p: p.wishes)
    examples = PACKS["ko"].intents["affirm"][0]
    assert 2 * sum(bool(wishes.search(normalize(e))) for e in examples) >= len(examples)


NOTHING = [
    "따로 없어요",
    "특별히 부탁할 건 없어요",
    "추가할 건 없어요",
    "더 할 말 없어요",
    "더 이상 없어요",
    "그게 다예요",
    "이게 전부예요",
    "그걸로 끝이에요",
    "딱히 생각나는 건 없어요",
    "특별한 요청은 없어요",
    "요청사항은 따로 없어요",
    "딱히 없는 것 같아요",
    "괜찮아요 없어요",
    "별다른 건 없어요",
    "덧붙일 건 없어요",
    "지금은 없어요",
    "전달할 말씀은 없어요",
]


@pytest.mark.parametrize("text", NOTHING)
def test_nothing_to_add_is_a_no_where_a_transition_takes_it_else_the_note(text: str) -> None:
    assert says_nothing(text, "ko")
    nothing_to_add(scenario, text)


@pytest.mark.parametrize(
    "text",
    ["주차 공간이 없어요", "알레르기가 있어요", "시간이 없어서 빨리 해 주세요", "다른 건 없나요?"],
)
def test_a_note_or_a_question_is_not_nothing(text: str) -> None:
    result = analyse(scenario(note_denies=True), "ask_note", text, "note")
    assert result.intent != "deny"


def at_name(text: str) -> str | None:
    return analyse(SCENARIO, "ask_name", text, "name").intent


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("놓쳤어요", "repeat"),
        ("방금 놓쳤어요", "repeat"),
        ("방금 말씀을 놓쳤어요", "repeat"),
        ("잘 안 들렸어요", "repeat"),
        ("잘 안 들려요", "repeat"),
        ("시끄러워서 못 알아들었어요", "repeat"),
        ("다시요?", "repeat"),
        ("죄송한데 다시 한 번만요", "repeat"),
        ("한 번만 다시 얘기해 주세요", "repeat"),
        ("소리가 끊겨서요", "repeat"),
        ("뭐라고 답해야 할지 모르겠어요", "help"),
        ("뭐라고 해야 돼요?", "help"),
        ("여기서 뭐라고 말해야 해요?", "help"),
        ("어떻게 대답해야 하죠?", "help"),
        ("어떻게 하는 거예요?", "help"),
        ("좀 헷갈리네요", "help"),
        ("이해가 안 돼요", "help"),
        ("무슨 말인지 모르겠어요", "help"),
        ("뭘 해야 할지 모르겠어요", "help"),
        ("이제 가 봐야 해요 안녕히 계세요", "goodbye"),
        ("오늘은 여기까지 할게요", "goodbye"),
        ("오늘은 이만 할게요", "goodbye"),
        ("이만 가볼게요", "goodbye"),
        ("바빠서 끊어야겠어요", "goodbye"),
        ("급한 일이 생겨서 끊어야 할 것 같아요", "goodbye"),
        ("다음에 다시 연락드릴게요", "goodbye"),
        ("그럼 이만", "goodbye"),
        ("이만 끊겠습니다", "goodbye"),
        ("먼저 끊을게요", "goodbye"),
        ("그럼 다음에 다시 올게요", "goodbye"),
        ("알겠어요, 또 올게요", "goodbye"),
    ],
)
def test_repeat_help_and_goodbye_in_other_words(text: str, intent: str) -> None:
    assert at_name(text) == intent


@pytest.mark.parametrize(
    "text",
    [
        "버스를 놓쳤어요",
        "이만 원이에요",
        "잘 모르겠어요",
        "헷갈리지 않아요",
        "여기까지 얼마나 걸려요?",
        "다음에 다시 연락하면 되나요?",
        "이만 끊으면 되나요?",
        "다음에 올게요 하면 예약이 취소되나요?",
    ],
)
def test_no_repeat_help_or_goodbye_in_other_sentences(text: str) -> None:
    assert at_name(text) not in ("repeat", "help", "goodbye")


def test_a_value_said_with_a_yes_word_inside_is_no_yes() -> None:
    result = analyse(SCENARIO, "ask_time", "3시 딱 맞춰 갈게요", "time")
    assert result.intent != "affirm"
    assert result.entities.get("time") == "03:00"
