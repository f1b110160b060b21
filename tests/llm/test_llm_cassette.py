"""Record model calls, then replay them with the model server stopped."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dialogkit import Engine
from dialogkit.errors import CassetteMiss, LLMError
from dialogkit.llm._cassette import Cassette, Recording, call_key
from dialogkit.settings import CassetteMode, Settings
from dialogkit.testing.openai_server import ErrorReply, RecordedRequest, Reply
from dialogkit.testing.openai_server import ScriptedOpenAIServer as Server
from tests.helpers import RecordingSkills
from tests.llm.conftest import make_settings
from tests.llm.test_llm_engine import Model, graph

USER = {"date_time": "2025-03-01T10:00:00+09:00", "timezone": "Asia/Seoul"}
"""A fixed clock: the user's time is part of the NLU prompt, so it is part of the key."""

TURNS = ["hmm", "debit please"]


class NumberedModel(Model):
    """NLG answers differ on every call, so a replay can only match by reading the cassette."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __call__(self, request: RecordedRequest) -> Reply:
        self.count += 1
        if request.response_format is None and self.count == 2:
            return ErrorReply(500)  # a failed call is replayed as a failure too
        if request.response_format is None:
            return f"Answer number {self.count}."
        return super().__call__(request)


def settings(server: Server | None) -> Settings:
    return make_settings(server, core_default_llm="house-nlg", core_nlu_llm="house-nlu")


def engine_on(settings: Settings, cassette: Path, mode: CassetteMode) -> Engine:
    return Engine(settings, skills=RecordingSkills(), llm_cassette=cassette, llm_cassette_mode=mode)


Run = tuple[list[str], list[dict[str, Any]]]


async def conversation(engine: Engine, turns: list[str] = TURNS) -> Run:
    """The replies and the transcript (without timings) of one session."""
    session = await engine.astart(graph(), user=USER, bot_first=True)
    replies = [session.initial_reply.response if session.initial_reply else ""]
    for text in turns:
        replies.append((await session.asend(text)).response)
    transcript = [
        {**record.as_dict(), "latency_ms": None} for record in await engine.atranscript(session.id)
    ]
    return replies, transcript


@dataclass
class Recorded:
    cassette: Path
    run: Run
    base_url: str
    calls: int


@pytest.fixture
async def recorded(tmp_path: Path) -> Recorded:
    """A conversation recorded against a model server that is stopped afterwards."""
    cassette = tmp_path / "calls.jsonl"
    with Server(handler=NumberedModel()) as server:
        async with engine_on(settings(server), cassette, "record") as engine:
            run = await conversation(engine)
        base_url = server.base_url
    return Recorded(cassette, run, base_url, len(server.chat_requests))


async def test_a_replay_reproduces_the_recorded_run_without_a_server(recorded: Recorded) -> None:
    lines = recorded.cassette.read_text(encoding="utf-8").splitlines()
    assert len(lines) == recorded.calls >= 3
    assert all(Recording.model_validate_json(line).key for line in lines)
    assert any("Answer number" in reply for reply in recorded.run[0])

    # The server is stopped: a call reaching the network would fail and change the replies.
    stopped = settings(None).model_copy(update={"openai_base_url": recorded.base_url})
    async with engine_on(stopped, recorded.cassette, "replay") as engine:
        assert await conversation(engine) == recorded.run


async def test_replay_needs_no_endpoint_at_all(recorded: Recorded) -> None:
    async with engine_on(settings(None), recorded.cassette, "replay") as engine:
        assert await conversation(engine) == recorded.run


async def test_a_miss_in_replay_raises_naming_the_call(recorded: Recorded) -> None:
    async with engine_on(settings(None), recorded.cassette, "replay") as engine:
        session = await engine.astart(graph(), user=USER, bot_first=True)
        with pytest.raises(CassetteMiss, match=r"model 'house-nlu'.*'something new'"):
            await session.asend("something new")
        state = await engine.astate(session.id)
    assert state.turn_count == 1  # the failed turn left nothing behind


async def test_record_missing_answers_known_calls_and_adds_new_ones(recorded: Recorded) -> None:
    with Server(handler=NumberedModel()) as server:
        async with engine_on(settings(server), recorded.cassette, "record_missing") as engine:
            assert await conversation(engine) == recorded.run
            assert server.chat_requests == []
            await conversation(engine, ["something new"])
        added = len(server.chat_requests)
    assert added == 2  # NLU and NLG of the new utterance only
    lines = recorded.cassette.read_text(encoding="utf-8").splitlines()
    assert len(lines) == recorded.calls + added


async def test_concurrent_recordings_are_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    cassette = Cassette(path, "record")

    async def record(number: int) -> None:
        messages = [{"role": "user", "content": f"q{number}" * 500}]
        key = call_key("m", messages, None, {})
        await asyncio.to_thread(
            cassette.record, Recording(key=key, model="m", messages=messages, content="a")
        )

    await asyncio.gather(*(record(n) for n in range(64)))
    lines = path.read_bytes().splitlines()
    assert len(lines) == 64
    assert len({Recording.model_validate_json(line).key for line in lines}) == 64


def test_the_key_is_stable_and_follows_every_part_of_the_call() -> None:
    messages = [{"role": "user", "content": "안녕"}]
    key = call_key("m", messages, None, {})
    assert key == call_key("m", json.loads(json.dumps(messages)), None, {})
    assert (
        len(
            {
                key,
                call_key("n", messages, None, {}),
                call_key("m", [{"role": "user", "content": "안녕!"}], None, {}),
                call_key("m", messages, {"type": "json_object"}, {}),
                call_key("m", messages, None, {"temperature": 0}),
            }
        )
        == 5
    )


def test_a_missing_or_broken_cassette_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="does not exist; record it first"):
        Engine(settings(None), llm_cassette=tmp_path / "none.jsonl", llm_cassette_mode="replay")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"key": "k"}\n', encoding="utf-8")
    with pytest.raises(LLMError, match="line 1"):
        Engine(settings(None), llm_cassette=broken, llm_cassette_mode="replay")
