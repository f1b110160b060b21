"""Calls in flight per endpoint are bounded; calls beyond the bound wait in arrival order."""

from __future__ import annotations

import asyncio
import time

from dialogkit.llm._router import ModelRouter
from dialogkit.nlg._llm import LLMNLG
from dialogkit.scenario.scenario import Scenario
from dialogkit.testing.openai_server import Delay, RecordedRequest, Reply
from dialogkit.testing.openai_server import ScriptedOpenAIServer as Server
from tests.llm.conftest import make_settings, nlg_request


async def test_the_server_never_sees_more_calls_than_the_limit(scenario: Scenario) -> None:
    def slow(request: RecordedRequest) -> Reply:
        return Delay(0.3, f"answer to {request.last_user}")

    with Server(handler=slow) as server:
        router = ModelRouter(make_settings(server, llm_max_concurrency=3))
        nlg = router.nlg("m")
        replies = await asyncio.gather(
            *(nlg.generate(nlg_request(scenario, user_text=f"q{i}")) for i in range(12))
        )
        await router.aclose()
    assert replies == [f"answer to q{i}" for i in range(12)]
    assert server.max_in_flight == 3


async def test_waiting_calls_are_sent_in_arrival_order(scenario: Scenario) -> None:
    with Server(handler=lambda request: "ok") as server:
        router = ModelRouter(make_settings(server, llm_max_concurrency=1))
        nlg = router.nlg("m")
        texts = [f"q{i}" for i in range(8)]
        await asyncio.gather(*(nlg.generate(nlg_request(scenario, user_text=t)) for t in texts))
        await router.aclose()
    assert [r.last_user for r in server.chat_requests] == texts
    assert server.max_in_flight == 1


async def test_a_call_past_its_deadline_is_not_sent(scenario: Scenario) -> None:
    with Server(handler=lambda request: "late") as server:
        router = ModelRouter(make_settings(server))
        request = nlg_request(scenario, deadline=time.monotonic() - 1)
        assert await router.nlg("m").generate(request) is None
        await router.aclose()
    assert server.chat_requests == []
    assert request.usage.by_purpose["nlg"].failures == 1


async def test_the_deadline_shortens_the_timeout_and_stops_retries(scenario: Scenario) -> None:
    with Server(handler=lambda request: Delay(5.0, "too late")) as server:
        router = ModelRouter(make_settings(server, llm_max_retries=3, llm_timeout_s=30))
        nlg = router.nlg("m")
        assert isinstance(nlg, LLMNLG)
        result = await nlg.generate(nlg_request(scenario, deadline=time.monotonic() + 0.5))
        await router.aclose()
    assert result is None  # with the 30 s timeout alone, "too late" would have arrived
    assert len(server.chat_requests) == 1  # no retry: no time was left for one


async def test_a_transient_error_is_retried_while_time_remains(scenario: Scenario) -> None:
    from dialogkit.testing.openai_server import ErrorReply

    with Server(ErrorReply(503), handler=lambda request: "second try") as server:
        router = ModelRouter(make_settings(server, llm_max_retries=1))
        assert await router.nlg("m").generate(nlg_request(scenario)) == "second try"
        await router.aclose()
    assert len(server.chat_requests) == 2
