"""PNG plots of a run's metrics: reward, zero-variance group fraction, completion length and entropy vs step."""

from __future__ import annotations

from pathlib import Path

PLOTS = {  # file name -> (metrics key, title)
    "reward.png": ("reward", "reward (weighted sum)"),
    "zero_std_fraction.png": ("frac_reward_zero_std", "fraction of groups with zero reward variance"),
    "completion_length.png": ("completions/mean_length", "mean completion length (tokens)"),
    "entropy.png": ("entropy", "mean token entropy"),
}


def plot_metrics(records: list[dict], out_dir: str | Path, run_name: str = "") -> list[Path]:
    """One PNG per metric in ``PLOTS`` that the records hold; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, (key, title) in PLOTS.items():
        points = [(r["global_step"], r[key]) for r in records if r.get(key) is not None and "global_step" in r]
        if not points:
            continue
        fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
        ax.plot(*zip(*points), marker="." if len(points) < 50 else None)
        ax.set_xlabel("step")
        ax.set_title(f"{run_name}: {title}" if run_name else title, fontsize=10)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(out_dir / file_name)
        plt.close(fig)
        written.append(out_dir / file_name)
    return written
