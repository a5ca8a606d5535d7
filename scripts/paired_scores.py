"""How far apart two adapters really are on the same problems: for two evaluations already on disk (folders with
``problems.jsonl`` or its gzipped copy, scored on the same split and seed), per task, the mean score of each on the
problems both answered, the paired difference (B minus A) with a 95% bootstrap interval over problems, and how many
problems B scored higher, lower and the same. Two adapters 0.02 apart at 500 words on 256 problems can be noise: this
says whether they are.

    .venv/bin/python scripts/paired_scores.py FOLDER_A FOLDER_B [--tasks stage-6] [--out FILE.json]

Prints one table (and writes it as JSON with --out). Session 25 used it on batch 30 (results/grpo/batch-30/).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from scripts.summarize_runs import read_jsonl  # noqa: E402


def trained_scores(folder: Path) -> dict[str, dict[str, float]]:
    """task -> problem id -> score of the trained label in ``folder``'s problems.jsonl(.gz)."""
    records = read_jsonl(folder / "problems.jsonl")  # or its gzipped copy
    if not records:
        raise SystemExit(f"{folder}: no problems.jsonl or problems.jsonl.gz (is it an evaluation folder?)")
    scores: dict[str, dict[str, float]] = {}
    for row in records:
        if row.get("label", "trained") == "trained":
            scores.setdefault(row["task"], {})[row["id"]] = float(row["score"])
    return scores


def paired(a: list[float], b: list[float], resamples: int = 10000, seed: int = 0) -> dict:
    """Mean of each, mean of b - a with a 95% percentile bootstrap interval over problems, wins/losses/ties of b."""
    n = len(a)
    diffs = [y - x for x, y in zip(a, b)]
    rng = random.Random(seed)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return {
        "n": n,
        "mean_a": sum(a) / n,
        "mean_b": sum(b) / n,
        "difference": sum(diffs) / n,
        "low": means[int(0.025 * resamples)],
        "high": means[int(0.975 * resamples) - 1],
        "b_higher": sum(d > 0 for d in diffs),
        "b_lower": sum(d < 0 for d in diffs),
        "same": sum(d == 0 for d in diffs),
    }


def compare(folder_a: Path, folder_b: Path, tasks: list[str] | None = None) -> list[dict]:
    """One row per task both folders scored (or per named task), on the problem ids both answered."""
    scores_a, scores_b = trained_scores(folder_a), trained_scores(folder_b)
    rows = []
    for task in tasks or sorted(set(scores_a) & set(scores_b)):
        if task not in scores_a or task not in scores_b:
            raise SystemExit(f"{task}: not scored in both {folder_a} and {folder_b}")
        ids = sorted(set(scores_a[task]) & set(scores_b[task]))
        if not ids:
            raise SystemExit(f"{task}: no problem answered in both folders (different splits or seeds?)")
        row = paired([scores_a[task][i] for i in ids], [scores_b[task][i] for i in ids])
        rows.append({"task": task, **row})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder_a", type=Path)
    parser.add_argument("folder_b", type=Path)
    parser.add_argument("--tasks", help="comma-separated, e.g. stage-5,stage-6 (default: every task both scored)")
    parser.add_argument("--out", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    rows = compare(args.folder_a, args.folder_b, args.tasks.split(",") if args.tasks else None)
    print(f"A = {args.folder_a}\nB = {args.folder_b}\n")
    print("| task | n | A | B | B - A | 95% interval | B higher / lower / same |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['task']} | {r['n']} | {r['mean_a']:.3f} | {r['mean_b']:.3f} | {r['difference']:+.3f} | "
            f"{r['low']:+.3f} .. {r['high']:+.3f} | {r['b_higher']} / {r['b_lower']} / {r['same']} |"
        )
    if args.out:
        record = {"a": str(args.folder_a), "b": str(args.folder_b), "rows": rows}
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
