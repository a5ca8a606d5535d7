"""How far apart two adapters really are on the same problems: for two evaluations already on disk (folders with
``problems.jsonl`` or its gzipped copy, scored on the same split and seed), per task, the mean score of each on the
problems both answered, the paired difference (B minus A) with a 95% bootstrap interval over problems, and how many
problems B scored higher, lower and the same. Two adapters 0.02 apart at 500 words on 256 problems can be noise: this
says whether they are.

    .venv/bin/python scripts/paired_scores.py FOLDER_A FOLDER_B [--tasks stage-6] [--metric exact] [--by_register]
        [--out FILE.json]
    .venv/bin/python scripts/paired_scores.py FOLDER --baseline [--metric exact]   # the base model against the adapter

``--by_register`` adds, under each task's row, one row for each register its problems draw on (a problem counts for
the register of each of its two texts: ``register_a`` and ``register_b`` of its record), so that a gain can be read
where it happened (batch 38: most where a numeric text is one of the two).
``--baseline`` compares one evaluation's baseline rows (the model without the adapter, ``--baseline true``) with its
trained rows on the same problems: what training gained, with its interval. ``--metric exact`` pairs exact matches
(1 or 0) instead of scores. A folder scored on several splits (the arithmetic control's validation and test) gives a
row for each. Prints one table (and writes it as JSON with --out). Session 25 used it on batch 30
(results/grpo/batch-30/), session 26 on batch 31's arithmetic control.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from scripts.summarize_runs import read_jsonl  # noqa: E402


def labelled_scores(folder: Path, label: str = "trained", metric: str = "score") -> dict[tuple, dict[str, float]]:
    """(task, split) -> problem id -> the ``metric`` (``score``, or ``exact`` as 1 or 0) of ``label``'s rows in
    ``folder``'s problems.jsonl(.gz)."""
    records = read_jsonl(folder / "problems.jsonl")  # or its gzipped copy
    if not records:
        raise SystemExit(f"{folder}: no problems.jsonl or problems.jsonl.gz (is it an evaluation folder?)")
    scores: dict[tuple, dict[str, float]] = {}
    for row in records:
        if row.get("label", "trained") == label:
            scores.setdefault((row["task"], row.get("split")), {})[row["id"]] = float(row[metric])
    if not scores:
        why = " (--baseline needs an evaluation run with --baseline true)" if label == "baseline" else ""
        raise SystemExit(f"{folder}: no {label} rows{why}")
    return scores


def problem_registers(folder: Path) -> dict[str, set[str]]:
    """Problem id -> the registers of its two texts, from ``folder``'s problem records (evaluations before issue 18's
    registers have none: an empty set)."""
    return {
        row["id"]: {row[k] for k in ("register_a", "register_b") if row.get(k)}
        for row in read_jsonl(folder / "problems.jsonl")
    }


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


def compare(
    folder_a: Path,
    folder_b: Path | None,
    tasks: list[str] | None = None,
    metric: str = "score",
    by_register: bool = False,
) -> list[dict]:
    """One row per task (and split) both folders scored (or per named task), on the problem ids both answered;
    without ``folder_b``, ``folder_a``'s baseline rows against its trained rows. ``by_register``: after each such
    row, one per register of its problems (``register`` set), on the problems with a text of that register."""
    if folder_b is None:
        folder_b, scores_a = folder_a, labelled_scores(folder_a, "baseline", metric)
    else:
        scores_a = labelled_scores(folder_a, metric=metric)
    scores_b = labelled_scores(folder_b, metric=metric)
    keys = sorted(set(scores_a) & set(scores_b), key=str)
    if not keys:
        scored = {
            name: sorted({f"{t} ({sp})" for t, sp in s}) for name, s in ((folder_a, scores_a), (folder_b, scores_b))
        }
        raise SystemExit(
            f"no task and split scored in both folders (different splits?): {folder_a}: "
            f"{', '.join(scored[folder_a])}; {folder_b}: {', '.join(scored[folder_b])}"
        )
    registers = problem_registers(folder_a) if by_register else {}  # read once, for every task and split
    rows = []
    for task in tasks or sorted({task for task, _ in keys}):
        task_keys = [key for key in keys if key[0] == task]
        if not task_keys:
            raise SystemExit(f"{task}: not scored in both {folder_a} and {folder_b}")
        for key in task_keys:
            ids = sorted(set(scores_a[key]) & set(scores_b[key]))
            if not ids:
                raise SystemExit(f"{task}: no problem answered in both folders (different splits or seeds?)")
            row = paired([scores_a[key][i] for i in ids], [scores_b[key][i] for i in ids])
            rows.append({"task": task, "split": key[1], **row})
            if by_register:
                for register in sorted(set().union(*(registers.get(i, set()) for i in ids))):
                    some = [i for i in ids if register in registers.get(i, set())]
                    row = paired([scores_a[key][i] for i in some], [scores_b[key][i] for i in some])
                    rows.append({"task": task, "split": key[1], "register": register, **row})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder_a", type=Path)
    parser.add_argument("folder_b", type=Path, nargs="?")
    parser.add_argument("--baseline", action="store_true", help="FOLDER_A's baseline rows against its trained rows")
    parser.add_argument("--metric", choices=("score", "exact"), default="score", help="what is paired (default score)")
    parser.add_argument("--tasks", help="comma-separated, e.g. stage-5,stage-6 (default: every task both scored)")
    parser.add_argument("--by_register", action="store_true", help="a row for each register of the problems' texts too")
    parser.add_argument("--out", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    if args.baseline == (args.folder_b is not None):
        parser.error("give two evaluation folders, or one with --baseline")
    tasks = args.tasks.split(",") if args.tasks else None
    rows = compare(args.folder_a, args.folder_b, tasks, args.metric, args.by_register)
    a_name = f"{args.folder_a} (baseline)" if args.baseline else str(args.folder_a)
    b_name = f"{args.folder_a} (trained)" if args.baseline else str(args.folder_b)
    print(f"A = {a_name}\nB = {b_name}\nmetric: {args.metric}\n")
    several_splits = len({r["split"] for r in rows}) > 1
    print("| task | n | A | B | B - A | 95% interval | B higher / lower / same |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        task = f"{r['task']}, {r['split']}" if several_splits else r["task"]
        if "register" in r:
            task += f", with {r['register']}"
        print(
            f"| {task} | {r['n']} | {r['mean_a']:.3f} | {r['mean_b']:.3f} | {r['difference']:+.3f} | "
            f"{r['low']:+.3f} .. {r['high']:+.3f} | {r['b_higher']} / {r['b_lower']} / {r['same']} |"
        )
    if args.out:
        record = {"a": a_name, "b": b_name, "metric": args.metric, "rows": rows}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
