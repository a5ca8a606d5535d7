"""Two recipes over several draws (seeds), paired within each draw: for each draw, the paired difference of recipe B
against recipe A on the same problems (``scripts/paired_scores.py``), then over the draws the mean difference, in how
many draws B is ahead, and each recipe's lowest, highest and mean score. What a rule over several seeds reads (batch
41: the identifier part annealed against constant at seeds 0, 1 and 2).

    .venv/bin/python scripts/analysis/seed_draws.py --task stage-6 --names idk idc \\
        --draw 0 results/grpo/batch-40/scores/idk-validation results/grpo/batch-40/scores/idc-validation \\
        --draw 1 results/grpo/batch-41/scores/idk-s1-validation results/grpo/batch-41/scores/idc-s1-validation \\
        [--out FILE.md]

No GPU; a second or two.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
from scripts.analysis.emit import emit  # noqa: E402
from scripts.paired_scores import compare  # noqa: E402


def draws_table(task: str, names: tuple[str, str], draws: list[tuple[str, Path, Path]]) -> tuple[list[dict], dict]:
    """(a row per draw: its two means and B - A with its interval; the summary over the draws)."""
    rows = []
    for label, folder_a, folder_b in draws:
        (row,) = [r for r in compare(folder_a, folder_b, [task]) if "register" not in r]
        rows.append({"draw": label, **row})
    a, b = [r["mean_a"] for r in rows], [r["mean_b"] for r in rows]
    summary = {
        "draws": len(rows),
        "mean_difference": statistics.mean(r["difference"] for r in rows),
        "b_ahead": sum(r["difference"] > 0 for r in rows),
        names[0]: {"lowest": min(a), "highest": max(a), "mean": statistics.mean(a)},
        names[1]: {"lowest": min(b), "highest": max(b), "mean": statistics.mean(b)},
    }
    return rows, summary


def render(task: str, names: tuple[str, str], rows: list[dict], summary: dict) -> str:
    first, second = names
    lines = [
        f"{task}, paired within each draw ({second} - {first}):",
        "",
        f"| draw | n | {first} | {second} | {second} - {first} | 95% interval |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {r['draw']} | {r['n']} | {r['mean_a']:.3f} | {r['mean_b']:.3f} | {r['difference']:+.3f} | "
            f"{r['low']:+.3f} .. {r['high']:+.3f} |"
        )
    lines += [
        "",
        f"- Over {summary['draws']} draws: mean difference **{summary['mean_difference']:+.3f}**, {second} ahead in "
        f"{summary['b_ahead']} of {summary['draws']}.",
    ]
    for name in names:
        s = summary[name]
        lines.append(f"- {name}: lowest {s['lowest']:.3f}, highest {s['highest']:.3f}, mean {s['mean']:.3f}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", required=True, help="the stage both recipes were scored at, e.g. stage-6")
    parser.add_argument("--names", nargs=2, default=("A", "B"), metavar=("A", "B"), help="the two recipes' names")
    parser.add_argument(
        "--draw",
        nargs=3,
        action="append",
        required=True,
        metavar=("LABEL", "FOLDER_A", "FOLDER_B"),
        help="one draw: its label and the two evaluation folders (repeat for each draw)",
    )
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    args = parser.parse_args(argv)
    draws = [(label, Path(a), Path(b)) for label, a, b in args.draw]
    rows, summary = draws_table(args.task, tuple(args.names), draws)
    text = render(args.task, tuple(args.names), rows, summary)
    emit(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
