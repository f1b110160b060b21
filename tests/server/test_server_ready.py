"""``GET /v1/ready`` on a real server: what it checks, what any caller may see (the status and
the names of failing checks), what only the admin token shows (addresses and reasons), and
that many callers share one probe instead of each opening connections to every endpoint."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from sanic import HTTPResponse, Request, Sanic
from sanic.response import json as json_response

from dialogkit.engine.engine import Engine
from dialogkit.settings import Settings
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit.testing.openai_server import ScriptedOpenAIServer
from tests.server.conftest import running

ADMIN = {"authorization": "Bearer t0ken"}
_names = itertools.count()


class CountingModels:
    """A model endpoint that only counts the readiness probes (``GET /v1/models``)."""

    def __init__(self) -> None:
        self.probes = 0
        self.app: Sanic = Sanic(f"counting_models_{next(_names)}")

        async def models(request: Request) -> HTTPResponse:
            self.probes += 1
            await asyncio.sleep(0.05)  # a probe takes a while, so that callers overlap
            return json_response({"object": "list", "data": []})

        self.app.add_route(models, "/v1/models", methods=["GET"])


@contextmanager
def served(**values: str) -> Iterator[tuple[httpx.Client, str, CountingModels]]:
    """A service whose model endpoint counts its probes; returns (http, models URL, counter)."""
    counter = CountingModels()
    with RuntimeServer(counter.app) as models:
        models_url = f"{models.base_url}/v1"
        settings = Settings(OPENAI_BASE_URL=models_url, CORE_DEFAULT_LLM="some-model", **values)
        with (
            running(Engine(settings), settings=settings) as live,
            httpx.Client(base_url=live.base_url, timeout=30) as http,
        ):
            yield http, models_url, counter


def test_ready_when_every_dependency_answers(http: httpx.Client) -> None:
    response = http.get("/v1/ready")
    assert response.status_code == 200
    assert response.json() == {"ready": True, "not_ready": []}
    assert http.get("/").status_code == 200


def test_not_ready_names_what_is_down_but_only_the_admin_sees_why() -> None:
    settings = Settings(
        SKILL_RUNTIME_BASE_URL="http://127.0.0.1:9",
        OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        CORE_DEFAULT_LLM="some-model",
        DIALOGKIT_ADMIN_TOKEN="t0ken",
    )
    with (
        running(Engine(settings), settings=settings) as live,
        httpx.Client(base_url=live.base_url) as http,
    ):
        plain = http.get("/v1/ready")
        wrong = http.get("/v1/ready", headers={"authorization": "Bearer nope"})
        admin = http.get("/v1/ready", headers=ADMIN)
        assert http.get("/").status_code == 200  # liveness is not readiness
    for response in (plain, wrong):
        assert response.status_code == 503
        assert response.json() == {"ready": False, "not_ready": ["skill_runtime", "models"]}
        assert "127.0.0.1" not in response.text
    assert admin.status_code == 503
    checks = admin.json()["checks"]
    assert "unreachable" in checks["skill_runtime"]["detail"]
    assert "http://127.0.0.1:9/v1" in checks["models"]["detail"]


def test_without_an_admin_token_set_nobody_sees_the_details() -> None:
    with served() as (http, models_url, _):
        for headers in ({}, {"authorization": "Bearer x"}, ADMIN):
            response = http.get("/v1/ready", headers=headers)
            assert response.status_code == 200
            assert response.json() == {"ready": True, "not_ready": []}
            assert models_url not in response.text


def test_ready_with_a_live_skill_runtime_and_model_endpoint() -> None:
    with ScriptedOpenAIServer() as models, RuntimeServer().start() as runtime:
        runtime_url = runtime.base_url
        settings = Settings(
            SKILL_RUNTIME_BASE_URL=runtime_url,
            OPENAI_BASE_URL=models.base_url,
            CORE_DEFAULT_LLM="scripted",
            DIALOGKIT_ADMIN_TOKEN="t0ken",
        )
        with (
            running(Engine(settings), settings=settings) as live,
            httpx.Client(base_url=live.base_url) as http,
        ):
            response = http.get("/v1/ready", headers=ADMIN)
    assert response.status_code == 200, response.text
    checks = response.json()["checks"]
    assert checks["models"] == {"ready": True, "detail": "1 endpoint(s) reachable"}
    assert checks["skill_runtime"]["detail"] == f"{runtime_url} reachable"


async def _burst(base_url: str, calls: int) -> list[int]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        responses = await asyncio.gather(*(client.get("/v1/ready") for _ in range(calls)))
    return [response.status_code for response in responses]


def test_many_callers_share_one_probe() -> None:
    with served(DIALOGKIT_READY_CACHE_S="60") as (http, _, counter):
        base_url = str(http.base_url)
        assert asyncio.run(_burst(base_url, 200)) == [200] * 200
        assert asyncio.run(_burst(base_url, 100)) == [200] * 100
    assert counter.probes == 1


def test_the_probe_runs_again_once_its_report_is_stale() -> None:
    with served(DIALOGKIT_READY_CACHE_S="0.3") as (http, _, counter):
        assert http.get("/v1/ready").status_code == 200
        assert http.get("/v1/ready").status_code == 200
        assert counter.probes == 1
        time.sleep(0.4)
        assert http.get("/v1/ready").status_code == 200
        assert counter.probes == 2
