"""``Results``: the conversations and turns of an evaluation, as tables, metrics and files.

``conversations`` has one row per conversation (model, task, repeat, persona, success and the
failure reason, the end node, turns, fallbacks, STT-gate rejections, model calls and tokens,
the path); ``turns`` one row per user utterance. Both are pandas DataFrames (the
``research`` extra). ``summary()`` gives the metrics per model choice, ``funnel()`` and
``transitions()`` where conversations went, ``plot()`` draws them, and ``save``/``load``
keep them as Parquet (with pyarrow) or JSON Lines plus CSV.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dialogkit.errors import DialogkitError
from dialogkit.evaluate.metrics import pass_hat_k
from dialogkit.evaluate.users import PERSONAS

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

LIST_COLUMNS = ("path", "transitions")
DICT_COLUMNS = ("slots", "entities", "goal")
META_FILE = "meta.json"


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as exc:
        raise DialogkitError(
            "Evaluation tables need pandas: pip install 'dialogkit[research]'."
        ) from exc
    return pandas


class Results:
    """What ``evaluate`` returns; rows in the order model, task, repeat."""

    def __init__(
        self,
        conversations: list[dict[str, Any]],
        turns: list[dict[str, Any]],
        meta: dict[str, Any] | None = None,
    ) -> None:
        self._conversation_rows = conversations
        self._turn_rows = turns
        self.meta = dict(meta or {})

    def __repr__(self) -> str:
        models = ", ".join(self.meta.get("models", []))
        return f"Results({len(self._conversation_rows)} conversations; models: {models})"

    # ----------------------------------------------------------------- tables

    @cached_property
    def conversations(self) -> pd.DataFrame:
        return _pandas().DataFrame(self._conversation_rows)

    @cached_property
    def turns(self) -> pd.DataFrame:
        return _pandas().DataFrame(self._turn_rows)

    def to_pandas(self) -> pd.DataFrame:
        """The conversations table (``.turns`` holds the turns)."""
        return self.conversations

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(row["model"] for row in self._conversation_rows))

    # ----------------------------------------------------------------- metrics

    def pass_hat_k(self, k: int) -> dict[str, float]:
        """pass^k per model: the mean over tasks of C(c, k) / C(n, k)."""
        table: dict[str, dict[int, list[int]]] = {}
        for row in self._conversation_rows:
            counts = table.setdefault(row["model"], {}).setdefault(int(row["task"]), [0, 0])
            counts[0] += 1
            counts[1] += bool(row["success"])
        return {
            model: pass_hat_k(((n, c) for n, c in tasks.values()), k)
            for model, tasks in table.items()
        }

    def summary(self) -> pd.DataFrame:
        """One row per model choice: success, pass^k for k = 1..repeats, cost and latency.

        ``turns_to_complete`` is the mean bot turn count of successful conversations;
        ``fallback_rate`` and ``stt_gate_rate`` are shares of user utterances; latency
        percentiles are over single turns, as the caller saw them.
        """
        pd = _pandas()
        conversations, turns = self.conversations, self.turns
        repeats = int(
            self.meta.get("repeats") or conversations.groupby(["model", "task"]).size().min()
        )
        rows = []
        for model in self.models:
            mine = conversations[conversations["model"] == model]
            said = turns[turns["model"] == model] if len(turns) else turns
            won = mine[mine["success"].astype(bool)]
            row: dict[str, Any] = {
                "model": model,
                "conversations": len(mine),
                "success": float(mine["success"].astype(bool).mean()),
            }
            for k in range(1, repeats + 1):
                row[f"pass^{k}"] = self.pass_hat_k(k)[model]
            utterances = max(int(mine["user_turns"].sum()), 1)
            latency = said["latency_ms"] if len(said) else pd.Series([0.0])
            row |= {
                "turns_to_complete": float(won["turn_count"].mean()) if len(won) else None,
                "fallback_rate": float(mine["fallbacks"].sum()) / utterances,
                "stt_gate_rate": float(mine["stt_gates"].sum()) / utterances,
                "llm_calls": float(mine["llm_calls"].mean()),
                "tokens": float(mine["tokens"].mean()),
                "latency_p50_ms": float(latency.quantile(0.5)),
                "latency_p95_ms": float(latency.quantile(0.95)),
                "nonsense": int(mine["nonsense"].sum()) if "nonsense" in mine else 0,
                "errors": int(mine["error"].notna().sum()),
            }
            rows.append(row)
        return pd.DataFrame(rows).set_index("model")

    def by_persona(self) -> pd.DataFrame:
        """Success per model and persona: how reachability (cooperative) compares with
        robustness (paraphrasing, noisy); ``nonsense`` counts flagged runs."""
        table = self.conversations.copy()
        table["won"] = table["success"].astype(bool)
        if "nonsense" not in table:
            table["nonsense"] = False
        grouped = table.groupby(["model", "persona"], sort=False)
        frame = grouped.agg(
            conversations=("won", "size"),
            success=("won", "mean"),
            nonsense=("nonsense", "sum"),
        )
        order = {persona: index for index, persona in enumerate(PERSONAS)}
        frame = frame.sort_index(
            level="persona", key=lambda names: names.map(lambda n: order.get(n, len(order)))
        )
        return frame.sort_index(level="model", sort_remaining=False).astype({"nonsense": int})

    def failure_kinds(self) -> pd.DataFrame:
        """How many conversations failed in each named way, per model, most common first."""
        table = self.conversations
        if "kind" not in table or not table["kind"].notna().any():
            return _pandas().DataFrame(columns=["model", "kind", "count"])
        counts = table[table["kind"].notna()].groupby(["model", "kind"]).size()
        frame = counts.reset_index(name="count")
        return frame.sort_values(["model", "count"], ascending=[True, False], ignore_index=True)

    def report(self, transcripts: int = 3) -> str:
        """The text ``dialogkit eval`` prints: tables, warnings, failing transcripts."""
        from dialogkit.evaluate.report import report

        return report(self, transcripts=transcripts)

    def transcript(self, conversation_id: str) -> str:
        """One conversation turn by turn, with node, NLU result and slots."""
        from dialogkit.evaluate.report import transcript

        return transcript(self, conversation_id)

    def funnel(self) -> pd.DataFrame:
        """Per model and node: conversations that reached it, went on from it, stopped there.

        A conversation *completed* a node when it moved on to another node afterwards, or the
        node is where it finished the session; otherwise it *dropped* there.
        """
        counts: dict[tuple[str, str], list[int]] = {}
        for row in self._conversation_rows:
            path = list(row["path"])
            for node in dict.fromkeys(path):
                last = len(path) - 1 - path[::-1].index(node)
                moved_on = last < len(path) - 1
                finished = bool(row["complete"]) and last == len(path) - 1
                entry = counts.setdefault((row["model"], node), [0, 0])
                entry[0] += 1
                entry[1] += moved_on or finished
        rows = [
            {"model": model, "node": node, "reached": r, "completed": c, "dropped": r - c}
            for (model, node), (r, c) in counts.items()
        ]
        return _pandas().DataFrame(
            rows, columns=["model", "node", "reached", "completed", "dropped"]
        )

    def transitions(self) -> pd.DataFrame:
        """How often each move (source node -> target node) was taken, per model."""
        counts: dict[tuple[str, str, str], int] = {}
        for row in self._conversation_rows:
            for source, target in row["transitions"]:
                key = (row["model"], source, target)
                counts[key] = counts.get(key, 0) + 1
        rows = [
            {"model": m, "source": s, "target": t, "count": n} for (m, s, t), n in counts.items()
        ]
        frame = _pandas().DataFrame(rows, columns=["model", "source", "target", "count"])
        return frame.sort_values(["model", "count"], ascending=[True, False], ignore_index=True)

    def plot(self) -> Figure:
        """Success and pass^k per model, the node funnel and the turn distribution."""
        from dialogkit.evaluate.plots import plot_results

        return plot_results(self)

    # ----------------------------------------------------------------- files

    def save(self, folder: str | Path) -> Path:
        """Write the tables into ``folder``: Parquet when pyarrow is installed, else JSON
        Lines and CSV; ``meta.json`` holds the run's parameters."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        (out / META_FILE).write_text(json.dumps(self.meta, ensure_ascii=False), encoding="utf-8")
        for name, rows in (("conversations", self._conversation_rows), ("turns", self._turn_rows)):
            flat = _pandas().DataFrame(rows)
            for column in DICT_COLUMNS:
                if column in flat:
                    flat[column] = [json.dumps(v, ensure_ascii=False) for v in flat[column]]
            if _has_pyarrow():
                flat.to_parquet(out / f"{name}.parquet", index=False)
                continue
            with open(out / f"{name}.jsonl", "w", encoding="utf-8") as lines:
                for row in rows:
                    lines.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
            for column in LIST_COLUMNS:
                if column in flat:
                    flat[column] = [json.dumps(v, ensure_ascii=False) for v in flat[column]]
            flat.to_csv(out / f"{name}.csv", index=False)
        return out

    @classmethod
    def load(cls, folder: str | Path) -> Results:
        """Read what ``save`` wrote (either format)."""
        source = Path(folder)
        if not (source / META_FILE).is_file():
            raise DialogkitError(f"{source}: no {META_FILE}; is this a saved evaluation?")
        meta = json.loads((source / META_FILE).read_text(encoding="utf-8"))
        tables = []
        for name in ("conversations", "turns"):
            parquet, lines = source / f"{name}.parquet", source / f"{name}.jsonl"
            if parquet.is_file():
                records = _pandas().read_parquet(parquet).to_dict("records")
                tables.append([_from_parquet(record) for record in records])
            elif lines.is_file():
                text = lines.read_text(encoding="utf-8").splitlines()
                tables.append([json.loads(line) for line in text if line.strip()])
            else:
                raise DialogkitError(f"{source}: neither {parquet.name} nor {lines.name} exists.")
        return cls(tables[0], tables[1], meta)


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _from_parquet(record: dict[str, Any]) -> dict[str, Any]:
    """Plain Python values again: lists for arrays, dicts for JSON text, None for NaN."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key in LIST_COLUMNS:
            out[key] = [v.tolist() if hasattr(v, "tolist") else v for v in value]
        elif key in DICT_COLUMNS:
            out[key] = json.loads(value)
        elif hasattr(value, "item"):
            out[key] = value.item()
        elif isinstance(value, float) and value != value:
            out[key] = None
        else:
            out[key] = value
    return out
