"""The held-out paraphrase sets stay a measure of their last utterance.

Each case of ``benchmarks/paraphrases`` reaches a node with plain turns and ends with the one
utterance ``benchmarks/nlu_tiers.py`` counts. If the engine ever stopped reaching that node,
the figures would silently measure something else; so every turn but the last must hold
with the rules alone, as when the sets were written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dialogkit import Engine
from dialogkit.scenario.scenario import Scenario
from dialogkit.settings import Settings
from dialogkit.testing.conversations import Observation, check, load_test_file

SETS = Path(__file__).resolve().parent.parent / "benchmarks" / "paraphrases"
FILES = sorted([*SETS.glob("*.json"), *SETS.glob("unseen/*.json"), *SETS.glob("fresh*/*.json")])
KINDS = ("hard", "plain", "none", "value")


def test_there_are_calibration_and_held_out_sets() -> None:
    held_out = {"unseen", *(f"fresh{n}" for n in ("", *range(2, 36)))}
    assert {path.parent.name for path in FILES} == {"paraphrases", *held_out}


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
async def test_every_turn_before_the_measured_one_holds_with_the_rules(path: Path) -> None:
    spec, scenario_file = load_test_file(path)
    scenario = Scenario.from_file(scenario_file)
    offline = Settings(core_default_llm="", core_nlu_llm="", embedding_model="")
    async with Engine(offline, skill_runtime="embedded") as engine:
        for case in spec.cases:
            if case.skill_runtime != "reference":
                continue  # the benchmark leaves out cases of an unreachable runtime too
            assert case.turns, case.name
            if path.name != "dental_caries_case1.json" or path.parent.name != "paraphrases":
                assert case.name.partition(":")[0] in KINDS, case.name
            options = case.options.model_dump(exclude_none=True)
            session = await engine.astart(scenario, user=case.user, **options)
            failed = check(case.initial, Observation(session.initial_reply, session.info()))
            assert failed is None, (case.name, "initial", failed)
            for index, turn in enumerate(case.turns[:-1], 1):
                reply = await session.asend(turn.user, turn.confidence)
                failed = check(turn.expect, Observation(reply, await session.ainfo()))
                assert failed is None, (case.name, index, failed)
