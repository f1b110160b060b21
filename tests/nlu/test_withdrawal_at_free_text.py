"""A withdrawal said at a step that asks for a text value (a note, a description, a name)
reaches the scenario's cancel intent and leaves the slot empty: "Scrap that, I'm selling
the car" is no car, "됐어요, 안 할래요" no name, "もういいです、やめておきます" no note. A note
that only holds such a word ("please cancel the extra towels", "drop it at the front desk",
"キャンセル待ちでお願いします") is still the note."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._acts import ends_in_withdrawal, is_withdrawal
from dialogkit.nlu._rules import RuleIndex
from tests.helpers import ROOT, make_graph
from tests.nlu.reading import analyse

CANCEL: dict[str, dict[str, list[str]]] = {
    # The scenario's own words: none of them is a phrase of the packs' withdrawal group
    # but the first keyword, so the cancel intent is found by what it means, not its name.
    "en": {
        "examples": ["cancel my reservation", "I don't want to stay anymore"],
        "keywords": ["never mind"],
    },
    "ko": {"examples": ["예약 취소해 주세요", "예약 그만할래요"], "keywords": ["안 할게요"]},
    "ja": {"examples": ["予約を取り消してください", "やっぱりやめます"], "keywords": ["取り消"]},
}
FAQ: dict[str, dict[str, list[str]]] = {
    "en": {"examples": ["when is check-in?", "what time can I check in?"]},
    "ko": {"examples": ["체크인은 몇 시예요?", "몇 시부터 들어갈 수 있어요?"]},
    "ja": {"examples": ["チェックインは何時ですか？", "何時から入れますか？"]},
}


def _on(intent: str, target: str) -> dict[str, Any]:
    return {
        "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
        "target": target,
    }


def hotel(language: str, *, cancel: bool = True, goodbye: bool = False) -> Scenario:
    """A name step, a free note step and the end, with a cancel intent (or none, or only the
    built-in goodbye) that any step may take."""
    nodes: list[dict[str, Any]] = [
        {
            "id": "ask_name",
            "description": "Ask the name.",
            "collect_slots": ["name"],
            "default_next": "ask_note",
        },
        {
            "id": "ask_note",
            "description": "Ask for a note.",
            "collect_slots": ["note"],
            "default_next": "done",
        },
        {"id": "done", "description": "Booked.", "terminal": True},
        {"id": "cancelled", "description": "Cancelled.", "terminal": True},
        {"id": "bye", "description": "Goodbye.", "terminal": True},
        {"id": "faq", "description": "Check-in time.", "default_next": "ask_name"},
    ]
    intents = {"ask_checkin": FAQ[language]}
    transitions = [_on("ask_checkin", "faq")]
    if cancel:
        intents["cancel_stay"] = CANCEL[language]
        transitions.append(_on("cancel_stay", "cancelled"))
    if goodbye:
        transitions.append(_on("goodbye", "bye"))
    document = make_graph(
        nodes,
        language=language,
        slots={
            "name": {"type": "text", "kind": "person_name", "prompt": "Your name?"},
            "note": {"type": "text", "kind": "free_text", "prompt": "Any request?"},
        },
        intents=intents,
        global_transitions=transitions,
    )
    return Scenario.from_dict(document)


WITHDRAWALS = [
    ("en", "Scrap that, I'm selling the car"),
    ("en", "actually, count me out"),
    ("en", "I'll hold off on this for now"),
    ("en", "Ugh, forget the whole thing"),
    ("ko", "됐어요, 안 할래요"),
    ("ko", "그냥 안할래요"),
    ("ko", "아무래도 이번엔 접을게요"),
    ("ko", "생각해 보니 굳이 없어도 되겠네요, 없던 일로 해 주세요"),
    ("ja", "もういいです、やめておきます"),
    ("ja", "すみません、なかったことにしてください"),
    ("ja", "その件は見合わせます"),
    ("ja", "やっぱりやめます"),
]

NOTES = [
    ("en", "please cancel the extra towels"),
    ("en", "drop it at the front desk"),
    ("en", "don't bother with turndown service"),
    ("en", "a quiet room away from the lift"),
    ("ko", "취소 수수료 없는 방으로 부탁해요"),
    ("ko", "문 앞에 놓아 주세요"),
    ("ko", "조용한 방으로 해 주세요"),
    ("ja", "キャンセル待ちでお願いします"),
    ("ja", "禁煙ルームでお願いします"),
    ("ja", "辛いものはやめてください"),
]


@pytest.mark.parametrize(("language", "text"), WITHDRAWALS)
@pytest.mark.parametrize(("node", "slot"), [("ask_note", "note"), ("ask_name", "name")])
def test_a_withdrawal_at_a_text_step_is_the_cancel_intent(
    language: str, text: str, node: str, slot: str
) -> None:
    assert is_withdrawal(text, language)
    result = analyse(hotel(language), node, text, slot)
    assert result.intent == "cancel_stay", result
    assert slot not in result.entities


@pytest.mark.parametrize(("language", "text"), NOTES)
def test_a_note_that_only_holds_such_a_word_is_still_the_note(language: str, text: str) -> None:
    assert not is_withdrawal(text, language)
    result = analyse(hotel(language), "ask_note", text, "note")
    assert result.intent is None, result
    assert result.entities.get("note") == text


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "scrap that?"),
        ("en", "can I forget it and come back later?"),
        ("ko", "안 할래요?"),
        ("ja", "やめますか？"),
    ],
)
def test_a_withdrawal_asked_is_no_withdrawal(language: str, text: str) -> None:
    assert not is_withdrawal(text, language)


@pytest.mark.parametrize(
    ("language", "text", "ends"),
    [
        ("ja", "やっぱり今回は変更しないことにします", True),
        ("ko", "신청 안 할래요", True),
        ("en", "drop it at the front desk", False),
        ("en", "don't bother with turndown service", False),
    ],
)
def test_a_withdrawal_may_name_what_it_withdraws_before_its_verb(
    language: str, text: str, ends: bool
) -> None:
    """A verb-final withdrawal names its object first ("변경 안 할래요"); a phrase that goes
    on ("drop it at the front desk") is used in passing."""
    assert ends_in_withdrawal(text, language) is ends
    assert not is_withdrawal(text, language)


@pytest.mark.parametrize("language", ["en", "ko", "ja"])
def test_the_cancel_intent_is_found_by_meaning_not_by_name(language: str) -> None:
    scenario = hotel(language)
    assert scenario.derived(RuleIndex).withdrawal_intent("ask_note") == "cancel_stay"


@pytest.mark.parametrize(("language", "text"), WITHDRAWALS[::4])
def test_without_a_cancel_intent_a_named_goodbye_takes_the_withdrawal(
    language: str, text: str
) -> None:
    result = analyse(hotel(language, cancel=False, goodbye=True), "ask_note", text, "note")
    assert result.intent == "goodbye"
    assert "note" not in result.entities


@pytest.mark.parametrize(("language", "text"), WITHDRAWALS[::4])
def test_without_any_way_out_the_text_is_kept(language: str, text: str) -> None:
    """A scenario with no use for a withdrawal (no cancel intent, no goodbye it tests)
    changes nothing: the answer stays the value it was."""
    result = analyse(hotel(language, cancel=False), "ask_note", text, "note")
    assert result.intent != "goodbye"
    assert result.entities.get("note")  # as before: "됐어요, 안 할래요" keeps what follows the no


@pytest.mark.parametrize(("language", "text"), WITHDRAWALS[::3])
def test_the_session_ends_cancelled_with_the_note_empty(language: str, text: str) -> None:
    engine = Engine()
    try:
        scenario = hotel(language)
        session = engine.start(scenario, bot_first=True)
        name = {"en": "Emma Johnson", "ko": "김민준이에요", "ja": "山田太郎です"}[language]
        assert session.send(name).current_node == "ask_note"
        reply = session.send(text)
        assert reply.current_node == "cancelled"
        assert reply.session_complete
    finally:
        engine.portal.close()


@pytest.mark.parametrize(("language", "text"), NOTES)
def test_the_session_stores_the_note(language: str, text: str) -> None:
    engine = Engine()
    try:
        session = engine.start(hotel(language), bot_first=True)
        name = {"en": "Emma Johnson", "ko": "김민준이에요", "ja": "山田太郎です"}[language]
        assert session.send(name).current_node == "ask_note"
        assert session.send(text).current_node == "done"
    finally:
        engine.portal.close()


def _example(name: str) -> Scenario:
    path = ROOT / "docs" / "examples" / f"{name}.json"
    return Scenario.from_dict(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("scenario", "node", "slot", "text", "intent"),
    [
        ("car_service", "ask_vehicle", "vehicle", "Scrap that, I'm selling the car", "cancel"),
        ("car_service", "ask_name", "name", "actually, count me out", "cancel"),
        ("hotel_change_ja", "ask_note", "note", "もういいです、やめておきます", "cancel_request"),
        ("hotel_change_ja", "welcome", "guest_name", "その件は見合わせます", "cancel_request"),
        ("optician_ko", "ask_note", "note", "됐어요, 안 할래요", "cancel"),
        ("salon_ko", "ask_name", "customer_name", "아무래도 이번엔 접을게요", "cancel_booking"),
    ],
)
def test_the_example_scenarios_take_their_own_cancel(
    scenario: str, node: str, slot: str, text: str, intent: str
) -> None:
    result = analyse(_example(scenario), node, text, slot)
    assert result.intent == intent
    assert slot not in result.entities


def test_a_scenario_whose_cancel_words_are_not_the_packs_still_gets_the_withdrawal() -> None:
    """card_issuance's cancel says "취소", "그만", "필요 없어": "없던 일로 해 주세요" at the name
    step was stored as the name "없던"."""
    path = ROOT / "scenarios" / "card_issuance.json"
    scenario = Scenario.from_dict(json.loads(path.read_text(encoding="utf-8")))
    text = "생각해 보니 굳이 없어도 되겠네요, 없던 일로 해 주세요"
    result = analyse(scenario, "ask_name", text, "name")
    assert result.intent == "cancel"
    assert "name" not in result.entities


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("language", "said"),
    [("ja", "あ" * 3000 + "x"), ("ko", "어" * 3000 + "x"), ("en", "mm" * 1500 + "x")],
)
def test_a_long_run_of_hesitations_is_read_at_once(language: str, said: str) -> None:
    # Hesitations that overlap ("あ", "ああ") may open a withdrawal: a backtracking engine
    # tries every way to split them (about 0.6 s for 28 characters, doubling every two more).
    started = time.perf_counter()
    assert not is_withdrawal(said, language) and not ends_in_withdrawal(said, language)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    "text",
    ["On second thought, I'll pass — sorry for wasting your time.", "I'll pass – thanks anyway"],
)
def test_a_dash_ends_a_clause_as_a_comma_does(text: str) -> None:
    assert is_withdrawal(text, "en")


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Sorry, my friends just bailed on me, so scratch all of it."),
        ("en", "Hmm, I'd rather not go ahead with this at all."),
        ("en", "We'll sort something else out, thanks anyway."),
        ("ko", "아 번호까지 알려 드려야 해요? 그럼 이번엔 그냥 패스할게요."),
        ("ko", "아 생각해 보니 굳이 갈 일이 아니네요. 없던 걸로 치죠 뭐."),
        ("ja", "家族が車で送ってくれることになったので、頼まなくて大丈夫です"),
        ("ja", "あ、ちょっと待って、妻がその日は仕事だって…じゃあ今回は無しで。"),
        ("ja", "家族と相談してから改めて電話します"),
        (
            "en",
            "On second thought I'm going to hold off on all of this, sorry for wasting your time.",
        ),
        ("ko", "아, 생각해 보니까 이번 달 카드값이 너무 많이 나와서... 그냥 다음 기회로 미룰게요."),
        ("ja", "今月はちょっと厳しいので、次の機会にします"),
        ("ko", "음... 다 듣고 보니까 그냥 집에 데리고 있는 게 낫겠어요. 이번엔 넘어갈게요."),
        ("en", "Actually my husband already found someone, so we won't be needing this after all."),
        ("en", "Actually, scratch all that. My brother-in-law says he'll sort it out for me."),
        ("ko", "아무래도 이번엔 접어야겠어요. 다음에 다시 전화드릴게요."),
        ("ko", "아, 남편이랑 얘기해 봤는데 이번 달은 병원 안 가기로 정했어요."),
        ("ja", "連れが急に来られなくなっちゃったんで、この話はなしでお願いします"),
    ],
)
def test_a_withdrawal_with_its_reason_is_the_cancel_intent(language: str, text: str) -> None:
    assert analyse(hotel(language), "ask_name", text, "name").intent == "cancel_stay"


def test_a_correction_that_scratches_a_value_withdraws_nothing(offline: Engine) -> None:
    """ "7 am, scratch that, make it 8 am" replaces the time; the request stands."""
    nodes: list[dict[str, Any]] = [
        {"id": "ask_time", "collect_slots": ["at"], "default_next": "done"},
        {"id": "done", "terminal": True},
        {"id": "cancelled", "terminal": True},
    ]
    intents = {"cancel_stay": CANCEL["en"]}
    document = make_graph(
        nodes,
        slots={"at": {"type": "time", "prompt": "What time?"}},
        intents=intents,
        global_transitions=[_on("cancel_stay", "cancelled")],
    )
    session = offline.start(Scenario.from_dict(document))
    reply = session.send("7 am, scratch that, make it 8 am")
    assert (reply.current_node, session.info().slots["at"]) == ("done", "08:00")
