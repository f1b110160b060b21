"""Recording model calls to a file and answering them again from it, without a network.

A model-backed evaluation is reproducible only if the same prompts get the same answers, and
it is CI-safe only if it needs no model server. A cassette is a JSON Lines file: each call is
one line holding the call's key, what was asked and what the model answered. The key is a
SHA-256 of the canonical JSON of (model, messages, response format, sampling parameters), so
anything that changes the prompt changes the key, and nothing else (time, session ids,
endpoint address) does.

Modes:

* ``record``: every call goes to the model and is appended;
* ``replay``: every call is answered from the file; a call that is not there raises
  ``CassetteMiss``, which a turn does not swallow, so the test or evaluation fails naming it;
* ``record_missing``: answered from the file when there, otherwise sent and appended.

The same key may be recorded several times (the same prompt asked in two sessions can get two
answers); replay hands them out in recorded order and repeats the last one after that.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from dialogkit.errors import CassetteMiss, LLMError
from dialogkit.settings import CassetteMode

__all__ = ["Cassette", "CassetteMiss", "Recording", "call_key"]


class Recording(BaseModel):
    """One line of a cassette: one model call and its answer.

    ``content`` is None for a call that failed (timeout, HTTP error): replaying it fails the
    same way, so the fallback the recorded run took is taken again.
    """

    key: str
    model: str
    messages: list[dict[str, Any]]
    response_format: dict[str, Any] | None = None
    params: dict[str, Any] = {}
    content: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


def call_key(
    model: str,
    messages: list[dict[str, Any]],
    response_format: dict[str, Any] | None,
    params: dict[str, Any],
) -> str:
    """The stable identity of a call: the same request always gives the same key."""
    canonical = json.dumps(
        {
            "model": model,
            "messages": messages,
            "response_format": response_format,
            "params": params,
        },
        sort_keys=True,
        ensure_ascii=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class Cassette:
    """A cassette file in one mode; safe to share between sessions, threads and processes.

    Lines are appended with one ``write`` under an exclusive ``flock``, so concurrent turns
    (and several server workers) never interleave half lines.
    """

    def __init__(self, path: str | Path, mode: CassetteMode) -> None:
        self.path = Path(path)
        self.mode = mode
        self._lock = threading.Lock()
        self._recorded: dict[str, list[Recording]] = defaultdict(list)
        self._served: dict[str, int] = defaultdict(int)
        if mode == "replay" and not self.path.is_file():
            raise LLMError(
                f"LLM cassette {str(self.path)!r} does not exist; record it first with "
                "llm_cassette_mode='record' (DIALOGKIT_LLM_CASSETTE_MODE=record)."
            )
        if mode == "record":
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_bytes(b"")
        elif self.path.is_file():
            self._load()

    def _load(self) -> None:
        for number, line in enumerate(self.path.read_bytes().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                recording = Recording.model_validate_json(line)
            except ValidationError as exc:
                raise LLMError(
                    f"LLM cassette {str(self.path)!r}, line {number}, is not a recording: "
                    f"{exc.errors(include_url=False)[0]['msg']}; re-record the cassette."
                ) from exc
            self._recorded[recording.key].append(recording)

    @property
    def models(self) -> set[str]:
        """The model names this cassette holds answers for."""
        with self._lock:
            return {r.model for recordings in self._recorded.values() for r in recordings}

    def answer(self, key: str, *, model: str, messages: list[dict[str, Any]]) -> Recording | None:
        """The recorded answer for ``key``; None when the call must go to the model.

        Raises ``CassetteMiss`` in replay mode when nothing was recorded for the call.
        """
        if self.mode == "record":
            return None
        with self._lock:
            recordings = self._recorded.get(key)
            if recordings:
                index = self._served[key]
                self._served[key] = index + 1
                return recordings[min(index, len(recordings) - 1)]
        if self.mode == "replay":
            raise CassetteMiss(self.path, key, model, _last_user_text(messages))
        return None

    def record(self, recording: Recording) -> None:
        """Append one call; in ``record_missing`` it also answers later identical calls."""
        line = recording.model_dump_json().encode() + b"\n"
        with self._lock:
            self._recorded[recording.key].append(recording)
            self._served[recording.key] += 1
            with self.path.open("ab") as file:
                fcntl.flock(file, fcntl.LOCK_EX)
                try:
                    file.write(line)
                finally:
                    fcntl.flock(file, fcntl.LOCK_UN)


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return str(message.get("content", ""))
    return ""
