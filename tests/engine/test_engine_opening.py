"""Session creation: bot-first precedence, greetings, user fields, the opening turn."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from dialogkit import Engine, ScenarioInvalid
from dialogkit.engine.providers import OfflineRouter
from dialogkit.nlg._base import NLGRequest
from dialogkit.nlg._phrases import GREETINGS
from dialogkit.skills._base import SkillOutcome
from tests.helpers import RecordingSkills, make_graph

HELLO = {
    "id": "hello",
    "description": "Greet.",
    "responses": {"default": "Hi there!"},
    "default_next": "end",
}
END = {"id": "end", "description": "Bye.", "terminal": True}


@pytest.mark.parametrize(
    ("request_value", "graph_value", "metadata_value", "expected"),
    [
        (True, False, False, True),
        (False, True, True, False),
        (None, True, False, True),
        (None, False, True, False),
        (None, None, True, True),
        (None, None, None, False),
    ],
)
def test_bot_first_precedence(
    engine: Engine,
    request_value: bool | None,
    graph_value: bool | None,
    metadata_value: bool | None,
    expected: bool,
) -> None:
    data = make_graph([HELLO, END])
    if graph_value is not None:
        data["graph"]["bot_first"] = graph_value
    if metadata_value is not None:
        data["metadata"]["bot_first"] = metadata_value
    session = engine.start(data, bot_first=request_value)
    reply = session.initial_reply
    assert (reply.response == "Hi there!") is expected
    assert reply.turn_count == (1 if expected else 0)
    # With bot-first the opening takes the entry's first-turn transition (default_next).
    assert reply.current_node == ("end" if expected else "hello")


def test_bot_first_false_gives_an_empty_snapshot(engine: Engine) -> None:
    reply = engine.start(make_graph([HELLO, END]), bot_first=False).initial_reply
    assert (reply.response, reply.turn_count, reply.session_complete) == ("", 0, False)
    assert reply.session_id


class ScriptedNLG:
    def __init__(self, text: str | None) -> None:
        self.text = text
        self.requests: list[NLGRequest] = []

    async def generate(self, request: NLGRequest) -> str | None:
        self.requests.append(request)
        return self.text if request.kind == "greeting" else request.reference or None


class NLGRouter(OfflineRouter):
    def __init__(self, nlg: ScriptedNLG) -> None:
        super().__init__()
        self._scripted = nlg

    def nlg(self, model: str) -> ScriptedNLG:  # type: ignore[override]
        return self._scripted


def test_greeting_uses_default_verbatim_without_generating() -> None:
    nlg = ScriptedNLG("GENERATED")
    engine = Engine(router=NLGRouter(nlg), skills=RecordingSkills())
    reply = engine.start(make_graph([HELLO, END]), bot_first=True).initial_reply
    assert reply.response == "Hi there!"
    assert "greeting" not in [r.kind for r in nlg.requests]


def test_greeting_is_generated_from_the_node_when_there_is_no_default() -> None:
    nlg = ScriptedNLG("Welcome, I am your assistant.")
    engine = Engine(router=NLGRouter(nlg), skills=RecordingSkills())
    start = {"id": "start", "description": "Introduce yourself.", "default_next": "end"}
    reply = engine.start(make_graph([start, END]), bot_first=True).initial_reply
    assert reply.response == "Welcome, I am your assistant."
    assert nlg.requests[0].kind == "greeting"
    assert nlg.requests[0].node.description == "Introduce yourself."


@pytest.mark.parametrize("language", ["ko", "ja", "en", "fr"])
def test_failed_generation_falls_back_to_the_common_greeting(language: str) -> None:
    engine = Engine(router=NLGRouter(ScriptedNLG(None)), skills=RecordingSkills())
    start = {"id": "start", "description": "Introduce yourself.", "default_next": "end"}
    data = make_graph([start, END], language=language)
    reply = engine.start(data, bot_first=True).initial_reply
    assert reply.response == GREETINGS.get(language, GREETINGS["en"])


def test_the_greeting_of_a_collecting_entry_is_its_text_alone(engine: Engine) -> None:
    """The contract: the entry's ``responses.default`` is the first reply; an author who wants
    the slot asked writes the question into the greeting."""
    ask = {
        "id": "ask",
        "description": "Ask the name.",
        "responses": {"default": "Welcome!"},
        "collect_slots": ["name"],
        "default_next": "end",
    }
    data = make_graph([ask, END], slots={"name": {"type": "text", "prompt": "Your name?"}})
    session = engine.start(data, bot_first=True)
    assert session.initial_reply.response == "Welcome!"
    assert session.initial_reply.current_node == "ask"


def test_a_generated_greeting_of_a_collecting_entry_asks_for_the_first_slot(
    engine: Engine,
) -> None:
    ask = {"id": "ask", "description": "Ask the name.", "collect_slots": ["name"]}
    ask["default_next"] = "end"
    data = make_graph([ask, END], slots={"name": {"type": "text", "prompt": "Your name?"}})
    reply = engine.start(data, bot_first=True).initial_reply
    assert reply.response == f"{GREETINGS['en']} Your name?"


def test_start_node_skill_runs_before_the_greeting_and_feeds_it() -> None:
    skills = RecordingSkills(
        SkillOutcome(
            status="success", reply="Sunset is at 17:20.", context_updates={"sunset": "17:20"}
        )
    )
    engine = Engine(router=OfflineRouter(), skills=skills)
    start = {
        "id": "start",
        "description": "Tell the sunset.",
        "params": {"skill": "sun"},
        "responses": {"default": "Good evening! Sunset today: {context.sunset}."},
        "default_next": "end",
    }
    reply = engine.start(make_graph([start, END]), bot_first=True).initial_reply
    assert len(skills.calls) == 1
    assert reply.response == "Good evening! Sunset today: 17:20."
    assert engine.info(reply.session_id).context["last_skill_status"] == "success"


def test_only_sent_user_fields_are_stored(engine: Engine) -> None:
    user: dict[str, Any] = {
        "name": "Kim",
        "age": None,
        "id": "",
        "profile": {},
        "timezone": "Asia/Seoul",
        "location": {"latitude": 37.5, "longitude": 127.0, "accuracy": 5},
    }
    session = engine.start(make_graph([HELLO, END]), user=user)
    stored = session.info().context["session_user"]
    assert set(stored) == {"name", "timezone", "location", "date_time"}
    assert stored["location"] == {"latitude": 37.5, "longitude": 127.0}


def test_empty_date_time_is_filled_in_the_users_timezone(engine: Engine) -> None:
    session = engine.start(make_graph([HELLO, END]), user={"timezone": "Asia/Seoul"})
    stamp = datetime.fromisoformat(session.info().context["session_user"]["date_time"])
    assert stamp.utcoffset() is not None and stamp.utcoffset().total_seconds() == 9 * 3600


def test_sent_date_time_is_kept_and_sets_the_time_of_day(engine: Engine) -> None:
    data = make_graph([HELLO, END], language="ko")
    session = engine.start(data, user={"date_time": "2026-03-01T19:30:00+09:00"})
    context = session.info().context
    assert context["session_user"]["date_time"] == "2026-03-01T19:30:00+09:00"
    assert (context["time_of_day"], context["daypart"]) == ("evening", "저녁")


def test_invalid_graph_cannot_start_a_session(engine: Engine) -> None:
    data = make_graph([{"id": "a", "description": "A.", "default_next": "missing"}])
    with pytest.raises(ScenarioInvalid, match=r"graph.nodes\[0\].default_next"):
        engine.start(data)


def test_invalid_user_location_is_rejected(engine: Engine) -> None:
    with pytest.raises(ValueError, match="latitude"):
        engine.start(make_graph([HELLO, END]), user={"location": {"latitude": 91, "longitude": 0}})
