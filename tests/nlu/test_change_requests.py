"""Asking to change a value the read-back names ("수거 시간을 좀 바꾸고 싶어요", "名前のところ、
修正をお願いしたい", "can I change the name?") is the scenario's own intent for changing
that slot, whatever its name: the one whose transition clears the slot. Without such an
intent, the read-back clears the slot and asks it again, as for "the name is wrong". A new
value said with it is the value; a negated change asks nothing."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Engine, Scenario, Session
from tests.helpers import make_graph
from tests.nlu.reading import analyse

PROMPTS = {
    "en": ("What time?", "Your name?"),
    "ko": ("몇 시로 할까요?", "성함이 어떻게 되세요?"),
    "ja": ("何時にしますか？", "お名前は？"),
}
FILLED: dict[str, Any] = {"time": "15:00", "name": "Kim"}


def read_back(language: str, *, own_changes: bool) -> Scenario:
    """A time step, a name step and a read-back; with ``own_changes`` the read-back has the
    author's own intents for changing each, named as an author might."""
    on: list[dict[str, Any]] = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "affirm"},
            "target": "end",
        },
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"},
            "target": "fix",
        },
    ]
    intents: dict[str, Any] = {}
    if own_changes:
        for intent, slot, target in (
            ("other_hour", "time", "ask_time"),
            ("rename", "name", "ask_name"),
        ):
            on.insert(
                0,
                {
                    "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
                    "target": target,
                    "clear_slots": [slot],
                },
            )
            intents[intent] = {"examples": [f"{intent} please"]}
    nodes: list[dict[str, Any]] = [
        {"id": "ask_time", "collect_slots": ["time"], "default_next": "ask_name"},
        {"id": "ask_name", "collect_slots": ["name"], "default_next": "confirm"},
        {"id": "confirm", "accept_slots": ["time", "name"], "next_nodes": on},
        {"id": "fix", "description": "Ask what to change.", "default_next": "confirm"},
        {"id": "end", "terminal": True},
    ]
    time_prompt, name_prompt = PROMPTS[language]
    slots = {
        "time": {"type": "time", "prompt": time_prompt},
        "name": {"type": "text", "kind": "person_name", "prompt": name_prompt},
    }
    return Scenario.from_dict(make_graph(nodes, language=language, slots=slots, intents=intents))


def at_read_back(offline: Engine, language: str, *, own_changes: bool) -> Session:
    """A session of ``read_back`` that has answered the time and the name."""
    session = offline.start(read_back(language, own_changes=own_changes))
    session.send("3 pm" if language == "en" else "15:00")
    session.send("Kim Minjun" if language == "en" else "김민준" if language == "ko" else "山田")
    return session


def test_the_intent_that_clears_a_slot_is_the_one_that_changes_it() -> None:
    index = read_back("en", own_changes=True).index
    assert index.changers == {"time": {"other_hour"}, "name": {"rename"}}
    # A restart clears every slot: it changes none of them ("the time is wrong" is no restart).
    document = read_back("en", own_changes=True).document.model_dump(mode="json")
    document["graph"]["global_transitions"] = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "restart"},
            "target": "ask_time",
            "clear_slots": ["time", "name"],
        }
    ]
    assert Scenario.from_dict(document).index.changers == index.changers


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("ko", "수거 시간을 좀 바꾸고 싶어요.", "other_hour"),
        ("ko", "성함이 틀렸어요", "rename"),
        ("ja", "名前のところ、修正をお願いしたいんですが", "rename"),
        ("ja", "時間を変えてもらえますか", "other_hour"),
        ("en", "Can I change the name? I picked the wrong one.", "rename"),
        ("en", "The time isn't right, can we fix that?", "other_hour"),
        ("en", "Could we push the time back?", "other_hour"),
        ("ko", "시간 좀 미룰 수 있을까요?", "other_hour"),
        ("ja", "あの、伺う時間をずらしたいんですけど。", "other_hour"),
        ("en", "No need to change the name.", None),
        ("ko", "이름은 안 바꿔도 돼요", None),
    ],
)
def test_asking_to_change_a_named_value_is_the_scenarios_change(
    language: str, said: str, intent: str | None
) -> None:
    read = analyse(read_back(language, own_changes=True), "confirm", said, None, FILLED)
    if intent is None:  # a negated change: whatever it is, it changes nothing
        assert read.intent not in {"other_hour", "rename"}
    else:
        assert read.intent == intent


def test_a_new_value_said_with_the_change_is_the_value() -> None:
    scenario = read_back("ko", own_changes=True)
    read = analyse(scenario, "confirm", "이름을 김민준으로 바꿔 주세요", None, FILLED)
    assert read.intent != "rename" and read.entities.get("name") == "김민준"


@pytest.mark.parametrize(
    ("language", "said", "node"),
    [
        ("ko", "수거 시간을 좀 바꾸고 싶어요", "ask_time"),
        ("ja", "名前を修正したいです", "ask_name"),
        ("en", "I'd like to change the time", "ask_time"),
        # The question that asks the value points at it as its label would.
        ("ja", "あ、何時に伺うかのところだけ、ちょっと後ろにずらしたいんですが", "ask_time"),
        ("ko", "몇 시에 가는지만 좀 바꿀게요", "ask_time"),
        ("en", "Can we change what time we come?", "ask_time"),
        # Nothing to change is a yes to the read-back.
        ("en", "No need to change the name, thanks", "end"),
    ],
)
def test_without_an_own_intent_the_read_back_asks_the_slot_again(
    offline: Engine, language: str, said: str, node: str
) -> None:
    reply = at_read_back(offline, language, own_changes=False).send(said)
    assert reply.current_node == node


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Nothing's wrong with the name, go ahead"),
        ("en", "The time isn't wrong"),
        ("en", "There's no mistake in the name"),
        ("ja", "名前は間違っていません"),
        ("ko", "시간 변경 없이 진행해 주세요"),
    ],
)
@pytest.mark.parametrize("own_changes", [False, True])
def test_a_value_said_not_to_be_wrong_is_kept(
    offline: Engine, language: str, said: str, own_changes: bool
) -> None:
    session = at_read_back(offline, language, own_changes=own_changes)
    session.send(said)
    assert session.info().slots.get("time") and session.info().slots.get("name")


def one_slot_read_back(
    slot: str, declared: dict[str, Any], change: dict[str, Any], language: str = "en"
) -> Scenario:
    """A step asking ``slot`` and a read-back of it whose own intent for changing it,
    ``redo``, is said by ``change``'s examples."""
    on = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "redo"},
            "target": f"ask_{slot}",
            "clear_slots": [slot],
        },
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": "affirm"},
            "target": "end",
        },
    ]
    nodes: list[dict[str, Any]] = [
        {"id": f"ask_{slot}", "collect_slots": [slot], "default_next": "confirm"},
        {"id": "confirm", "accept_slots": [slot], "next_nodes": on},
        {"id": "end", "terminal": True},
    ]
    graph = make_graph(nodes, language=language, slots={slot: declared}, intents={"redo": change})
    return Scenario.from_dict(graph)


def changed(language: str, slot: str, declared: dict[str, Any], held: Any, said: str) -> str | None:
    """The intent the rules read in ``said`` at the read-back of ``one_slot_read_back``
    holding ``held`` ("redo" when it asks to change the value)."""
    scenario = one_slot_read_back(slot, declared, {"examples": ["redo please"]}, language)
    return analyse(scenario, "confirm", said, None, {slot: held}).intent


def address_read_back() -> Scenario:
    """A read-back whose own intent for changing the address is said by its example."""
    address = {"type": "text", "kind": "address", "prompt": "Where?"}
    return one_slot_read_back(
        "address", address, {"examples": ["the address is wrong", "change the address"]}
    )


@pytest.mark.parametrize(
    ("said", "intent", "address"),
    [
        (
            "Oh wait, the address is wrong, it should be 15 Willow Court, not Oak Street.",
            None,
            "15 Willow Court",
        ),
        ("change the address to 9 Pine Road please", None, "9 Pine Road"),
        ("no, the address is wrong, we're at 9 Pine Road", None, "9 Pine Road"),
        ("the address is wrong", "redo", None),
        ("no, the address is wrong, sorry", "redo", None),
    ],
)
def test_the_change_said_with_its_new_value_is_the_value(
    said: str, intent: str | None, address: str | None
) -> None:
    """The intent that would clear the slot and ask it again is not taken when the new
    value is already said: the read-back reads it back."""
    read = analyse(address_read_back(), "confirm", said, None, {"address": "12 Oak Street"})
    assert read.intent == intent
    assert read.entities.get("address") == address


@pytest.mark.parametrize(
    "said",
    [
        "이름은 김민준 말고 박서준으로 바꿔 주세요. 그날 제 동생이 가요.",
        "이름은 김민준이 아니라 박서준이에요",
    ],
)
def test_a_name_replaced_in_the_same_breath_at_the_read_back_is_the_new_one(said: str) -> None:
    """ "X 말고 Y" and "X이 아니라 Y" name the value meant, though "아니" also says no."""
    read = analyse(read_back("ko", own_changes=True), "confirm", said, None, FILLED)
    assert read.intent is None
    assert read.entities.get("name") == "박서준"


def service_read_back() -> Scenario:
    """A read-back of an option, with the author's own intent for changing it."""
    service = {"type": "enum", "values": ["standard", "deep"], "prompt": "Which?"}
    return one_slot_read_back("service", service, {"examples": ["redo please"]})


@pytest.mark.parametrize(
    ("said", "intent", "entities"),
    [
        ("Could we swap out the standard option for something else?", "redo", {}),
        ("Could we change it to the deep clean?", None, {"service": "deep"}),
        ("the standard one is fine", None, {"service": "standard"}),
    ],
)
def test_a_change_request_may_name_the_option_it_changes(
    said: str, intent: str | None, entities: dict[str, Any]
) -> None:
    """The option the slot holds, named with a change request, is the slot to change, not
    its new value; a new option said with it is the value."""
    read = analyse(service_read_back(), "confirm", said, None, {"service": "standard"})
    assert (read.intent, read.entities) == (intent, entities)


def class_read_back(language: str) -> Scenario:
    """A read-back of a class whose options are capitalised or in the scenario's script."""
    options = {
        "en": ["Bank Heist", "Zombie Lab"],
        "ko": ["그룹", "개인"],
        "ja": ["ミニバン", "SUV"],
    }
    kind = {"type": "enum", "values": options[language], "prompt": "?"}
    return one_slot_read_back("kind", kind, {"examples": ["redo please"]}, language)


@pytest.mark.parametrize(
    ("language", "held", "said"),
    [
        ("en", "Bank Heist", "Could we do something else instead of the Bank Heist?"),
        ("en", "Bank Heist", "The Bank Heist, hmm, let's pick a different one."),
        ("ko", "그룹", "아 그 그룹은 좀 아닌 것 같아요, 다른 걸로 골라 볼게요."),
        ("ja", "ミニバン", "ミニバンじゃなくて、別のにしたいです"),
    ],
)
def test_the_option_held_said_with_another_one_wanted_is_the_change(
    language: str, held: str, said: str
) -> None:
    """ "Something else", "다른 걸로", "別のに" ask for another option than the one named,
    whatever its case."""
    read = analyse(class_read_back(language), "confirm", said, None, {"kind": held})
    assert (read.intent, read.entities) == ("redo", {})


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "we've got a wedding then, so we'll need to pick another weekend"),
        ("ko", "다른 날로 옮겨 주세요"),
        ("ja", "いつ伺うかを変えたいです"),
        ("ko", "언제 가는지를 바꾸고 싶어요"),
    ],
)
def test_a_change_request_may_name_the_date_by_the_question_that_asks_it(
    language: str, said: str
) -> None:
    date = {"type": "date", "prompt": "?"}
    scenario = one_slot_read_back("day", date, {"examples": ["redo please"]}, language)
    read = analyse(scenario, "confirm", said, None, {"day": "2026-11-28"})
    assert read.intent == "redo"


def choose_after_no(language: str) -> Scenario:
    """A read-back whose "no" leads to a step asking which value to change, with the
    author's own intent for changing each."""
    changes = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": intent},
            "target": target,
            "clear_slots": [slot],
        }
        for intent, slot, target in (
            ("other_hour", "time", "ask_time"),
            ("rename", "name", "ask_name"),
            ("renumber", "phone", "ask_phone"),
        )
    ]
    on_no = {"condition": {"field": "nlu.intent", "operator": "equals", "value": "deny"}}
    nodes: list[dict[str, Any]] = [
        {"id": "ask_time", "collect_slots": ["time"], "default_next": "ask_name"},
        {"id": "ask_name", "collect_slots": ["name"], "default_next": "ask_phone"},
        {"id": "ask_phone", "collect_slots": ["phone"], "default_next": "confirm"},
        {
            "id": "confirm",
            "responses": {"default": "{time}, {name}, {phone}?"},
            "accept_slots": ["time", "name", "phone"],
            "next_nodes": [*changes, {**on_no, "target": "which"}],
        },
        {
            "id": "which",
            "responses": {"default": "?"},
            "next_nodes": [*changes, {**on_no, "target": "confirm"}],
        },
    ]
    time_prompt, name_prompt = PROMPTS[language]
    slots = {
        "time": {"type": "time", "prompt": time_prompt},
        "name": {"type": "text", "kind": "person_name", "prompt": name_prompt},
        "phone": {"type": "text", "kind": "phone", "prompt": "?"},
    }
    intents = {
        name: {"examples": [f"{name} please"]} for name in ("other_hour", "rename", "renumber")
    }
    return Scenario.from_dict(make_graph(nodes, language=language, slots=slots, intents=intents))


def test_a_step_a_no_leads_to_that_offers_changes_and_reads_nothing_back_asks_which() -> None:
    # The read-back a "no, leave it" returns to reads the values back: it asks no "which".
    assert choose_after_no("en").index.asks_what_to_change == {"which"}


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("ja", "苗字のところです", "rename"),
        ("ja", "ケータイのほうです", "renumber"),
        ("ja", "いつ伺うかじゃなくて、何時に行くかのところです", "other_hour"),
        ("ko", "휴대폰 번호 쪽이요", "renumber"),
        ("en", "the surname", "rename"),
        ("en", "my cell number", "renumber"),
        ("en", "Is the name spelled right?", None),
    ],
)
def test_asked_which_value_to_change_naming_one_is_the_change(
    language: str, said: str, intent: str | None
) -> None:
    filled = {**FILLED, "phone": "010-1234-5678"}
    read = analyse(choose_after_no(language), "which", said, None, filled)
    assert read.intent == intent


def test_at_the_read_back_naming_a_value_changes_nothing() -> None:
    filled = {**FILLED, "phone": "010-1234-5678"}
    read = analyse(choose_after_no("ja"), "confirm", "苗字のところです", None, filled)
    assert read.intent != "rename"
