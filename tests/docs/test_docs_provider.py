"""The provider example of docs/llm.md runs, importing only from ``dialogkit.nlu``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from dialogkit import Scenario
from dialogkit.nlu import NLURequest
from tests.helpers import COFFEE

LLM_DOC = Path(__file__).resolve().parents[2] / "docs" / "llm.md"


async def test_the_provider_example_fills_the_expected_slot_typed() -> None:
    section = LLM_DOC.read_text(encoding="utf-8").split("## Writing a provider", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    assert "from dialogkit.nlu import" in code.group(1)
    assert "dialogkit.nlu." not in code.group(1)
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)
    provider = namespace["KeywordNLU"]()
    scenario = Scenario.from_file(COFFEE)
    slots = scenario.document.slots

    def request(text: str) -> NLURequest:
        return NLURequest(
            scenario=scenario,
            node=scenario.node("take_order"),
            text=text,
            intents={},
            slots={"size": slots["size"]},
            expected_slot="size",
        )

    assert (await provider.understand(request("big"))).entities == {"size": "large"}
    assert (await provider.understand(request("a bucket"))).entities == {}
