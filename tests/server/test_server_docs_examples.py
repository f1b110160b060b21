"""Every ``bash`` example of docs/http-api.md, run with curl against a live server.

Each block may use ``$BASE_URL`` and ``$SESSION_ID`` (a fresh bot-first session per block) and
states the status of each of its curl calls, in order, with a ``# HTTP <status>`` line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import DEMO, Live

DOC = Path(__file__).resolve().parents[2] / "docs" / "http-api.md"
BLOCK = re.compile(r"^```bash\n(.*?)^```", re.MULTILINE | re.DOTALL)
EXPECTED = re.compile(r"^# HTTP (\d{3})$", re.MULTILINE)
STATUS = re.compile(r"^HTTP_STATUS (\d{3})$", re.MULTILINE)
# Every curl call reports its status on a line of its own, whatever its other options.
PRELUDE = 'curl() { command curl --write-out "\\nHTTP_STATUS %{http_code}\\n" "$@"; }\n'

BLOCKS = BLOCK.findall(DOC.read_text(encoding="utf-8"))


def test_the_docs_show_every_endpoint() -> None:
    text = "\n".join(BLOCKS)
    for pattern in [
        r'curl -s "\$BASE_URL/"',
        r'curl -s "\$BASE_URL/v1/"',
        r'-X POST "\$BASE_URL/v1/session"',
        r'-X POST "\$BASE_URL/v1/session/json"',
        r'-X POST "\$BASE_URL/v1/session/validate"',
        r'-X POST "\$BASE_URL/v1/message"',
        r'curl -s "\$BASE_URL/v1/session/\$SESSION_ID"',
    ]:
        assert re.search(pattern, text), pattern


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{n}" for n in range(len(BLOCKS))])
def test_example_answers_the_documented_statuses(
    block: str, server: Live, http: httpx.Client
) -> None:
    expected = EXPECTED.findall(block)
    assert expected, "each example states its statuses with '# HTTP <status>' lines"
    opened = http.post("/v1/session/json", json={"scenario_graph": DEMO})
    env = {**os.environ, "BASE_URL": server.base_url, "SESSION_ID": opened.json()["session_id"]}
    result = subprocess.run(
        ["bash", "-eu", "-o", "pipefail", "-c", PRELUDE + block],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert STATUS.findall(result.stdout) == expected, result.stdout
