"""``evaluate`` against a deployed service: a real Sanic server on loopback."""

from __future__ import annotations

from dialogkit import Scenario
from dialogkit.evaluate import evaluate
from tests.server.conftest import DEMO, Live


def test_the_remote_path_gives_the_same_outcomes_as_in_process(server: Live) -> None:
    scenario = Scenario.from_dict(DEMO)
    remote = evaluate("demo", 6, server=server.base_url, seed=9, progress=False)
    local = evaluate(scenario, 6, seed=9, progress=False)
    assert remote.meta["target"] == "service"
    assert remote.conversations["success"].all(), remote.conversations["failure"]
    columns = ["task", "persona", "success", "end_node", "user_turns"]
    assert remote.conversations[columns].equals(local.conversations[columns])
    assert list(remote.turns["user_text"]) == list(local.turns["user_text"])
    assert remote.conversations["path"].iloc[0][-1] == "end"
