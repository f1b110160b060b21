"""The serving process freezes the collector once more after warm-up (its first responses)."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
import pytest

from dialogkit.engine.engine import Engine
from dialogkit.engine.providers import OfflineRouter
from dialogkit.settings import Settings
from dialogkit.skills.runtime.server import RuntimeServer
from dialogkit_server import app as server_app
from dialogkit_server import create_app


def test_the_collector_is_frozen_once_after_the_warm_up_responses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    fake_gc = SimpleNamespace(
        collect=lambda: calls.append("collect"),
        freeze=lambda: calls.append("freeze"),
        set_threshold=lambda *limits: calls.append(f"threshold {limits}"),
    )
    monkeypatch.setattr(server_app, "gc", fake_gc)
    engine = Engine(Settings(), router=OfflineRouter())
    app = create_app(engine, Settings())
    server_app._freeze_after_warm_up(app, 3)
    try:
        with RuntimeServer(app) as server, httpx.Client(base_url=server.base_url) as http:
            warmed = ["collect", "freeze", f"threshold {server_app.WARM_GC_THRESHOLDS}"]
            for expected in ([], [], warmed, warmed):
                assert http.get("/").status_code == 200
                assert calls == expected
    finally:
        engine.close()
