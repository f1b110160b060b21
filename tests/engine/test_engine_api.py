"""The public API: sync in scripts and inside a running loop, async, errors, demo walk."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import dialogkit
from dialogkit import Engine, Scenario
from dialogkit.engine.providers import OfflineRouter
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._result import NLUResult
from tests.helpers import ROOT, RecordingSkills

WALK = [
    ("I'd like a latte", "take_order", "Which size: small, medium or large?"),
    ("", "take_order", None),
    ("big", "confirm", "A large latte. Is that right?"),
    (
        "actually change it",
        "take_order",
        "What would you like to drink: latte, cappuccino or americano?",
    ),
    ("black coffee", "take_order", "Which size: small, medium or large?"),
    ("small", "confirm", "A small americano. Is that right?"),
    ("yes", "done", "Thanks! Your small americano will be ready shortly."),
]


def check_walk(replies: list[Any]) -> None:
    for reply, (_, node, text) in zip(replies, WALK, strict=True):
        assert reply.current_node == node
        if text is not None:
            assert reply.response == text
    final = replies[-1]
    assert final.session_complete and final.turn_count == 7
    assert final.final_data.end_reason == "order_placed"
    assert final.final_data.slots == {"drink": "americano", "size": "small"}


def test_demo_walks_to_completion_with_the_sync_api(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(coffee)
    assert session.initial_reply.response.startswith("Hi! Welcome")
    check_walk([session.send(text) for text, _, _ in WALK])


async def test_demo_walks_to_completion_with_the_async_api(
    engine: Engine, coffee: Scenario
) -> None:
    session = await engine.astart(coffee)
    check_walk([await session.asend(text) for text, _, _ in WALK])
    assert (await session.ainfo()).session_complete


async def test_sync_api_works_inside_a_running_event_loop(engine: Engine, coffee: Scenario) -> None:
    asyncio.get_running_loop()
    session = engine.start(coffee)
    assert session.send("I'd like a latte").current_node == "take_order"
    assert session.info().slots == {"drink": "latte"}


def test_sync_api_works_in_a_plain_script() -> None:
    script = textwrap.dedent(
        f"""
        from dialogkit import Engine, Scenario
        from dialogkit.engine.providers import OfflineRouter
        engine = Engine(router=OfflineRouter())
        session = engine.start(Scenario.from_file({str(ROOT / "docs/examples/coffee.json")!r}))
        print(session.send("I'd like a latte").current_node)
        engine.close()
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "take_order"


def test_engine_without_arguments_runs_offline(coffee: Scenario) -> None:
    with Engine() as engine:
        session = engine.start(coffee)
        assert session.send("latte, large").response == "A large latte. Is that right?"


def test_plain_dicts_and_models_are_accepted(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(
        coffee.to_dict(),
        user=dialogkit.wire.ChatbotSessionUser(name="Kim"),
        completion_options={"include_history": True},
    )
    assert session.info().context["session_user"]["name"] == "Kim"


def test_internal_error_answers_error_and_keeps_the_state(coffee: Scenario) -> None:
    class Exploding(OfflineRouter):
        fail = False

        def nlu(self, model: str, *, hybrid: bool | None = None) -> Any:
            outer = self

            class NLU:
                async def understand(self, request: NLURequest) -> NLUResult:
                    if outer.fail:
                        raise RuntimeError("nlu crashed")
                    return await OfflineRouter().nlu("").understand(request)

            return NLU()

    router = Exploding()
    engine = Engine(router=router, skills=RecordingSkills())
    session = engine.start(coffee)
    session.send("I'd like a latte")
    before = session.info()
    router.fail = True
    reply = session.send("large")
    assert reply.error
    assert reply.to_json() == {
        "session_id": "",
        "response": "",
        "current_node": "",
        "turn_count": 0,
        "processing_time_ms": 0.0,
        "session_complete": False,
        "error": False,
    } | {"error": True}
    after = session.info()
    assert (after.current_node, after.turn_count, after.slots) == (
        before.current_node,
        before.turn_count,
        before.slots,
    )
    router.fail = False
    assert session.send("large").current_node == "confirm"


def test_sync_call_from_the_portal_loop_is_refused(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(coffee)

    async def nested() -> None:
        session.send("latte")

    with pytest.raises(dialogkit.DialogkitError, match="use the async method"):
        engine.portal.run(nested())


def test_public_names() -> None:
    assert set(dialogkit.__all__) >= {"Engine", "Session", "Reply", "Scenario", "DialogkitError"}
    assert all(
        issubclass(getattr(dialogkit, name), dialogkit.DialogkitError)
        for name in dialogkit.__all__
        if name.endswith(("Error", "NotFound", "Invalid"))
    )


def test_session_path_and_graph_views(engine: Engine, coffee: Scenario) -> None:
    session = engine.start(coffee)
    for text, _, _ in WALK:
        session.send(text)
    path = session.path()
    assert path[0] == "welcome" and path[-1] == "done"
    mermaid = coffee.to_mermaid(path=path, coverage=set(path))
    assert "flowchart TD" in mermaid and "intent = affirm" in mermaid
    svg = coffee.to_svg(path=path)
    assert svg.count("<rect") >= len(coffee.nodes)
    assert coffee._repr_html_() == coffee.to_html()


async def test_sync_calls_from_threads_and_a_running_loop_share_one_portal_loop(
    engine: Engine, coffee: Scenario
) -> None:
    """Plain threads run the portal loop themselves, one at a time; a thread that runs its
    own loop (this test, like a notebook cell) hands it to a helper thread."""
    sessions = [engine.start(coffee) for _ in range(6)]

    def order(index: int) -> str:
        return sessions[index].send("a large latte please").current_node

    with ThreadPoolExecutor(3) as pool:
        nodes = list(pool.map(order, range(5)))
    assert nodes == ["confirm"] * 5
    assert sessions[5].send("a large latte please").current_node == "confirm"
    assert (await sessions[0].asend("yes")).current_node == "done"
