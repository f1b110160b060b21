"""A bounded schemathesis pass over the live server: no 5xx, every answer as documented.

The schema is the server's own ``/openapi.json``; cases are generated from it (valid and
invalid bodies alike) and sent over a real socket. Bounded by examples per operation and by
hypothesis's own limits, so it stays well under a minute; ``derandomize`` makes it repeatable.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.conftest import Live

MAX_EXAMPLES = 40
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def operations(server: Live) -> list[Any]:
    document = httpx.get(f"{server.base_url}/openapi.json", timeout=10).json()
    schema = schemathesis.openapi.from_dict(document)
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_server_answers_every_generated_case_as_documented(
    server: Live, mode: GenerationMode
) -> None:
    """Driven through hypothesis directly: schemathesis's pytest plugin predates pytest 9."""
    found = operations(server)
    assert len(found) == 7
    if mode == GenerationMode.NEGATIVE:
        # Only request bodies can be wrong: the GETs have nothing but a free string path.
        found = [operation for operation in found if operation.method.upper() == "POST"]
    for operation in found:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def answers_as_documented(case: schemathesis.Case) -> None:
            case.call_and_validate(base_url=server.base_url, checks=CHECKS, timeout=30)

        answers_as_documented()
