"""Idempotency-Key turns through a real server on loopback, on the memory store and on a real
Redis: a retry gets the saved reply, a reused key with another message a 422 (never the saved
reply), and both stores keep the same bounded number of saved replies per session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from redis import Redis

from dialogkit import Settings
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit_server import create_app
from tests.helpers import make_graph

KEPT = 5
"""``DIALOGKIT_IDEMPOTENCY_REPLIES`` for these tests: small, so that the bound is reached."""

GRAPH = make_graph(
    [
        {
            "id": "a",
            "description": "Echo.",
            "responses": {"default": "Say anything."},
            "next_nodes": [{"action": "stay"}],
        }
    ]
)


PREFIX = "dialogkit"
"""The Redis store's key prefix; session ids are unique, so a shared Redis is fine."""


class Service:
    """A server on loopback whose engine is built from settings, as `dialogkit serve` does."""

    def __init__(self, http: httpx.Client, redis_url: str) -> None:
        self.http = http
        self.redis_url = redis_url

    def start(self) -> str:
        response = self.http.post("/v1/session/json", json={"scenario_graph": GRAPH})
        assert response.status_code == 200, response.text
        return str(response.json()["session_id"])

    def send(self, session_id: str, text: str, key: str) -> httpx.Response:
        body = {"session_id": session_id, "message_input": {"text": text, "confidence": 0.9}}
        return self.http.post("/v1/message", json=body, headers={"Idempotency-Key": key})

    def turns(self, session_id: str) -> int:
        return int(self.http.get(f"/v1/session/{session_id}").json()["turn_count"])


@pytest.fixture(params=["memory", "redis"])
def service(request: pytest.FixtureRequest) -> Iterator[Service]:
    redis_url = request.getfixturevalue("redis_url") if request.param == "redis" else ""
    settings = Settings(DIALOGKIT_REDIS_URL=redis_url, DIALOGKIT_IDEMPOTENCY_REPLIES=KEPT)
    # The app owns its engine: the store is closed on the server's own loop.
    with (
        RuntimeServer(create_app(settings=settings)) as server,
        httpx.Client(base_url=server.base_url, timeout=10) as http,
    ):
        yield Service(http, redis_url)


def test_a_retry_with_the_same_key_and_message_gets_the_saved_reply(service: Service) -> None:
    session_id = service.start()
    first = service.send(session_id, "transfer $10", "k-1")
    again = service.send(session_id, "transfer $10", "k-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert service.turns(session_id) == 1


def test_a_reused_key_with_another_message_is_a_422_never_the_old_reply(
    service: Service,
) -> None:
    session_id = service.start()
    first = service.send(session_id, "transfer $10", "k-1")
    assert first.status_code == 200
    reused = service.send(session_id, "transfer $9999", "k-1")
    assert reused.status_code == 422, reused.text
    (item,) = reused.json()["detail"]
    assert item["type"] == "idempotency_key_reused"
    assert item["loc"] == ["header", "Idempotency-Key"]
    assert item["input"] == "k-1"
    assert "response" not in reused.json()
    # Nothing was applied, and the first message's retry still gets its reply.
    assert service.turns(session_id) == 1
    assert service.send(session_id, "transfer $10", "k-1").json() == first.json()


def test_the_same_text_with_another_confidence_is_another_message(service: Service) -> None:
    session_id = service.start()
    body: dict[str, Any] = {"session_id": session_id, "message_input": {"text": "hi"}}
    headers = {"Idempotency-Key": "k"}
    assert service.http.post("/v1/message", json=body, headers=headers).status_code == 200
    body["message_input"]["confidence"] = 0.5
    assert service.http.post("/v1/message", json=body, headers=headers).status_code == 422


def test_both_stores_keep_the_same_bounded_number_of_replies(service: Service) -> None:
    session_id = service.start()
    turns = 3 * KEPT
    replies = [service.send(session_id, f"message {n}", f"k-{n}").json() for n in range(turns)]
    assert service.turns(session_id) == turns
    # The most recent KEPT keys are retries: their saved replies, nothing applied.
    for n in range(turns - KEPT, turns):
        assert service.send(session_id, f"message {n}", f"k-{n}").json() == replies[n]
    assert service.turns(session_id) == turns
    # An older key is forgotten: the message is applied as a new turn.
    assert service.send(session_id, "message 0", "k-0").json()["turn_count"] == turns + 1
    if service.redis_url:
        raw = Redis.from_url(service.redis_url)
        try:
            keys = raw.keys(f"{PREFIX}:*{session_id}*")
            assert raw.hlen(f"{PREFIX}:replies:{session_id}") == KEPT
            assert raw.llen(f"{PREFIX}:reply-order:{session_id}") == KEPT
            ttl = raw.pttl(f"{PREFIX}:replies:{session_id}")
            assert 0 < ttl <= raw.pttl(f"{PREFIX}:state:{session_id}") + 1000
            # One key per part of the session, not one per saved reply.
            assert len(keys) <= 7, keys
        finally:
            raw.close()
