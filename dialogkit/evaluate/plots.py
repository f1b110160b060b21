"""Drawing evaluation results with matplotlib (the ``research`` extra).

One figure, four panels: success and pass^k per model choice, the node funnel (reached vs
dropped, summed over models), and the distribution of user turns per conversation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialogkit.errors import DialogkitError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from dialogkit.evaluate.results import Results


def plot_results(results: Results) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise DialogkitError("Plots need matplotlib: pip install 'dialogkit[research]'.") from exc
    figure = Figure(figsize=(12, 8), layout="constrained")
    success, passes, funnel, turns = figure.subplots(2, 2).flat
    summary = results.summary()
    models = list(summary.index)

    success.bar(models, summary["success"], color="tab:green")
    success.set_ylim(0, 1)
    success.set_title("task success per model")

    columns = [c for c in summary.columns if c.startswith("pass^")]
    ks = [int(c.removeprefix("pass^")) for c in columns]
    for model in models:
        passes.plot(ks, [summary.loc[model, c] for c in columns], marker="o", label=model)
    passes.set_xticks(ks)
    passes.set_ylim(0, 1)
    passes.set_xlabel("k")
    passes.set_title("pass^k (all k trials succeed)")
    passes.legend()

    nodes = results.funnel().groupby("node", sort=False)[["reached", "dropped"]].sum()
    nodes = nodes.sort_values("reached")
    funnel.barh(nodes.index, nodes["reached"], color="tab:blue", label="reached")
    funnel.barh(nodes.index, nodes["dropped"], color="tab:red", label="dropped")
    funnel.set_title("node funnel (all models)")
    funnel.legend()

    table = results.conversations
    for model in models:
        counts = table[table["model"] == model]["user_turns"]
        turns.hist(
            counts, bins=range(0, int(table["user_turns"].max()) + 2), alpha=0.5, label=model
        )
    turns.set_xlabel("user turns per conversation")
    turns.set_title("turn distribution")
    turns.legend()
    return figure
