"""Why GRPO from the base model teaches 2x2 multiplication and not 3x2 (issue 17, item 4): how often a group of
sampled answers holds an exact one, which is what the exact reward needs to rank anything. For each digits config,
the first N train problems (what GRPO draws first), K answers each sampled from the model at temperature 1 (GRPO's
sampling: no top-k or top-p) within the recipes' 16-token completion limit, scored as the reward scores them.

    .venv/bin/python scripts/analysis/arithmetic_group_signal.py [--configs 3x2,2x2] [--n 128] [--k 8] [--out FILE.json]
    .venv/bin/python scripts/analysis/arithmetic_group_signal.py --runs RUN_RESULTS_DIR ... [--out FILE.json]

Prints, per config: the share of exact answers, the share of groups with at least one exact answer, and the mean
partial credit. The base model on CPU: about 3.5 minutes a config for 128 x 8 answers on 2 cores. With ``--runs``
(GRPO runs' results folders, with ``metrics.jsonl(.gz)`` and ``summary.json``) it reads, instead, the share of exact
answers among each run's training samples over windows of steps: whether the exact reward fired more as it trained.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from dataset_builders import tasks  # noqa: E402

COMPLETION_LIMIT = 16  # arithmetic.yaml's and arithmetic-2x2.yaml's max_completion_length


def group_signal(exact: list[list[bool]], partial: list[list[float]]) -> dict:
    """The counts that decide whether GRPO's exact reward has anything to rank, from K answers per problem."""
    answers = sum(len(group) for group in exact)
    return {
        "problems": len(exact),
        "answers": answers,
        "exact_share": sum(map(sum, exact)) / answers,
        "groups_with_an_exact_answer": sum(any(group) for group in exact) / len(exact),
        "mean_partial_credit": sum(map(sum, partial)) / answers,
    }


STEP_WINDOWS = ((1, 50), (50, 200), (200, 400), (400, 600), (600, 800), (800, 1200))
EXACT_KEY = "rewards/arithmetic_exact_reward/mean"


def exact_by_window(run: Path) -> dict:
    """A GRPO run's mean share of exact training samples in each window of steps [lo, hi) that it reached."""
    from scripts.summarize_runs import read_jsonl
    from training.callbacks.run_metrics import latest_per_step

    summary = json.loads((run / "summary.json").read_text())
    records = latest_per_step(read_jsonl(run / "metrics.jsonl"))  # one record a step, the last written
    rows = {r["global_step"]: r for r in records if EXACT_KEY in r}
    if not rows:
        raise SystemExit(f"{run}: no {EXACT_KEY} in metrics.jsonl(.gz) (an arithmetic GRPO run's results folder?)")
    windows = {}
    for lo, hi in STEP_WINDOWS:
        values = [r[EXACT_KEY] for step, r in rows.items() if lo <= step < hi]
        if values:
            windows[f"{lo}-{hi - 1}"] = sum(values) / len(values)
    return {
        "run": str(run),
        "task": summary.get("task"),
        "steps": max(rows),
        "completions_per_step": (summary.get("grpo") or {}).get("per_device_train_batch_size"),
        "exact_share_by_steps": windows,
    }


def sample_config(model, tokenizer, ends, config: str, n: int, k: int, seed: int) -> dict:
    import torch

    from scripts.analysis.group_samples import prompt_tensor, sample_group

    task = tasks.get(f"arithmetic-{config}")
    rows = [row for _, row in zip(range(n), task.train_stream(0))]
    torch.manual_seed(seed)
    exact, partial = [], []
    for row in rows:
        texts = sample_group(model, tokenizer, ends, prompt_tensor(model, tokenizer, row), k, COMPLETION_LIMIT)
        records = task.score_batch(texts, [row] * k)
        exact.append([r["exact"] for r in records])
        partial.append([r["score"] for r in records])
    return {"config": config, **group_signal(exact, partial)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--configs", default="3x2,2x2")
    parser.add_argument("--n", type=int, default=128, help="train problems a config")
    parser.add_argument("--k", type=int, default=8, help="answers sampled a problem (the recipes' num_generations)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=Path, nargs="+", help="GRPO runs' results folders: their training samples")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.runs:
        runs = [exact_by_window(run) for run in args.runs]
        print("| run | task | steps | " + " | ".join(f"steps {lo}-{hi - 1}" for lo, hi in STEP_WINDOWS) + " |")
        print("| --- " * (3 + len(STEP_WINDOWS)) + "|")
        for r in runs:
            cells = [
                f"{r['exact_share_by_steps'][key]:.1%}" if key in r["exact_share_by_steps"] else ""
                for key in (f"{lo}-{hi - 1}" for lo, hi in STEP_WINDOWS)
            ]
            print(f"| {r['run']} | {r['task']} | {r['steps']} | " + " | ".join(cells) + " |")
        if args.out:
            args.out.write_text(json.dumps({"runs": runs}, indent=1) + "\n")
        return 0
    from base_models.models import load_model
    from dataset_builders.prompts import end_token_ids

    model, tokenizer = load_model(args.model, dtype="float32", device="cpu")
    model.eval()
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    ends = end_token_ids(model, tokenizer)
    rows = [sample_config(model, tokenizer, ends, c, args.n, args.k, args.seed) for c in args.configs.split(",")]
    print(f"{args.model}, {args.n} train problems x {args.k} answers at temperature 1, {COMPLETION_LIMIT} tokens\n")
    print("| digits | exact answers | groups with an exact answer | mean partial credit |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['config']} | {r['exact_share']:.1%} | {r['groups_with_an_exact_answer']:.1%} | "
            f"{r['mean_partial_credit']:.3f} |"
        )
    if args.out:
        record = {"model": args.model, "n": args.n, "k": args.k, "seed": args.seed, "rows": rows}
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
