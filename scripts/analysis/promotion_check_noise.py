"""How often a promotion check passes by chance: from one adapter's scored answers (an evaluation folder's
``problems.jsonl``, one task), the mean of a check of N problems drawn from them (bootstrap), its standard deviation,
and the probability that it reaches each bar. A stage's GRPO stops at its first check at or over its
``promotion_bar`` (``--promotion_problems``, 64 by default): where an adapter whose score on many problems is under
the bar passes a small check often, the check promotes stages that miss their goal.

    .venv/bin/python scripts/analysis/promotion_check_noise.py \\
        results/grpo/batch-42/scores/chain-a-stage-2-validation --task stage-2 --bars 0.98,0.993 \\
        [--sizes 64,128,256] [--out FILE.md]

The answers stand for the adapter's population of problems; the checks' own problems (validation 512 on) are other
draws from the same split. No GPU; a few seconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
from scripts.analysis.emit import emit  # noqa: E402
from scripts.paired_scores import labelled_scores  # noqa: E402


def task_scores(folder: Path, task: str) -> list[float]:
    """The trained rows' scores of ``task`` in ``folder`` (one split), in problem order."""
    found = {key: rows for key, rows in labelled_scores(folder).items() if key[0] == task}
    if len(found) != 1:
        raise SystemExit(f"{folder}: {len(found)} splits scored for {task}; expected one")
    (rows,) = found.values()
    return list(rows.values())


def check_noise(scores: list[float], sizes: list[int], bars: list[float], draws: int, seed: int) -> list[dict]:
    """For each check size: the standard deviation of its mean and the probability it reaches each bar."""
    rng = random.Random(seed)
    rows = []
    for size in sizes:
        means = [statistics.fmean(rng.choices(scores, k=size)) for _ in range(draws)]
        rows.append(
            {
                "size": size,
                "sd": statistics.pstdev(means),
                "passes": {bar: sum(m >= bar for m in means) / draws for bar in bars},
            }
        )
    return rows


def render(folder: Path, task: str, scores: list[float], rows: list[dict], bars: list[float], draws: int) -> str:
    lines = [
        f"`{folder}`, {task}: {len(scores)} answers, mean {statistics.fmean(scores):.3f}; checks drawn from them "
        f"({draws:,} bootstrap draws each):",
        "",
        "| problems a check | sd of its mean | " + " | ".join(f"P(check >= {bar:g})" for bar in bars) + " |",
        "| --- | --- | " + " | ".join("---" for _ in bars) + " |",
    ]
    for row in rows:
        passes = " | ".join(f"{row['passes'][bar]:.3f}" for bar in bars)
        lines.append(f"| {row['size']} | {row['sd']:.4f} | {passes} |")
    return "\n".join(lines) + "\n"


def numbers(text: str, kind=float) -> list:
    return [kind(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="an evaluation folder (problems.jsonl or its gzipped copy)")
    parser.add_argument("--task", required=True, help="e.g. stage-2")
    parser.add_argument("--bars", required=True, help="comma-separated, e.g. 0.98,0.993")
    parser.add_argument("--sizes", default="64,128,256", help="problems a check, comma-separated")
    parser.add_argument("--draws", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    args = parser.parse_args(argv)
    scores, bars = task_scores(args.folder, args.task), numbers(args.bars)
    rows = check_noise(scores, numbers(args.sizes, int), bars, args.draws, args.seed)
    emit(render(args.folder, args.task, scores, rows, bars, args.draws), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
