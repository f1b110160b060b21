"""The right slot or none: what may be written, when, and asking before abandoning a
confirmation."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from dialogkit import Engine, Session
from dialogkit.nlu._discipline import admit
from dialogkit.nlu._kinds import slot_labels
from dialogkit.scenario.model import Slot
from tests.helpers import make_graph


def when(field: str, operator: str, value: Any = None, **rest: Any) -> dict[str, Any]:
    """A transition on one condition."""
    condition = {"field": field, "operator": operator}
    if value is not None:
        condition["value"] = value
    return {"condition": condition, **rest}


def end(node_id: str, reply: str = "") -> dict[str, Any]:
    """A terminal node."""
    node: dict[str, Any] = {"id": node_id, "description": node_id, "terminal": True}
    if reply:
        node["responses"] = {"default": reply}
    return node


USER = {"date_time": "2026-11-23T10:00:00+09:00", "timezone": "Asia/Seoul"}


def card(engine: Engine) -> Session:
    return engine.start("card_issuance", user=USER)


def info_slots(session: Session) -> dict[str, Any]:
    return dict(session.info().slots)


def test_an_off_topic_question_with_a_day_word_leaves_the_birth_date(engine: Engine) -> None:
    session = card(engine)
    for text in ("체크카드요", "김민수입니다", "1990년 5월 17일이요"):
        session.send(text)
    for question in ("오늘 몇 시까지 해요?", "내일 배송 되나요?", "tomorrow?"):
        reply = session.send(question)
        assert reply.current_node == "ask_phone"
        assert info_slots(session)["birth_date"] == "1990-05-17"


@pytest.mark.parametrize(
    ("step", "text", "slot"),
    [
        (1, "이름 꼭 말해야 돼요?", "name"),
        (1, "이름은 왜요", "name"),
        (4, "배송은 언제 와요?", "address"),
        (4, "주소 꼭 말해야 하나요", "address"),
    ],
)
def test_a_question_or_a_remark_about_the_slot_is_not_its_value(
    engine: Engine, step: int, text: str, slot: str
) -> None:
    session = card(engine)
    answers = ["체크카드요", "김민수입니다", "1990년 5월 17일이요", "010-1234-5678"]
    for answer in answers[:step]:
        session.send(answer)
    before = info_slots(session)
    reply = session.send(text)
    assert slot not in info_slots(session)
    assert info_slots(session) == before
    assert reply.current_node == ("ask_name" if slot == "name" else "ask_address")


def test_a_label_before_the_value_is_dropped(engine: Engine) -> None:
    session = card(engine)
    for text in ("체크카드요", "김민수입니다", "1990년 5월 17일이요", "010-1234-5678"):
        session.send(text)
    session.send("주소 부산시 해운대구 센텀중앙로 55")
    assert info_slots(session)["address"] == "부산시 해운대구 센텀중앙로 55"


def test_the_listeners_own_call_sign_is_never_the_observers(engine: Engine) -> None:
    session = engine.start("call_for_fire")
    session.send("Hammer 6, grid 1100 2500, over")
    assert "observer_callsign" not in info_slots(session)
    session.send("Hammer 6, Eagle 2-4, over")
    assert info_slots(session)["observer_callsign"] == "Eagle 2-4"


NOTE_GRAPH = make_graph(
    [
        {
            "id": "pain",
            "description": "Ask about the pain.",
            "collect_slots": ["pain_note"],
            "next_nodes": [
                when("nlu.intent", "equals", "better", target="done"),
                when("slots.pain_note", "exists", target="done"),
            ],
        },
        end("done", "Noted."),
    ],
    language="ko",
    slots={"pain_note": {"type": "text", "prompt": "어디가 아프세요?"}},
    intents={"better": {"keywords": ["괜찮아졌", "나았"]}},
)


@pytest.mark.parametrize("text", ["이제 괜찮아졌어요", "다 나았어"])
def test_an_answer_the_node_reads_as_its_own_intent_is_not_also_a_note(
    engine: Engine, text: str
) -> None:
    session = engine.start(NOTE_GRAPH)
    assert session.send(text).current_node == "done"
    assert "pain_note" not in info_slots(session)


def test_a_free_answer_is_still_a_note(engine: Engine) -> None:
    session = engine.start(NOTE_GRAPH)
    session.send("무릎이 쑤셔요")
    assert info_slots(session)["pain_note"] == "무릎이 쑤셔요"


CONFIRM_GRAPH = make_graph(
    [
        {
            "id": "confirm",
            "description": "Confirm the order.",
            "accept_slots": ["size"],
            "responses": {"default": "A {size} coffee. Shall I place it?"},
            "next_nodes": [
                when("nlu.entities.size", "exists", target="confirm"),
                when("nlu.intent", "equals", "affirm", target="placed"),
            ],
        },
        end("placed", "Placed."),
        end("cancelled", "Cancelled."),
    ],
    slots={"size": {"type": "enum", "values": ["small", "large"]}},
    global_transitions=[
        when("nlu.intent", "equals", "goodbye", target="cancelled", reason="cancelled")
    ],
)


def confirm(engine: Engine) -> Session:
    session = engine.start(CONFIRM_GRAPH)
    session.send("small")
    return session


@pytest.mark.parametrize(
    "text", ["no wait, make that large", "No, I meant large", "not small but large"]
)
def test_a_correction_replaces_the_slot_and_is_read_back(engine: Engine, text: str) -> None:
    session = confirm(engine)
    reply = session.send(text)
    assert reply.current_node == "confirm"
    assert info_slots(session)["size"] == "large"
    assert "A large coffee" in reply.response


@pytest.mark.parametrize("text", ["yes please", "sure, go ahead", "yeah that's right"])
def test_confirmation_forms_confirm(engine: Engine, text: str) -> None:
    assert confirm(engine).send(text).current_node == "placed"


def test_thanks_and_goodbye_at_a_confirmation_is_asked_about_once(engine: Engine) -> None:
    session = confirm(engine)
    reply = session.send("thanks, bye")
    assert reply.current_node == "confirm" and not reply.session_complete
    assert "goodbye" in reply.response
    assert session.send("goodbye").current_node == "cancelled"


def test_a_plain_goodbye_at_a_confirmation_cancels(engine: Engine) -> None:
    assert confirm(engine).send("goodbye").current_node == "cancelled"


def test_a_turn_that_falls_back_writes_no_slot(engine: Engine) -> None:
    graph = make_graph(
        [
            {
                "id": "ask",
                "description": "Ask.",
                "accept_slots": ["size"],
                "next_nodes": [
                    {
                        "condition": {
                            "field": "nlu.intent",
                            "operator": "equals",
                            "value": "affirm",
                        },
                        "target": "end",
                    }
                ],
            },
            end("end"),
        ],
        slots={"size": {"type": "enum", "values": ["small", "large"]}},
    )
    session = engine.start(graph)
    reply = session.send("large is what my friend had")
    assert reply.current_node == "ask"
    assert "size" not in info_slots(session)


def test_plausible_birth_dates() -> None:
    today = date(2026, 11, 23)
    birth = Slot(type="date")

    def admitted(value: str) -> bool:
        return admit("birth_date", birth, value, question=False, asked=True, today=today) == value

    assert admitted("1990-05-17")
    assert not admitted("2026-11-23")
    assert not admitted("2026-11-24")
    assert not admitted("1850-01-01")
    assert not admitted("1896-11-23")
    assert not admitted("not a date")


def test_admit_by_type() -> None:
    name = Slot(type="text", pattern=r"(?P<value>\w+)")
    sign = Slot(type="pattern", pattern=r"(?P<value>[a-z]+ \d)")
    assert slot_labels("birth_date", Slot(type="date")) == slot_labels(
        "x", Slot(type="date", kind="birth_date")
    )
    assert "call sign" in slot_labels("observer", Slot(type="pattern", nouns=["call sign"]))
    assert admit("name", name, "이름", question=False, asked=True) is None
    assert admit("name", name, "김민수", question=False, asked=True) == "김민수"
    assert admit("name", name, "김민수", question=True, asked=True) is None
    own = ["You are Hammer 6, the fire direction center."]
    assert admit("callsign", sign, "Hammer 6", question=False, asked=True, own=own) is None
    assert admit("callsign", sign, "Eagle 2", question=False, asked=True, own=own) == "Eagle 2"
    enum = Slot(type="enum", values=["a"])
    assert admit("x", enum, "a", question=False, asked=False) == "a"
    assert admit("x", enum, "a", question=True, asked=True) is None
    assert admit("x", Slot(type="date"), "2026-01-01", question=True, asked=False) is None


def test_admit_refuses_pronouns_meta_remarks_and_implausible_values() -> None:
    name = Slot(type="text", pattern=r"(?P<value>\w+)")
    address = Slot(type="text", pattern=r"(?P<value>.+)")
    assert admit("name", name, "저는", question=False, asked=True) is None
    assert admit("name", name, "I", question=False, asked=True) is None
    assert admit("address", address, "회사로 보내 주세", question=False, asked=True) is None
    assert admit("address", address, "주소는 왜 알려 줘야 돼요", question=False, asked=True) is None
    assert (
        admit("address", address, "서울시 강남구 역삼동", question=False, asked=True)
        == "서울시 강남구 역삼동"
    )
    assert admit("address", address, "東京都渋谷区神南1-2", question=False, asked=True)
    phone = Slot(type="phone")
    assert admit("phone", phone, "0101234", question=False, asked=True) is None
    assert admit("phone", phone, "010-1234-5678", question=False, asked=True) == "010-1234-5678"


@pytest.mark.parametrize("said", ["あ", "あっ", "えっと", "あの", "um", "Oh"])
def test_an_interjection_is_never_a_name(said: str) -> None:
    name = Slot(type="text", pattern=r"(?P<value>\w+)")
    assert admit("guest_name", name, said, question=False, asked=True) is None
    assert admit("guest_name", name, "あさみ", question=False, asked=True) == "あさみ"


def test_a_pattern_that_reads_an_interjection_as_a_name_writes_nothing(engine: Engine) -> None:
    """A name pattern that takes any word before a comma (the Japanese example's, before it
    learnt interjections) still never writes "あ": the name is asked again."""
    ask = {"id": "ask", "description": "Ask the name.", "collect_slots": ["guest_name"]}
    ask["default_next"] = "end"
    pattern = r"^(?P<value>[ぁ-ゖ一-龯]{1,10}?)(?=です|、|$)"
    slots = {"guest_name": {"type": "text", "prompt": "お名前は？", "pattern": pattern}}
    end = {"id": "end", "description": "End.", "terminal": True}
    session = engine.start(make_graph([ask, end], slots=slots, language="ja"))
    reply = session.send("あ、やっぱり4人でお願いします")
    assert reply.current_node == "ask" and "guest_name" not in session.info().slots
    assert session.send("山田です").current_node == "end"
    assert session.info().slots["guest_name"] == "山田"


def medication_graph(language: str, size_values: list[str]) -> dict[str, Any]:
    """Ask a yes/no question, then confirm a size that a correction may change."""
    return make_graph(
        [
            {
                "id": "ask",
                "description": "Ask about the medicine.",
                "collect_slots": ["took"],
                "default_next": "size",
            },
            {
                "id": "size",
                "description": "Ask the size.",
                "collect_slots": ["size"],
                "default_next": "confirm",
            },
            {
                "id": "confirm",
                "description": "Confirm.",
                "accept_slots": ["size"],
                "responses": {"default": "[{size}]?"},
                "next_nodes": [
                    when("nlu.entities.size", "exists", target="confirm"),
                    {
                        "condition": {
                            "field": "nlu.intent",
                            "operator": "equals",
                            "value": "affirm",
                        },
                        "target": "done",
                    },
                    when("nlu.intent", "equals", "deny", target="size", clear_slots=["size"]),
                ],
            },
            end("done"),
        ],
        language=language,
        slots={
            "took": {"type": "boolean", "prompt": "?"},
            "size": {"type": "enum", "values": size_values, "prompt": "?"},
        },
    )


@pytest.mark.parametrize(
    ("language", "sizes", "answers", "took", "final"),
    [
        (
            "ja",
            ["スモール", "ラージ"],
            [
                "飲んでないです",
                "ラージ",
                "いや、ラージじゃなくてスモール",
                "はい、それでお願いします",
            ],
            False,
            "スモール",
        ),
        (
            "ja",
            ["スモール", "ラージ"],
            ["はい、飲みました", "スモール", "うん、そうです"],
            True,
            "スモール",
        ),
        (
            "ja",
            ["スモール", "ラージ"],
            ["忘れました", "スモール", "ええ、お願いします"],
            False,
            "スモール",
        ),
        (
            "en",
            ["small", "large"],
            ["I forgot", "large", "no wait, make that small", "yes please"],
            False,
            "small",
        ),
        ("en", ["small", "large"], ["yes I did", "small", "yeah that's right"], True, "small"),
        ("en", ["small", "large"], ["haven't yet", "small", "sure, go ahead"], False, "small"),
        (
            "ko",
            ["작은 거", "큰 거"],
            ["까먹었어요", "큰 거", "아니 큰 거 말고 작은 거", "네 그걸로 할게요"],
            False,
            "작은 거",
        ),
        ("ko", ["작은 거", "큰 거"], ["네 먹었어요", "작은 거", "ㅇㅇ 맞아요"], True, "작은 거"),
        (
            "ko",
            ["작은 거", "큰 거"],
            ["밥은 먹었는데 약은 깜빡했어", "작은 거", "예 그렇게 해 주세요"],
            False,
            "작은 거",
        ),
    ],
)
def test_negation_corrections_and_confirmations_in_each_language(
    engine: Engine,
    language: str,
    sizes: list[str],
    answers: list[str],
    took: bool,
    final: str,
) -> None:
    session = engine.start(medication_graph(language, sizes))
    replies = [session.send(answer) for answer in answers]
    assert replies[-1].current_node == "done"
    assert info_slots(session) == {"took": took, "size": final}
    if len(answers) == 4:
        assert replies[2].current_node == "confirm" and f"[{final}]" in replies[2].response


@pytest.mark.parametrize("text", ["いいえ、違います", "nope", "아뇨 틀렸어요"])
def test_a_no_at_the_confirmation_asks_again(engine: Engine, text: str) -> None:
    session = engine.start(medication_graph("en", ["small", "large"]))
    session.send("yes")
    session.send("small")
    assert session.send(text).current_node == "size"
    assert "size" not in info_slots(session)
