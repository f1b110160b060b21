"""How the ASGI root path is removed before routing, for each server and proxy combination."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit_server.rootpath import normalize_root_path, strip_root_path


def scope(path: str, root: str) -> dict[str, Any]:
    return {"type": "http", "path": path, "raw_path": path.encode(), "root_path": root}


@pytest.mark.parametrize(
    ("path", "root", "expected"),
    [
        ("/v1/message", "", "/v1/message"),  # no root path at all
        ("/v1/message", "/dm", "/v1/message"),  # hypercorn, proxy strips
        ("/dm/v1/message", "/dm", "/v1/message"),  # hypercorn forwards, or uvicorn strips
        ("/dm/dm/v1/message", "/dm", "/v1/message"),  # uvicorn, proxy forwards the prefix
        ("/dm", "/dm/", "/"),
        ("/dmx/v1/", "/dm", "/dmx/v1/"),  # a longer segment is not the prefix
    ],
)
def test_strip_root_path(path: str, root: str, expected: str) -> None:
    stripped = strip_root_path(scope(path, root))
    assert stripped["path"] == expected
    assert stripped["raw_path"] == expected.encode()
    assert stripped["root_path"] == root


@pytest.mark.parametrize(("value", "expected"), [("dm", "/dm"), ("/dm/", "/dm"), ("/", "")])
def test_normalize_root_path(value: str, expected: str) -> None:
    assert normalize_root_path(value) == expected
