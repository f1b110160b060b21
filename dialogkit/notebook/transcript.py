"""Transcripts: one row per turn, as a table in a notebook or as JSON Lines and CSV files.

A local session records every turn itself (``session.transcript()``). A remote session does
not: the service keeps the trace to itself, so ``Transcript.from_replies`` builds the rows
from what the replies say, and leaves intent and fallback kind empty.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from dialogkit.engine.session import Reply
from dialogkit.engine.state import TurnRecord
from dialogkit.errors import DialogkitError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Transcript", "TranscriptRow"]

Target = str | Path | IO[str]
"""A file name, or a text file opened for writing."""


TranscriptRow = TurnRecord
"""A transcript's row is the engine's turn row (one type for the store, replies' traces,
transcripts and evaluation)."""

COLUMNS: tuple[str, ...] = (
    "turn",
    "user_text",
    "confidence",
    "intent",
    "node_before",
    "node_after",
    "reply",
    "fallback",
    "latency_ms",
)
"""The columns a transcript exports, in order."""


class _RecordingSession(Protocol):
    def transcript(self) -> list[TurnRecord]: ...


class Transcript:
    """The turns of one conversation, in order."""

    def __init__(self, rows: Iterable[TranscriptRow]) -> None:
        self.rows = list(rows)

    @classmethod
    def from_records(cls, records: Iterable[TurnRecord]) -> Transcript:
        """Rows from the engine's turn records (``session.transcript()``)."""
        return cls(records)

    @classmethod
    def from_session(cls, session: _RecordingSession) -> Transcript:
        """The full transcript of a local session; for a remote one use ``from_replies``."""
        if not callable(getattr(session, "transcript", None)):
            raise TypeError(
                f"{type(session).__name__} keeps no transcript (a remote session's trace stays "
                "on the service); collect its replies and use Transcript.from_replies()."
            )
        return cls.from_records(session.transcript())

    @classmethod
    def from_replies(
        cls,
        replies: Sequence[Reply],
        *,
        texts: Sequence[str] | None = None,
        confidences: Sequence[float | None] | None = None,
    ) -> Transcript:
        """Rows from the replies a session returned, in order, starting with any opening reply.

        ``texts[i]`` and ``confidences[i]`` are what the user sent to get ``replies[i]`` ("" and
        None for an opening reply). A reply that carries a trace (a local session's) gives a
        full row; otherwise the row holds what the reply says, the node before it is the
        previous reply's node, and the latency is the service's processing time.
        """
        texts = list(texts) if texts is not None else [""] * len(replies)
        confidences = list(confidences) if confidences is not None else [None] * len(replies)
        if not len(texts) == len(confidences) == len(replies):
            raise ValueError("texts and confidences need one entry per reply.")
        rows: list[TranscriptRow] = []
        before: str | None = None
        for reply, text, confidence in zip(replies, texts, confidences, strict=True):
            if reply.trace is not None:
                rows.append(reply.trace)
            else:
                rows.append(
                    TranscriptRow(
                        turn=reply.turn_count,
                        user_text=text,
                        confidence=confidence,
                        node_before=before,
                        node_after=reply.current_node,
                        reply=reply.response,
                        latency_ms=reply.processing_time_ms,
                    )
                )
            before = reply.current_node
        return cls(rows)

    @property
    def path(self) -> list[str]:
        """The nodes the conversation went through, in order (for ``to_svg(path=...)``).

        Nodes passed through within a single turn are not recorded in a transcript.
        """
        steps: list[str] = []
        for row in self.rows:
            for node in (row.node_before, row.node_after):
                if node and (not steps or steps[-1] != node):
                    steps.append(node)
        return steps

    def to_rows(self) -> list[dict[str, Any]]:
        """One plain dict per turn, with the keys of ``COLUMNS`` in order."""
        return [row.as_dict(COLUMNS) for row in self.rows]

    def to_pandas(self) -> pd.DataFrame:
        """One row per turn, the columns of ``COLUMNS`` (needs the ``research`` extra)."""
        try:
            import pandas
        except ImportError as exc:
            raise DialogkitError(
                "to_pandas needs pandas: pip install 'dialogkit[research]'."
            ) from exc
        return pandas.DataFrame(self.to_rows(), columns=list(COLUMNS))

    def to_jsonl(self, target: Target) -> None:
        """Write one JSON object per line (UTF-8, non-ASCII kept as is)."""
        with _opened(target) as out:
            for row in self.to_rows():
                out.write(json.dumps(row, ensure_ascii=False) + "\n")

    def to_csv(self, target: Target) -> None:
        """Write a CSV table with a header row; unknown values are empty cells."""
        with _opened(target) as out:
            writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(self.to_rows())

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[TranscriptRow]:
        return iter(self.rows)

    def __getitem__(self, index: int) -> TranscriptRow:
        return self.rows[index]

    def __repr__(self) -> str:
        return f"Transcript({len(self.rows)} turns)"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(name)}</th>" for name in COLUMNS)
        body = "".join(
            "<tr>" + "".join(f"<td>{_cell(row[name])}</td>" for name in COLUMNS) + "</tr>"
            for row in self.to_rows()
        )
        return (
            '<table class="dialogkit-transcript" style="text-align:left">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return html.escape(str(value))


@contextmanager
def _opened(target: Target) -> Iterator[IO[str]]:
    """The named file, or ``target`` itself when it is an open file (left open)."""
    if not isinstance(target, str | Path):
        yield target
        return
    with open(target, "w", encoding="utf-8", newline="") as out:
        yield out
