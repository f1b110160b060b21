"""One turn deadline: a model that hangs on NLU and NLG costs a fallback, never the turn.

The model is the scripted OpenAI-compatible server on loopback, told to hang on every call;
the configured model timeout and retries (30 s, one retry) would allow a minute per call.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from dialogkit.engine.engine import DEADLINE_GRACE_S, Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.nlu._base import NLUProvider, NLURequest
from dialogkit.nlu._result import NLUResult
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit.testing.openai_server import Delay, RecordedRequest, ScriptedOpenAIServer
from dialogkit_server import create_app
from tests.llm.conftest import MODEL, card_graph, make_settings

DEADLINE_S = 1.5


@pytest.fixture
def hanging() -> Iterator[ScriptedOpenAIServer]:
    def hang(request: RecordedRequest) -> Delay:
        return Delay(60, "never sent")

    with ScriptedOpenAIServer(handler=hang) as server:
        yield server


def engine_for(server: ScriptedOpenAIServer, *, hybrid: bool) -> Engine:
    settings = make_settings(
        server,
        core_default_llm=MODEL,
        core_nlu_llm=MODEL,
        llm_timeout_s=30.0,
        llm_max_retries=1,
        hybrid_nlu=hybrid,
        turn_deadline_s=DEADLINE_S,
    )
    return Engine(settings)


async def test_a_hanging_model_gives_the_fallback_within_the_deadline(
    hanging: ScriptedOpenAIServer,
) -> None:
    async with engine_for(hanging, hybrid=False) as engine:
        session = await engine.astart(card_graph(), bot_first=False)
        for attempt in (1, 2):
            started = time.monotonic()
            reply = await session.asend("a credit card please")
            elapsed = time.monotonic() - started
            assert not reply.error
            assert reply.response  # the declared or built-in not_understood text
            assert elapsed < DEADLINE_S + DEADLINE_GRACE_S, elapsed
            transcript = await engine.atranscript(session.id)
            assert len(transcript) == attempt  # saved, every time
            assert transcript[-1].fallback == "not_understood"
            assert (await engine.astate(session.id)).turn_count == 0  # fallbacks are not turns
        assert hanging.chat_requests  # the model was really asked


async def test_a_hanging_nlg_keeps_the_move_and_answers_the_template(
    hanging: ScriptedOpenAIServer,
) -> None:
    async with engine_for(hanging, hybrid=True) as engine:
        session = await engine.astart(card_graph(), bot_first=False)
        expected = [("credit", "How many cards?", 1), ("2", "Your 2 credit card is on its way.", 2)]
        for text, response, turns in expected:
            started = time.monotonic()
            reply = await session.asend(text)
            assert time.monotonic() - started < DEADLINE_S + DEADLINE_GRACE_S
            assert not reply.error
            assert reply.response == response
            assert reply.turn_count == turns
        assert reply.session_complete
        info = await engine.ainfo(session.id)
        assert info.turn_count == 2 and info.slots == {"card_type": "credit", "quantity": 2}


class StuckRouter(OfflineRouter):
    """A custom NLU that never looks at the deadline and never answers."""

    def nlu(self, model: str, *, hybrid: bool | None = None) -> NLUProvider:
        return self

    async def understand(self, request: NLURequest) -> NLUResult:
        await asyncio.Event().wait()
        return NLUResult()


async def test_a_provider_that_ignores_the_deadline_is_abandoned_and_nothing_saved() -> None:
    async with Engine(make_settings(turn_deadline_s=0.3), router=StuckRouter()) as engine:
        session = await engine.astart(card_graph(), bot_first=False)
        reply = await session.asend("credit")
        assert reply.error
        state = await engine.astate(session.id)
        assert await engine.atranscript(session.id) == [] and state.turn_count == 0


def test_over_http_a_hanging_model_answers_200_with_the_fallback(
    hanging: ScriptedOpenAIServer,
) -> None:
    """The finding itself: a model hanging on NLU and NLG gave a 503 after 120 s."""
    engine = engine_for(hanging, hybrid=False)
    with (
        RuntimeServer(create_app(engine, engine.settings)) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as http,
    ):
        created = http.post(
            "/v1/session/json", json={"scenario_graph": card_graph(), "bot_first": False}
        )
        session_id = created.json()["session_id"]
        sent = {"session_id": session_id, "message_input": {"text": "hello there"}}
        started = time.monotonic()
        response = http.post("/v1/message", json=sent)
        assert time.monotonic() - started < DEADLINE_S + DEADLINE_GRACE_S + 1
        assert response.status_code == 200
        body = response.json()
        assert not body.get("error") and body["response"] and body["turn_count"] == 0
        info = http.get(f"/v1/session/{session_id}").json()
        # The NLU call that timed out was counted, and saved with the turn.
        assert info["context"]["llm_usage"]["by_purpose"]["nlu"]["failures"] == 1
    engine.close()
