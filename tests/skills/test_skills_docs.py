"""docs/skills.md stays true: it names every parameter, code and skill, and its code runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from dialogkit.scenario.model import SKILL_PARAM_KEYS, Node
from dialogkit.skills._result import SkillErrorCode
from dialogkit.skills.runtime import SKILLS, RuntimeServer, fire_mission
from dialogkit.wire import SkillContext

DOC = (Path(__file__).parents[2] / "docs" / "skills.md").read_text(encoding="utf-8")


def code_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.DOTALL)


def test_every_skill_node_param_is_documented() -> None:
    documented = set(re.findall(r"^\| `(\w+)` \|", DOC, re.MULTILINE))
    params = SKILL_PARAM_KEYS | {"skill", "location_based", "response_mode", "fallback"}
    assert params <= documented


def test_every_error_code_is_documented() -> None:
    for code in SkillErrorCode:
        assert f"`{code.value}`" in DOC


def test_every_reference_skill_has_a_section() -> None:
    assert set(re.findall(r"^### `(\w+)`", DOC, re.MULTILINE)) == set(SKILLS)


def test_the_node_example_parses_as_a_skill_node() -> None:
    node = Node.model_validate(json.loads(code_blocks("json")[0]))
    assert node.params.skill == "sun_times"
    assert node.params.location_based


def test_the_fire_mission_example_is_what_the_skill_says() -> None:
    arguments = {"observer_grid": "1000 1000", "gun_grid": "0500 0500", "target_grid": "1400 1000"}
    assert fire_mission.run(arguments, SkillContext())["response"] in DOC


def test_the_custom_runtime_example_serves_its_skill() -> None:
    (example,) = [block for block in code_blocks("python") if "create_runtime_app(" in block]
    namespace: dict[str, Any] = {}
    exec(example, namespace)
    with RuntimeServer(namespace["app"]) as server:
        url = server.base_url + "/v1/skills/execute"
        greeted = httpx.post(url, json={"skill_id": "greet", "arguments": {"name": "Mina"}})
        refused = httpx.post(url, json={"skill_id": "greet", "arguments": {}})
    assert greeted.json()["result"] == {"response": "Hello, Mina!"}
    assert refused.status_code == 400
