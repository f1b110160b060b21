"""Response bodies: encoded once, byte for byte the wire form, and never a 500 on odd text."""

from __future__ import annotations

import json

from dialogkit.engine.session import Reply
from dialogkit.wire import dump_json


def test_a_body_is_the_compact_utf8_wire_form() -> None:
    reply = Reply(session_id="s", response="안녕하세요", current_node="a", turn_count=1)
    body = dump_json(reply, exclude_none=True)
    assert body == json.dumps(reply.to_json(), ensure_ascii=False, separators=(",", ":")).encode()


def test_a_lone_surrogate_is_repaired_not_a_failure() -> None:
    body = dump_json(Reply(session_id="s", response="a\ud800b"), exclude_none=True)
    assert json.loads(body)["response"] == "a\ufffdb"
