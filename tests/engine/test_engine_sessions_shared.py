"""Sessions share one parsed scenario and keep small state; records hold the whole talk."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter
from dialogkit.engine.state import RECENT_HISTORY, RECENT_SAID, SessionConfig
from dialogkit.scenario.cache import ScenarioCache
from dialogkit.settings import Settings
from dialogkit.store._memory import MemoryStore
from tests.helpers import RecordingSkills, make_graph

ECHO = make_graph(
    [
        {
            "id": "a",
            "description": "Listen.",
            "responses": {"default": "Go on."},
            "next_nodes": [
                {
                    "condition": {"field": "input.text", "operator": "equals", "value": "bye"},
                    "target": "end",
                },
                {"action": "stay"},
            ],
        },
        {"id": "end", "description": "End.", "terminal": True, "responses": {"default": "Bye."}},
    ]
)


@pytest.fixture
def registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "registry.json").write_text(json.dumps({"echo": "echo.json"}))
    file = tmp_path / "echo.json"
    file.write_text(json.dumps(ECHO))
    monkeypatch.setenv("DIALOGKIT_SCENARIOS_DIR", str(tmp_path))
    return file


async def test_sessions_by_name_share_one_parsed_scenario(engine: Engine, registered: Path) -> None:
    first = await engine.astart("echo")
    second = await engine.astart("ECHO")
    assert first.scenario is second.scenario
    assert "scenario" not in SessionConfig.model_fields


async def test_a_changed_file_is_read_again_and_old_sessions_keep_theirs(
    engine: Engine, registered: Path
) -> None:
    old = await engine.astart("echo", bot_first=True)
    changed = json.loads(json.dumps(ECHO))
    changed["graph"]["nodes"][0]["responses"]["default"] = "Tell me more."
    registered.write_text(json.dumps(changed))  # noqa: ASYNC240 (a small test file)
    os.utime(registered, ns=(1, 1))  # a different stamp even within the clock's resolution
    new = await engine.astart("echo", bot_first=True)
    assert new.scenario is not old.scenario
    assert new.initial_reply.response == "Tell me more."
    assert (await old.asend("x")).response == "Go on."


def test_an_unchanged_file_is_not_read_again(
    registered: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ScenarioCache()
    reads: list[Path] = []
    original = Scenario.from_file.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Scenario], path: Path) -> Scenario:
        reads.append(path)
        return original(cls, path)  # type: ignore[no-any-return]

    monkeypatch.setattr(Scenario, "from_file", classmethod(counting))
    first = cache.by_name("echo")
    assert cache.by_name("echo") is first and len(reads) == 1
    registered.write_text(json.dumps(ECHO) + " ")
    assert cache.by_name("echo") is first and len(reads) == 2  # same content, same fingerprint


async def test_a_scenario_dropped_from_the_cache_comes_back_from_the_store() -> None:
    engine = Engine(router=OfflineRouter(), skills=RecordingSkills())
    engine.scenarios = ScenarioCache(size=1)
    session = await engine.astart(ECHO, bot_first=True)
    await engine.astart(make_graph([{"id": "z", "description": "Z.", "terminal": True}]))
    assert engine.scenarios.get(session.scenario.fingerprint) is None
    assert (await session.asend("x")).response == "Go on."
    assert engine.scenarios.get(session.scenario.fingerprint) is session.scenario


async def test_state_keeps_recent_windows_and_records_keep_everything(engine: Engine) -> None:
    session = await engine.astart(
        ECHO, bot_first=True, completion_options={"include_history": True}
    )
    for index in range(30):
        await session.asend(f"message {index}")
    state = await engine.astate(session.id)
    assert len(state.history) == RECENT_HISTORY and len(state.said) == RECENT_SAID
    assert state.history[-2].message == "message 29"
    records = await engine.arecords(session.id)
    assert len(records.history) == 61 and len(records.transcript) == 31
    final = await session.asend("bye")
    assert final.final_data is not None and final.final_data.conversation_history is not None
    assert len(final.final_data.conversation_history) == 63
    assert (await session.apath())[-1] == "end"


async def test_at_the_history_limit_the_oldest_entries_go_and_no_turn_is_lost() -> None:
    settings = Settings(DIALOGKIT_HISTORY_LIMIT=6, DIALOGKIT_TRANSCRIPT_LIMIT=4)
    engine = Engine(settings, router=OfflineRouter(), skills=RecordingSkills())
    assert isinstance(engine.store, MemoryStore)
    session = await engine.astart(
        ECHO, bot_first=True, completion_options={"include_history": True}
    )
    for index in range(20):
        reply = await session.asend(f"message {index}")
        assert not reply.error and reply.turn_count == index + 2
    final = await session.asend("bye")
    assert final.turn_count == 22 and final.final_data is not None
    history = final.final_data.conversation_history or []
    assert [h.message for h in history] == [
        "message 18",
        "Go on.",
        "message 19",
        "Go on.",
        "bye",
        "Bye.",
    ]
    transcript = await session.atranscript()
    assert [row.turn for row in transcript] == [19, 20, 21, 22]
