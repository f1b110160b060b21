"""RecordingSkillRuntime's own promises: scripts, handlers, defaults, chunking, stopping."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from dialogkit.testing.skill_runtime import RecordedRequest, RecordingSkillRuntime, SkillReply


def test_replies_are_used_in_order_then_the_handler_answers() -> None:
    seen: list[str] = []

    def handler(request: RecordedRequest) -> dict[str, Any]:
        seen.append(request.json()["skill_id"])
        return {"success": True, "result": {"echo": request.json()["skill_id"]}}

    scripted: list[SkillReply | dict[str, Any]] = [
        {"success": True, "result": {"n": 1}},
        SkillReply.raw("plain", status=503),
    ]
    with RecordingSkillRuntime(scripted, handler=handler) as runtime, httpx.Client() as http:
        url = runtime.base_url + "/v1/skills/execute"
        answers = [http.post(url, json={"skill_id": f"s{i}"}) for i in range(3)]
    assert answers[0].json() == {"success": True, "result": {"n": 1}}
    assert (answers[1].status_code, answers[1].text) == (503, "plain")
    assert answers[2].json()["result"] == {"echo": "s2"}
    assert seen == ["s2"]
    assert [body["skill_id"] for body in runtime.bodies] == ["s0", "s1", "s2"]


def test_without_script_handler_or_default_it_says_the_script_ran_out() -> None:
    with RecordingSkillRuntime() as runtime:
        runtime.add(SkillReply.success({"a": 1}))
        first = httpx.post(runtime.base_url + "/v1/skills/execute", json={})
        second = httpx.post(runtime.base_url + "/v1/skills/execute", json={})
    assert first.json()["result"] == {"a": 1}
    assert second.status_code == 500
    assert second.json()["error"]["code"] == "SCRIPT_EXHAUSTED"


def test_a_default_reply_answers_every_unscripted_request() -> None:
    with RecordingSkillRuntime(default=SkillReply.failure("DOWN")) as runtime:
        codes = [httpx.post(runtime.base_url, json={}).json()["error"]["code"] for _ in range(2)]
    assert codes == ["DOWN", "DOWN"]


def test_chunked_replies_carry_no_content_length() -> None:
    with RecordingSkillRuntime([SkillReply.oversized(50_000, chunked=True)]) as runtime:
        response = httpx.post(runtime.base_url, json={})
    assert "content-length" not in response.headers
    assert len(response.json()["result"]["response"]) == 50_000


def test_base_url_is_only_valid_while_running() -> None:
    runtime = RecordingSkillRuntime()
    with pytest.raises(RuntimeError):
        _ = runtime.base_url
    with runtime:
        assert runtime.base_url.startswith("http://127.0.0.1:")


async def test_stopping_cuts_a_delayed_reply_short() -> None:
    arrived = threading.Event()

    def slow(request: RecordedRequest) -> SkillReply:
        arrived.set()
        return SkillReply.success({}, delay_s=30)

    runtime = RecordingSkillRuntime(handler=slow).start()
    async with httpx.AsyncClient() as http:
        pending = asyncio.create_task(http.post(runtime.base_url, json={}))
        assert await asyncio.to_thread(arrived.wait, 2)
        await asyncio.to_thread(runtime.stop)
        with pytest.raises(httpx.HTTPError):
            await asyncio.wait_for(pending, timeout=2)
