"""Stage 5's checkpoints against the learning rate they spent, and what stage 6's first part built on each: for every
stage-5 arm of batches 38-45 (sft-stage-5-help-long-texts from h4-steps, 759 steps, at a draw's seeds), the learning
rate summed over its steps as its own log recorded it (the logged ``learning_rate`` every 10 steps, averaged, times
the steps; in units of 759 steps at 5e-4), its score at 200 words on validation, and the score at 500 words of stage
6's first part (sft-stage-6-help-long-texts, 1,500 steps) trained from it, where one was.

    .venv/bin/python scripts/analysis/stage5_learning_spent.py     # writes results/grpo/stage5-learning-spent.md

Batch 44's README reads the observation this table holds; batch 45's README reads what sweep 45's warmup-stable-decay
arms found when they tested it (and batch 44's cosine trained again, the same recipe at the same seeds). Rows whose
records are not committed (a batch not yet run) are left out. No GPU; under a second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))  # run as a script from anywhere

from scripts.analysis.stage6_lineage import trained_score  # noqa: E402  (a task's NW score in one eval.json)
from scripts.summarize_runs import read_jsonl  # noqa: E402  (a JSON-lines file or its gzipped copy)

GRPO = REPO_ROOT / "results" / "grpo"
UNIT = 759 * 5e-4  # the constant rate's steps at its peak: the recipe as committed

# (draw, schedule, stage 5's run as BATCH/RUN, its first part's as BATCH/RUN or None), under results/grpo/; a run's
# validation scores are BATCH/scores/RUN-validation. Draw 1 is the sampler's seeds, 2 --seed 1 --problem_seed 1, 3
# --seed 2 --problem_seed 2. Draw 1's first part from the constant rate is batch 40's (the rules' pair; batch 38's
# l5-5e4-s6a scored 0.904).
ARMS = [
    (1, "5e-4 constant", "batch-38/l5-5e4", "batch-40/s6a"),
    (1, "1e-4 constant", "batch-38/l5-1e4", "batch-38/l5-1e4-s6a"),
    (1, "5e-4 cosine", "batch-44/l5-cos", "batch-44/l5-cos-s6a"),
    (1, "5e-4 warmup-stable-decay", "batch-45/l5-wsd", "batch-45/l5-wsd-s6a"),
    (1, "5e-4 cosine, trained again", "batch-45/l5-cos-r", "batch-45/l5-cos-r-s6a"),
    (2, "5e-4 constant", "batch-39/l5-5e4-s2", "batch-39/l5-5e4-s2-s6a"),
    (2, "1e-4 constant", "batch-39/l5-1e4-s2", "batch-39/l5-1e4-s2-s6a"),
    (2, "5e-4 cosine", "batch-40/l5-cos-s2", "batch-40/l5-cos-s2-s6a"),
    (2, "5e-4 warmup-stable-decay", "batch-45/l5-wsd-s2", "batch-45/l5-wsd-s2-s6a"),
    (3, "5e-4 constant", "batch-44/l5-5e4-s3", None),
    (3, "5e-4 cosine", "batch-44/l5-cos-s3", None),
    (3, "5e-4 warmup-stable-decay", "batch-45/l5-wsd-s3", None),
]


def learning_rate_spent(run: Path) -> float:
    """The learning rate summed over the run's steps, in ``UNIT``s: the mean of its logged rates times its steps."""
    rates = [r["learning_rate"] for r in read_jsonl(run / "metrics.jsonl") if "learning_rate" in r]
    steps = json.loads((run / "summary.json").read_text())["global_step"]
    return statistics.fmean(rates) * steps / UNIT


def validation_scores(root: Path, batch_run: str) -> Path:
    """BATCH/RUN's validation scores folder: BATCH/scores/RUN-validation under ``root``."""
    batch, run = batch_run.split("/")
    return root / batch / "scores" / f"{run}-validation"


def table(root: Path = GRPO) -> list[dict]:
    rows = []
    for draw, schedule, run, first_part in ARMS:
        if not (root / run / "summary.json").exists():
            continue  # a batch not run yet
        rows.append(
            {
                "draw": draw,
                "schedule": schedule,
                "run": run,
                "learning_rate_spent": learning_rate_spent(root / run),
                "stage5_200w": trained_score(validation_scores(root, run) / "eval.json", "stage-5"),
                "first_part_500w": (
                    trained_score(validation_scores(root, first_part) / "eval.json", "stage-6") if first_part else None
                ),
                "first_part": first_part,
            }
        )
    return rows


def markdown(rows: list[dict]) -> str:
    fmt = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
    lines = [
        "# Stage 5's checkpoints: the learning rate they spent, and what stage 6's first part built on each",
        "",
        "Written by `scripts/analysis/stage5_learning_spent.py` from committed records (its docstring says how).",
        "Learning rate spent: the mean of the run's logged rates times its steps, in units of 759 steps at 5e-4.",
        "Scores: greedy, 256 validation problems; the first part's at 500 words, stage 5's at 200.",
        "",
        "| draw | stage 5's schedule | run | learning rate spent | stage 5 at 200 w | first part at 500 w | "
        "first part |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in sorted(rows, key=lambda r: (r["draw"], -r["learning_rate_spent"])):
        lines.append(
            f"| {r['draw']} | {r['schedule']} | `{r['run']}` | {r['learning_rate_spent']:.2f} | "
            f"{fmt(r['stage5_200w'])} | {fmt(r['first_part_500w'])} | "
            f"{'`' + r['first_part'] + '`' if r['first_part'] else '-'} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=GRPO / "stage5-learning-spent.md")
    args = parser.parse_args(argv)
    text = markdown(table())
    args.out.write_text(text)
    print(text, end="")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
