"""ScriptedOpenAIServer itself: what users of ``dialogkit.testing`` can rely on."""

from __future__ import annotations

import time
from collections.abc import Iterator

import openai
import pytest

from dialogkit.testing.openai_server import (
    Completion,
    Delay,
    ErrorReply,
    RecordedRequest,
    Reply,
    ScriptedOpenAIServer,
)


def sync_client(base_url: str, timeout: float = 5.0) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key="sk-test", max_retries=0, timeout=timeout)


def ask(client: openai.OpenAI, text: str = "hello there", model: str = "m") -> str | None:
    response = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": text}]
    )
    return response.choices[0].message.content


def test_queued_replies_come_first_then_the_handler() -> None:
    def echo(request: RecordedRequest) -> Reply:
        return f"echo: {request.last_user}"

    with (
        ScriptedOpenAIServer("scripted", handler=echo) as server,
        sync_client(server.base_url) as client,
    ):
        assert ask(client) == "scripted"
        assert ask(client, "again") == "echo: again"
        assert server.pending == 0
        assert [r.last_user for r in server.chat_requests] == ["hello there", "again"]
        assert server.chat_requests[0].api_key == "sk-test"


@pytest.fixture
def client(server: ScriptedOpenAIServer) -> Iterator[openai.OpenAI]:
    with sync_client(server.base_url) as opened:
        yield opened


def test_json_replies_and_reported_usage(
    server: ScriptedOpenAIServer, client: openai.OpenAI
) -> None:
    server.queue({"intent": "affirm"}, Completion("ok", prompt_tokens=7))
    first = client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "one two three"}]
    )
    second = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert first.choices[0].message.content == '{"intent": "affirm"}'
    assert first.usage is not None and second.usage is not None
    assert (first.usage.prompt_tokens, first.usage.completion_tokens) == (3, 2)
    assert (second.usage.prompt_tokens, second.usage.total_tokens) == (7, 8)


def test_errors_carry_openai_style_bodies(
    server: ScriptedOpenAIServer, client: openai.OpenAI
) -> None:
    server.queue(ErrorReply(429, "slow down", code="rate_limit_exceeded"))
    with pytest.raises(openai.RateLimitError) as exc:
        ask(client)
    assert exc.value.status_code == 429
    assert exc.value.code == "rate_limit_exceeded"
    assert exc.value.type == "rate_limit_error"


def test_an_unscripted_request_is_refused_with_an_explanation(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError, match="no reply is scripted"):
        ask(client)


def test_a_failing_handler_answers_500_and_fails_the_test_on_exit() -> None:
    def broken(request: RecordedRequest) -> Reply:
        raise KeyError("oops")

    def the_request_fails(server: ScriptedOpenAIServer) -> None:
        with sync_client(server.base_url) as client, pytest.raises(openai.InternalServerError):
            ask(client)
        assert len(server.errors) == 1

    server = ScriptedOpenAIServer(handler=broken)
    with pytest.raises(KeyError, match="oops"), server:
        the_request_fails(server)


def test_paths_without_the_v1_prefix_and_the_model_list() -> None:
    with ScriptedOpenAIServer("hi", models=["a", "b"]) as server:
        bare = server.base_url.removesuffix("/v1")
        with sync_client(bare) as client:
            assert ask(client) == "hi"
            assert [model.id for model in client.models.list()] == ["a", "b"]
        assert [(r.method, r.path) for r in server.requests] == [
            ("POST", "/chat/completions"),
            ("GET", "/models"),
        ]


def test_streaming_is_refused(server: ScriptedOpenAIServer, client: openai.OpenAI) -> None:
    server.queue("hi")
    with pytest.raises(openai.BadRequestError, match="does not stream"):
        client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}], stream=True
        )
    assert server.pending == 1


def test_a_delay_outlasts_the_client_timeout_and_stop_cuts_it_short() -> None:
    server = ScriptedOpenAIServer(Delay(30.0, "late")).start()
    try:
        with (
            sync_client(server.base_url, timeout=0.2) as client,
            pytest.raises(openai.APITimeoutError),
        ):
            ask(client)
    finally:
        started = time.monotonic()
        server.stop()
    assert time.monotonic() - started < 2.0
    assert len(server.chat_requests) == 1


def test_reset_forgets_the_script_and_the_records(
    server: ScriptedOpenAIServer, client: openai.OpenAI
) -> None:
    server.queue("a", "b")
    ask(client)
    server.reset()
    assert (server.pending, server.requests) == (0, [])
