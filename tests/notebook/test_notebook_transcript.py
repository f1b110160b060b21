"""Transcripts of local and remote sessions, and their exports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from dialogkit import Client, Scenario, Session
from dialogkit.engine.session import Reply
from dialogkit.notebook import Transcript

COLUMNS = [
    "turn",
    "user_text",
    "confidence",
    "intent",
    "node_before",
    "node_after",
    "reply",
    "fallback",
    "latency_ms",
]


def conversation(session: Session) -> Transcript:
    session.send("", 0.0)
    session.send("a large latte please", 0.9)
    session.send("예, 맞아요 <yes>", -0.8)
    session.send("yes")
    return Transcript.from_session(session)


def test_a_local_transcript_has_a_full_row_per_turn(session: Session) -> None:
    rows = conversation(session).to_rows()

    assert [list(row) for row in rows] == [COLUMNS] * 5
    assert [row["user_text"] for row in rows] == [
        "",
        "",
        "a large latte please",
        "예, 맞아요 <yes>",
        "yes",
    ]
    assert [row["fallback"] for row in rows] == [None, "no_input", None, "not_understood", None]
    assert [row["intent"] for row in rows][3:] == ["stt_low_confidence", "affirm"]
    assert [(row["node_before"], row["node_after"]) for row in rows][2:] == [
        ("welcome", "confirm"),
        ("confirm", "confirm"),
        ("confirm", "done"),
    ]
    assert rows[2]["confidence"] == 0.9
    assert all(row["latency_ms"] >= 0 for row in rows)


def test_jsonl_export_to_a_path_and_to_an_open_file(session: Session, tmp_path: Path) -> None:
    transcript = conversation(session)
    path = tmp_path / "t.jsonl"
    transcript.to_jsonl(path)
    buffer = io.StringIO()
    transcript.to_jsonl(buffer)

    text = path.read_text(encoding="utf-8")
    assert text == buffer.getvalue()
    assert "예, 맞아요" in text  # not escaped to \\uXXXX
    assert [json.loads(line) for line in text.splitlines()] == transcript.to_rows()


def test_csv_export_reads_back(session: Session, tmp_path: Path) -> None:
    transcript = conversation(session)
    path = tmp_path / "t.csv"
    transcript.to_csv(path)

    with path.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert list(rows[0]) == COLUMNS
    assert len(rows) == len(transcript)
    assert rows[3]["user_text"] == "예, 맞아요 <yes>"
    assert rows[3]["fallback"] == "not_understood"
    assert rows[0]["intent"] == ""  # unknown is an empty cell


def test_the_html_table_escapes_text(session: Session) -> None:
    table = conversation(session)._repr_html_()
    assert table.count("<tr>") == 6  # header and five turns
    assert "&lt;yes&gt;" in table and "<yes>" not in table


def test_a_remote_transcript_is_built_from_the_replies(service_url: str, coffee: Scenario) -> None:
    with Client(service_url, timeout=10) as client:
        remote = client.start(coffee)
        texts = ["", "a large latte please", "yes"]
        replies = [remote.initial_reply] + [remote.send(text) for text in texts[1:]]

    with pytest.raises(TypeError, match="from_replies"):
        Transcript.from_session(remote)  # type: ignore[arg-type]
    transcript = Transcript.from_replies(replies, texts=texts, confidences=[None, 0.0, 0.0])
    rows = transcript.to_rows()
    assert [(r["node_before"], r["node_after"]) for r in rows] == [
        (None, "welcome"),
        ("welcome", "confirm"),
        ("confirm", "done"),
    ]
    assert [r["turn"] for r in rows] == [1, 2, 3]
    assert rows[2]["reply"] == "Thanks! Your large latte will be ready shortly."
    assert rows[2]["intent"] is None  # the trace stays on the service
    assert rows[2]["latency_ms"] == replies[2].processing_time_ms
    assert transcript.path == ["welcome", "confirm", "done"]


def test_replies_and_texts_must_line_up() -> None:
    with pytest.raises(ValueError, match="one entry per reply"):
        Transcript.from_replies([Reply(current_node="a")], texts=["x", "y"])
