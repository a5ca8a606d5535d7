"""The plots of ``make eval``: ``eval.png`` (score and exact match per task, split and label) and ``slips.png``
(where completions slip: by position, by tokens per word, which stream slips first, token limit and repeats)."""

from __future__ import annotations

from pathlib import Path

from model_cards.eval_results import EvalRow

LABELS = ("baseline", "trained")
SPLIT_HATCH = {
    "test": "",
    "out_of_register": "//",
    "out_of_register_validation": "\\\\",
    "validation": "..",
    "data": "xx",
}
SPLIT_LINE = {
    "test": "-",
    "out_of_register": "--",
    "out_of_register_validation": (0, (5, 1, 1, 1)),
    "validation": ":",
    "data": "-.",
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_scores(rows: list[EvalRow], path: Path) -> None:
    """Grouped bars: score and exact match per task, one bar per (label, split): colour the label, hatch the split."""
    plt = _pyplot()
    by_key = {(r.label, r.split, r.task): r for r in rows}
    tasks = list(dict.fromkeys(r.task for r in rows))
    groups = [
        (label, split)
        for label in LABELS
        for split in SPLIT_HATCH
        if any(r.label == label and r.split == split for r in rows)
    ]
    colours = {label: f"C{i}" for i, label in enumerate(LABELS)}
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / max(1, len(groups))
    for ax, metric, title in (
        (axes[0], "score", "NW score (arithmetic: partial credit)"),
        (axes[1], "exact_match", "exact match"),
    ):
        for i, (label, split) in enumerate(groups):
            values = [
                getattr(by_key[(label, split, task)], metric) if (label, split, task) in by_key else 0.0
                for task in tasks
            ]
            ax.bar(
                [x + i * width for x in range(len(tasks))],
                values,
                width,
                label=f"{label}, {split}",
                color=colours[label],
                hatch=SPLIT_HATCH[split],
                edgecolor="white" if not SPLIT_HATCH[split] else "black",
                linewidth=0.5,
            )
        ax.set_xticks([x + width * (len(groups) - 1) / 2 for x in range(len(tasks))], tasks, rotation=30)
        ax.set_ylim(0, 1)
        ax.set_title(title)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_slips(diagnostics: dict, path: Path) -> bool:
    """Four panels over the slip groups of the trained adapter (else the base model): slip rate by position in the
    target, slip rate by tokens per word, the stream of the first slip, and the token-limit and repeated-phrase
    rates. Returns False (and writes nothing) when no group has slips to show (no interleave task)."""
    groups = [g for g in diagnostics.get("groups", []) if "first_slip" in g]
    label = "trained" if any(g["label"] == "trained" for g in groups) else "baseline"
    groups = [g for g in groups if g["label"] == label]
    if not groups:
        return False
    plt = _pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    tasks = list(dict.fromkeys(g["task"] for g in groups))
    colours = {task: f"C{i % 10}" for i, task in enumerate(tasks)}
    names = [f"{g['task']}\n{g['split']}" for g in groups]
    for g in groups:
        style = dict(
            color=colours[g["task"]],
            linestyle=SPLIT_LINE.get(g["split"], "-"),
            marker=".",
            label=f"{g['task']}, {g['split']}",
        )
        bins = g["slip_rate_by_position"]
        axes[0, 0].plot(
            [(b["from"] + b["to"]) / 2 for b in bins],
            [float("nan") if b["rate"] is None else b["rate"] for b in bins],
            **style,
        )
        buckets = [b for b in g["slip_rate_by_tokens"] if b["words"]]
        axes[0, 1].plot([b["tokens"] for b in buckets], [b["rate"] for b in buckets], **style)
    axes[0, 0].set(
        title=f"{label}: slip rate by position in the target",
        xlabel="position (fraction of the target)",
        ylabel="target words slipped",
        xlim=(0, 1),
    )
    axes[0, 1].set(title="slip rate by tokens per word", xlabel="tokens the word costs", ylabel="target words slipped")
    axes[0, 0].legend(fontsize=7, ncol=2)
    for ax in axes[0]:
        ax.set_ylim(bottom=0)
    x = range(len(groups))
    a = [g["first_slip"]["stream"]["A"] / max(g["problems"], 1) for g in groups]
    b = [g["first_slip"]["stream"]["B"] / max(g["problems"], 1) for g in groups]
    after = [g["first_slip"]["stream"]["after the end"] / max(g["problems"], 1) for g in groups]
    axes[1, 0].bar(x, a, label="text A")
    axes[1, 0].bar(x, b, bottom=a, label="text B")
    axes[1, 0].bar(x, after, bottom=[i + j for i, j in zip(a, b)], label="after the target's end")
    axes[1, 0].set(title="first slip: which text (share of problems)", ylim=(0, 1))
    axes[1, 0].set_xticks(list(x), names, fontsize=7, rotation=45)
    axes[1, 0].legend(fontsize=8)
    width = 0.4
    axes[1, 1].bar(
        [i - width / 2 for i in x], [g["token_limit"]["rate"] for g in groups], width, label="ran to the token limit"
    )
    axes[1, 1].bar(
        [i + width / 2 for i in x], [g["repeated_phrase"]["rate"] for g in groups], width, label="repeats a phrase"
    )
    axes[1, 1].set(title="token limit and repeated phrases (share of problems)", ylim=(0, 1))
    axes[1, 1].set_xticks(list(x), names, fontsize=7, rotation=45)
    axes[1, 1].legend(fontsize=8)
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
