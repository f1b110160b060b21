"""Model and skill text is cleaned before it is stored or sent: no 500, no stuck session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.sanitize import clean_text, clean_value
from dialogkit.testing.openai_server import Completion, RecordedRequest, Reply
from dialogkit.testing.openai_server import ScriptedOpenAIServer as Server
from dialogkit.testing.skill_runtime import RecordingSkillRuntime, SkillReply
from tests.helpers import RecordingSkills, make_graph
from tests.llm.conftest import make_settings, serving

DIRTY = "Hello \ud800 there\x00\x07\x1b[31m\r\nsecond\u0085line\x9b\udfff\ufffe"
CLEAN = "Hello  there[31m\nsecond\nline"


def unsafe(text: str) -> bool:
    """True when ``text`` cannot be sent as UTF-8 or holds control characters."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in text)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (DIRTY, CLEAN),
        ("  tabs\tand\nlines stay  ", "tabs\tand\nlines stay"),
        ("😀 astral characters are not surrogates", "😀 astral characters are not surrogates"),
        ("\x00\ud800\x1b", ""),
        ("안녕하세요\u200d", "안녕하세요\u200d"),
    ],
)
def test_clean_text(raw: str, expected: str) -> None:
    assert clean_text(raw) == expected


def test_a_cut_keeps_whole_words_and_the_cap() -> None:
    text = "word " * 1000
    cut = clean_text(text, 52)
    assert len(cut) <= 52
    assert cut.endswith("word")
    assert clean_text("x" * 100, 10) == "x" * 10


def test_clean_value_cleans_keys_and_nested_strings() -> None:
    data = {"a\x00": ["x\ud800", {"k": "v\x1b"}], "n": 1, "ok": "fine"}
    assert clean_value(data) == {"a": ["x", {"k": "v"}], "n": 1, "ok": "fine"}


NAME_NODE = {
    "id": "ask_name",
    "description": "Ask the user's name.",
    "collect_slots": ["name"],
    "default_next": "done",
}
DONE = {
    "id": "done",
    "description": "Thank the user.",
    "responses": {"default": "Thanks, {name}."},
    "terminal": True,
}


def name_graph() -> dict[str, Any]:
    return make_graph([NAME_NODE, DONE], slots={"name": {"type": "text"}}, bot_first=True)


class DirtyModel:
    """NLU fills ``name`` with dirty text; NLG says ``nlg`` (dirty by default)."""

    def __init__(self, nlg: Reply = DIRTY) -> None:
        self.nlg = nlg

    def __call__(self, request: RecordedRequest) -> Reply:
        if request.response_format is not None:
            return {
                "intent": None,
                "entities": {"name": "Kim\x00\ud800\x1b Mina"},
                "confidence": 0.9,
                "dialogue_act": "inform\x07",
            }
        return self.nlg


@pytest.fixture
def model() -> DirtyModel:
    return DirtyModel()


@pytest.fixture
def server(model: DirtyModel) -> Iterator[Server]:
    with Server(handler=model) as scripted:
        yield scripted


def llm_engine(server: Server, **values: Any) -> Engine:
    settings = make_settings(server, core_default_llm="nlg", core_nlu_llm="nlu", **values)
    return Engine(settings, skills=RecordingSkills())


def test_dirty_model_text_and_entities_are_cleaned_over_http(server: Server) -> None:
    with serving(llm_engine(server)) as http:
        created = http.post("/v1/session/json", json={"scenario_graph": name_graph()})
        assert created.status_code == 200
        session_id = created.json()["session_id"]
        message = {"session_id": session_id, "message_input": {"text": "I am Kim"}}
        replied = http.post("/v1/message", json=message)
        info = http.get(f"/v1/session/{session_id}")

    assert created.json()["response"] == CLEAN
    assert replied.status_code == 200
    assert not replied.json().get("error")
    assert replied.json()["response"] == CLEAN
    assert info.status_code == 200
    assert info.json()["slots"] == {"name": "Kim Mina"}


async def test_an_oversized_reply_is_capped_in_the_reply_and_the_history(
    server: Server, model: DirtyModel
) -> None:
    model.nlg = Completion("all work and no play " * 250_000)  # about 5 MB
    async with llm_engine(server, max_text_chars=300) as engine:
        session = await engine.astart(name_graph())
        reply = await session.asend("I am Kim")
        state = await engine.astate(session.id)
    assert reply.response.startswith("all work and no play")
    assert len(reply.response) <= 300
    assert all(len(entry.message) <= 300 for entry in state.history)


async def test_a_reply_empty_once_cleaned_falls_back_to_the_template(
    server: Server, model: DirtyModel
) -> None:
    model.nlg = "\x00\ud800 \x1b"
    async with llm_engine(server) as engine:
        session = await engine.astart(name_graph())
        reply = await session.asend("I am Kim")
    assert reply.response == "Thanks, Kim Mina."
    usage = (await session.ainfo()).context["llm_usage"]
    assert usage["by_purpose"]["nlg"]["failures"] == 2  # the greeting and the reply


SKILL_GRAPH = make_graph(
    [
        {
            "id": "lookup",
            "description": "Look the answer up.",
            "params": {
                "skill": "lookup",
                "allowed_updates": ["slots.topic", "context.note"],
            },
            "default_next": "lookup",
        }
    ],
    slots={"topic": {"type": "text"}},
)


def dirty_skill_body(result: dict[str, Any]) -> bytes:
    # ASCII escapes carry the lone surrogates, as a real runtime's JSON would.
    return json.dumps({"success": True, "result": result}).encode()


def test_dirty_skill_text_never_errors_nor_sticks_the_session() -> None:
    result = {
        "response": DIRTY,
        "slot_updates": {"topic": "tea\ud800\x00"},
        "context_updates": {"note": {"k\x1b": ["\udfff"]}},
    }
    with RecordingSkillRuntime() as runtime:
        runtime.add(
            SkillReply(dirty_skill_body(result)),
            *[SkillReply.success({"response": "ok"})] * 3,
        )
        engine = Engine(make_settings(None, skill_runtime_base_url=runtime.base_url))
        with serving(engine) as http:
            created = http.post("/v1/session/json", json={"scenario_graph": SKILL_GRAPH})
            session_id = created.json()["session_id"]
            first = http.post(
                "/v1/message", json={"session_id": session_id, "message_input": {"text": "go"}}
            )
            second = http.post(
                "/v1/message", json={"session_id": session_id, "message_input": {"text": "again"}}
            )
            info = http.get(f"/v1/session/{session_id}").json()

    assert first.status_code == 200 and not first.json().get("error")
    assert first.json()["response"].startswith(CLEAN)
    assert second.status_code == 200 and not second.json().get("error")
    assert second.json()["response"].startswith("ok")
    assert info["slots"]["topic"] == "tea"
    assert info["context"]["note"] == {"k": [""]}
    assert not unsafe(json.dumps(info, ensure_ascii=False))
