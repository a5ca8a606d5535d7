"""Condense GPU sweep runs into one JSON record per batch (results/grpo/): settings, steps, time, non-finite steps,
the validation curve (promotion checks), the final validation score, and the training reward every 10 steps.

    python scripts/summarize_runs.py RESULTS_DIR OUT.json [--note "what the batch tested"]

RESULTS_DIR holds one folder per run as `scripts/gpu/grpo_arms.sh` writes them (summary.json, metrics.jsonl,
promotion.jsonl, eval-validation/eval.json; or the later sweeps' scores/RUN-validation/eval.json beside the runs).
Folders without a summary.json (logs, scores) are not runs.
"""

import argparse
import gzip
import json
from pathlib import Path

# what a run's record keeps of its recipe
RECIPE_KEYS = (
    "word_credit",
    "stage",
    "init_adapter",
    "continuation_words",
    "continuation_cuts",
    "continuation_slips_only",
    "scrambled_fraction",
    "identifier_fraction",
    "long_identifier_share",
    "doubled_fraction",
    "repeated_fraction",
)


def read_jsonl(path: Path) -> list[dict]:
    """The records of a JSON-lines file, or of its gzipped copy (``scripts/compress_results.py``); none if neither."""
    packed = path.with_name(path.name + ".gz")
    if not path.exists() and packed.exists():
        text = gzip.decompress(packed.read_bytes()).decode("utf-8")
    else:
        text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run_record(folder: Path) -> dict:
    summary = json.loads((folder / "summary.json").read_text())  # a run folder has one (main)
    metrics = read_jsonl(folder / "metrics.jsonl")
    evaluation = folder / "eval-validation" / "eval.json"
    if not evaluation.exists():  # the later sweeps' layout: scores/NAME-validation/ beside the runs
        evaluation = folder.parent / "scores" / f"{folder.name}-validation" / "eval.json"
    rows = json.loads(evaluation.read_text())["rows"] if evaluation.exists() else []
    keys = (
        "reward",
        "rewards/interleave_strict_reward/mean",
        "entropy",
        "completions/mean_length",
        "completions/clipped_ratio",
        "frac_reward_zero_std",
    )
    return {
        "run": folder.name,
        "recipe": {k: v for k, v in (summary.get("recipe") or {}).items() if k in RECIPE_KEYS},
        "grpo": summary.get("grpo"),
        "steps": summary.get("global_step"),
        "wall_seconds": summary.get("wall_seconds"),
        "nonfinite_steps_skipped": summary.get("nonfinite_gradient_steps_skipped"),
        "validation_curve": [
            (p["global_step"], round(p["validation_nw_score"], 4), p["validation_exact_match"])
            for p in read_jsonl(folder / "promotion.jsonl")
        ],
        "final_validation": [{k: r[k] for k in ("task", "n", "nw_score", "exact_match")} for r in rows],
        "train_curve_every_10_steps": [
            {"step": m.get("global_step"), **{k: round(m[k], 4) for k in keys if k in m}} for m in metrics[::10]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results_dir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--note", default="")
    args = parser.parse_args()
    runs = [run_record(f) for f in sorted(args.results_dir.iterdir()) if (f / "summary.json").is_file()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"note": args.note, "runs": runs}, indent=1) + "\n")
    for run in runs:
        final = run["final_validation"][0]["nw_score"] if run["final_validation"] else None
        print(
            f"{run['run']:>16}: {run['steps']} steps, {len(run['nonfinite_steps_skipped'] or [])} non-finite, "
            f"validation {final}"
        )


if __name__ == "__main__":
    main()
