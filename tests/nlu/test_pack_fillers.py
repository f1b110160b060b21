"""Hesitations and discourse fillers that open an answer, per language pack: "そうですね、高橋
美咲", "글쎄요, 김민수요", "let's see, Alex Park" give the name, never the filler; stacked
fillers all go; a filler said alone fills nothing; and a value that only begins like a filler
("まあさ", "어진호", "Erin") is kept whole."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from dialogkit import Engine, Scenario
from tests.helpers import ROOT, make_graph
from tests.nlu.reading import analyse, read_back_scenario

SLOTS: dict[str, Any] = {
    "name": {"type": "text", "kind": "person_name", "prompt": "?"},
    "note": {"type": "text", "kind": "free_text", "prompt": "?"},
    "day": {"type": "date", "prompt": "?"},
    "people": {"type": "integer", "kind": "count", "unit": "people", "prompt": "?"},
    "time": {"type": "time", "prompt": "?"},
}


@cache
def steps(language: str, slot: str) -> Scenario:
    """One step per slot, the one asking for ``slot`` first."""
    nodes: list[dict[str, Any]] = [
        {"id": f"ask_{name}", "description": "Ask.", "collect_slots": [name], "default_next": "end"}
        for name in SLOTS
    ]
    nodes.append({"id": "end", "description": "End.", "terminal": True})
    graph = make_graph(nodes, entry=f"ask_{slot}", language=language, slots=SLOTS)
    return Scenario.from_dict(graph)


def stored(engine: Engine, language: str, slot: str, text: str) -> Any:
    """What the step asking for ``slot`` writes to it when ``text`` is said (None: nothing)."""
    session = engine.start(steps(language, slot))
    session.send(text)
    return session.info().slots.get(slot)


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        # Japanese
        ("ja", "name", "そうですね、高橋美咲", "高橋美咲"),
        ("ja", "name", "そうですねえ、高橋美咲です", "高橋美咲"),
        ("ja", "name", "そうですねー、高橋です", "高橋"),
        ("ja", "name", "そうだなあ、高橋です", "高橋"),
        ("ja", "name", "まあ、高橋です", "高橋"),
        ("ja", "name", "えっとですね、高橋美咲", "高橋美咲"),
        ("ja", "name", "んー、高橋", "高橋"),
        ("ja", "name", "あのですね、高橋です", "高橋"),
        ("ja", "name", "あー、高橋です", "高橋"),
        ("ja", "note", "そうですね、窓側の部屋がいいです", "窓側の部屋がいいです"),
        ("ja", "note", "まあ、静かな部屋がいいです", "静かな部屋がいいです"),
        ("ja", "note", "えっとですね、禁煙の部屋でお願いします", "禁煙の部屋でお願いします"),
        ("ja", "people", "そうですね、3人です", 3),
        ("ja", "people", "えっとですね、二人", 2),
        ("ja", "time", "そうですね、7時ごろ", "07:00"),
        ("ja", "time", "んー、午後3時で", "15:00"),
        # Korean
        ("ko", "name", "음... 김민수", "김민수"),
        ("ko", "name", "그게요, 김민수입니다", "김민수"),
        ("ko", "name", "글쎄요, 김민수요", "김민수"),
        ("ko", "name", "저기, 이서연이요", "이서연"),
        ("ko", "name", "있잖아요, 이서연이에요", "이서연"),
        ("ko", "note", "음, 창가 자리로 부탁해요", "창가 자리로 부탁해요"),
        ("ko", "note", "그러니까요, 조용한 방이면 좋겠어요", "조용한 방이면 좋겠어요"),
        ("ko", "people", "음, 세 명이요", 3),
        ("ko", "people", "어... 두 명", 2),
        ("ko", "time", "글쎄요, 저녁 7시쯤", "19:00"),
        ("ko", "time", "흠, 오후 3시요", "15:00"),
        # English
        ("en", "name", "um, Alex Park", "Alex Park"),
        ("en", "name", "let's see, Alex Park", "Alex Park"),
        ("en", "name", "okay so, Alex Park", "Alex Park"),
        ("en", "name", "hm, it's Alex Park", "Alex Park"),
        ("en", "note", "well, a quiet room please", "a quiet room please"),
        ("en", "note", "so, near the window if possible", "near the window if possible"),
        ("en", "note", "ah, a late checkout", "a late checkout"),
        ("en", "people", "um, three", 3),
        ("en", "people", "let's see, 4 people", 4),
        ("en", "time", "hmm, around 7pm", "19:00"),
        ("en", "time", "well, 3 in the afternoon", "15:00"),
    ],
)
def test_a_filler_before_the_value_is_not_part_of_it(
    offline: Engine, language: str, slot: str, said: str, value: Any
) -> None:
    assert stored(offline, language, slot, said) == value


@pytest.mark.parametrize(
    ("language", "said", "plain"),
    [
        ("ja", "そうですね、明後日で", "明後日で"),
        ("ja", "まあ、12月3日で", "12月3日で"),
        ("ja", "うーん、来週の月曜日", "来週の月曜日"),
        ("ko", "음, 모레요", "모레요"),
        ("ko", "그게요, 다음 주 월요일이요", "다음 주 월요일이요"),
        ("ko", "글쎄요, 12월 3일이요", "12월 3일이요"),
        ("en", "hmm, next Friday", "next Friday"),
        ("en", "let's see, December 3", "December 3"),
        ("en", "okay so, the day after tomorrow", "the day after tomorrow"),
    ],
)
def test_a_filler_before_a_date_gives_the_same_day(
    offline: Engine, language: str, said: str, plain: str
) -> None:
    day = stored(offline, language, "day", plain)
    assert day is not None
    assert stored(offline, language, "day", said) == day


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        ("ja", "name", "うーん、そうですね、高橋美咲です", "高橋美咲"),
        ("ja", "name", "えっと、まあ、高橋です", "高橋"),
        ("ja", "note", "あの、そうですね、朝食付きでお願いします", "朝食付きでお願いします"),
        ("ja", "people", "うーん、そうですね、4人です", 4),
        ("ko", "name", "음, 그러니까, 김민수요", "김민수"),
        ("ko", "name", "아, 글쎄요, 김민수요", "김민수"),
        ("ko", "note", "저기, 그게요, 창가 자리로 부탁해요", "창가 자리로 부탁해요"),
        ("ko", "people", "음... 그러니까 세 명이요", 3),
        ("en", "name", "hmm, let me see, it's Alex Park", "Alex Park"),
        ("en", "name", "well, uh, Alex Park", "Alex Park"),
        ("en", "note", "um, so, a quiet room please", "a quiet room please"),
        ("en", "time", "okay so, um, around 7pm", "19:00"),
    ],
)
def test_stacked_fillers_all_go(
    offline: Engine, language: str, slot: str, said: str, value: Any
) -> None:
    assert stored(offline, language, slot, said) == value


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "そうですね"),
        ("ja", "そうですねー"),
        ("ja", "うーん"),
        ("ja", "まあ"),
        ("ja", "えっとですね"),
        ("ja", "んー"),
        ("ko", "음..."),
        ("ko", "글쎄요"),
        ("ko", "그게요"),
        ("ko", "그러니까요"),
        ("en", "um"),
        ("en", "hmm..."),
        ("en", "well"),
        ("en", "let's see"),
        ("en", "okay so"),
    ],
)
@pytest.mark.parametrize("slot", ["name", "note"])
def test_a_filler_alone_fills_nothing(offline: Engine, language: str, said: str, slot: str) -> None:
    assert stored(offline, language, slot, said) is None


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ja", "まあさです", "まあさ"),
        ("ja", "まあや", "まあや"),
        ("ja", "えとうです", "えとう"),
        ("ja", "あのんです", "あのん"),
        ("ko", "어진호입니다", "어진호"),
        ("ko", "음정민", "음정민"),
        ("ko", "아름이요", "아름"),
        ("ko", "그레이스요", "그레이스"),
        ("en", "Will Smith", "Will Smith"),
        ("en", "Sonia Reyes", "Sonia Reyes"),
        ("en", "Erin Ohara", "Erin Ohara"),
        ("en", "Wells", "Wells"),
        ("en", "Umberto Eco", "Umberto Eco"),
        ("en", "So-yeon Park", "So-yeon Park"),
        ("en", "Ahmed Khan", "Ahmed Khan"),
    ],
)
def test_a_name_that_begins_like_a_filler_is_kept_whole(
    offline: Engine, language: str, said: str, value: str
) -> None:
    assert stored(offline, language, "name", said) == value


QUESTIONS = {
    "ja": ("ご要望はありますか？", "お名前は？", "何時にしますか？"),
    "ko": ("요청사항 있으세요?", "성함이 어떻게 되세요?", "몇 시로 할까요?"),
    "en": ("Anything to add?", "Your name?", "What time?"),
}
FILLED: dict[str, Any] = {"name": "山田", "time": "15:00"}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "そうですね"),
        ("ja", "うーん、そうですね"),
        ("ja", "まあ、はい"),
        ("ja", "そうですね、お願いします"),
        ("ko", "음, 네 맞아요"),
        ("ko", "글쎄요, 네 그렇게 해 주세요"),
        ("en", "well, yes"),
        ("en", "hmm, yeah that's right"),
    ],
)
def test_a_yes_after_a_filler_is_still_a_yes(language: str, said: str) -> None:
    scenario = read_back_scenario(language, QUESTIONS[language])
    assert analyse(scenario, "confirm", said, None, dict(FILLED)).intent == "affirm"


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("ja", "はい、お願いします、ありがとう", "affirm"),
        ("ja", "はい、ありがとうございます", "affirm"),
        ("ja", "いいえ、ありがとう", "deny"),
        ("ko", "네, 감사합니다", "affirm"),
        ("en", "yes please, thanks", "affirm"),
        ("ja", "ありがとう", "thanks"),
    ],
)
def test_a_yes_or_no_said_with_thanks_is_the_answer(language: str, said: str, intent: str) -> None:
    scenario = read_back_scenario(language, QUESTIONS[language])
    assert analyse(scenario, "confirm", said, None, dict(FILLED)).intent == intent


def test_an_authors_own_example_of_thanks_stays_thanks() -> None:
    document = read_back_scenario("ja", QUESTIONS["ja"]).document.model_dump(mode="json")
    document["intents"] = {"thanks": {"examples": ["はい、ありがとう"]}}
    scenario = Scenario.from_dict(document)
    assert analyse(scenario, "confirm", "はい、ありがとう", None, dict(FILLED)).intent == "thanks"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "そうですね、高橋美咲です"),
        ("ja", "うーん、そうですね、高橋美咲です"),
        ("en", "okay so, Alex Park"),
    ],
)
def test_a_filler_before_a_name_says_no_yes(language: str, said: str) -> None:
    scenario = read_back_scenario(language, QUESTIONS[language])
    assert analyse(scenario, "ask_name", said, "name").intent is None


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "let's see"),
        ("en", "let me think"),
        ("en", "um, let me see"),
        ("en", "hmm..."),
        ("ja", "うーん"),
        ("ja", "えーと…"),
        ("ja", "そうだなあ"),
        ("ko", "음..."),
        ("ko", "그러니까..."),
        ("ko", "흠"),
    ],
)
@pytest.mark.parametrize("step", ["ask_note", "confirm"])
def test_a_hesitation_alone_means_no_intent(language: str, said: str, step: str) -> None:
    # Read for its words, "let's see" resembles "see you" and "let me think" a no.
    scenario = read_back_scenario(language, QUESTIONS[language])
    expected = "note" if step == "ask_note" else None
    read = analyse(scenario, step, said, expected, dict(FILLED))
    assert read.intent is None and "note" not in read.entities, read


def test_a_hesitation_does_not_end_the_coffee_order(offline: Engine) -> None:
    scenario = Scenario.from_file(ROOT / "docs" / "examples" / "coffee.json")
    reply = offline.start(scenario).send("let's see")
    assert not reply.session_complete and reply.current_node == "take_order"
    # ... while a hesitation before a leave-taking still takes leave.
    assert offline.start(scenario).send("hmm, bye").session_complete


@pytest.mark.parametrize("said", ["uh huh", "mm hmm", "mm-hmm", "mhm", "uh-huh, that's right"])
def test_spoken_assent_is_a_yes(said: str) -> None:
    scenario = read_back_scenario("en", QUESTIONS["en"])
    assert analyse(scenario, "confirm", said, None, dict(FILLED)).intent == "affirm"


def test_the_hotel_guest_name_after_a_filler(offline: Engine) -> None:
    scenario = Scenario.from_file(ROOT / "docs" / "examples" / "hotel_change_ja.json")
    session = offline.start(scenario)
    reply = session.send("そうですね、高橋美咲")
    assert session.info().slots["guest_name"] == "高橋美咲"
    assert reply.current_node == "ask_email"
    assert "そうですね様" not in reply.response
