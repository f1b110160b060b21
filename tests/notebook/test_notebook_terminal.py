"""The terminal chat, fed scripted lines, local and against a service."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from dialogkit.terminal import _fit, chat
from tests.helpers import COFFEE, make_graph


def scripted(*lines: str) -> Callable[[str], str]:
    """An ``input`` that answers ``lines`` in order, then signals end of input."""
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def run(*lines: str, scenario: str = str(COFFEE), **options: str) -> tuple[int, str]:
    output = io.StringIO()
    code = chat(scenario, input_fn=scripted(*lines), output=output, **options)
    return code, output.getvalue()


def test_a_local_chat_shows_replies_with_node_slots_turns_and_intent() -> None:
    code, out = run("I'd like a latte", "large", "yes")

    assert code == 0
    assert "bot> Hi! Welcome to the coffee bar. What can I get you?" in out
    assert "[node welcome · turn 1 · slots none]" in out
    assert "[node take_order · turn 2 · slots drink=latte · intent order]" in out
    assert "bot> A large latte. Is that right?" in out
    assert "slots drink=latte, size=large · intent affirm · complete order_placed]" in out


def test_conf_sends_with_a_confidence_and_info_shows_the_state() -> None:
    code, out = run("/conf -0.9 a latte", "/conf nope", "/info", "/quit", "never sent")

    assert code == 0
    assert "intent stt_low_confidence · fallback not_understood]" in out
    assert "usage: /conf VALUE TEXT" in out
    state = json.loads(out[out.index("{") : out.rindex("}") + 1])
    assert state["current_node"] == "welcome"
    assert state["turn_count"] == 1
    assert "never sent" not in out


def test_an_unknown_command_lists_the_commands() -> None:
    _, out = run("/help")
    assert out.count("/conf VALUE TEXT") == 2  # the banner, then the answer


def test_an_unknown_scenario_is_an_error() -> None:
    code, out = run(scenario="no_such_scenario")
    assert code == 1
    assert out.startswith("error: ") and "no_such_scenario" in out


def test_a_scenario_with_skills_runs_them_on_the_reference_runtime(tmp_path: Path) -> None:
    graph = make_graph(
        [
            {
                "id": "clock",
                "description": "Tell the time.",
                "params": {
                    "skill": "local_time",
                    "arguments": {"timezone": "Asia/Seoul"},
                },
                "terminal": True,
            }
        ],
        bot_first=True,
    )
    file = tmp_path / "clock.json"
    file.write_text(json.dumps(graph), encoding="utf-8")

    code, out = run(scenario=str(file))

    assert code == 0
    assert "local time" in out
    assert "complete completed" in out


def test_a_chat_against_a_service_shows_node_and_slots(service_url: str) -> None:
    code, out = run("I'd like a latte", "large", server=service_url)

    assert code == 0
    assert f"{COFFEE}: {service_url}" in out
    assert "bot> Which size: small, medium or large?" in out
    assert "[node confirm · turn 3 · slots drink=latte, size=large]" in out
    assert "intent" not in out  # a remote session's trace stays on the service


def test_the_status_line_is_cut_between_fields_never_inside_one() -> None:
    summary = "node confirm · turn 4 · slots size=large, drink=latte · intent affirm"
    assert _fit(summary, 80) == summary
    assert _fit(summary, 60) == "node confirm · turn 4 · slots size=large, … · intent affirm"
    assert _fit(summary, 50) == "node confirm · turn 4 · slots size=large, … · …"
    assert _fit(summary, 30) == "node confirm · turn 4 · …"
    assert _fit(summary, 5) == "…"
    wide = "node 확인 · turn 2 · slots 이름=김민수 · intent 긍정"
    assert _fit(wide, 45) == "node 확인 · turn 2 · slots 이름=김민수 · …"  # 52 columns whole
