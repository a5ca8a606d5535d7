"""``make bench-train`` (GPU): TRL's defaults vs the project's settings, side by side on one GPU.

Two parts, each comparison made within the same invocation on the same GPU:
- rollouts: tokens/s of TRL's default ``generate`` (dynamic cache, LoRA adapter unmerged) vs the project's
  sampler (``training.trainer.graph_sampler``), at the 10- and 100-word stages, 128 and 512 completions;
- GRPO steps: the recipes run for a few steps with TRL's defaults (its ``generate``, gradient checkpointing
  on, as ``GRPOConfig`` defaults it) and as the project's recipes set them: step time, generation time
  per step, peak GPU memory, reward after the same steps.
Writes ``bench.json`` and the table ``bench.md`` to ``--out``. ``--merge`` adds to an existing
``bench.json`` instead of replacing it (for machines that cap how long one command may run).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# Flags that turn a project recipe back into TRL's GRPOConfig defaults for the levers this project changes.
CONFIGS = {
    "trl-defaults": ["--fast_generation", "false", "--gradient_checkpointing", "true"],
    "project": [],
}
RECIPES = {
    "1": "stage-1",
    "2": "stage-2",
    "3": "stage-3",
    "4": "stage-4",
    "5": "stage-5",
    "6": "stage-6",
    "arithmetic": "arithmetic",
}


def parse_grpo_runs(specs: list[str]) -> list[tuple[str, int]]:
    """``["1:8", "arithmetic:15"]`` -> ``[("stage-1", 8), ("arithmetic", 15)]``."""
    runs = []
    for spec in specs:
        name, _, steps = spec.partition(":")
        if name not in RECIPES or not steps.isdigit() or int(steps) < 2:
            raise ValueError(
                f"--grpo {spec!r}: expected STAGE:STEPS or arithmetic:STEPS with STEPS >= 2 "
                f"(stages {', '.join(k for k in RECIPES if k != 'arithmetic')})"
            )
        runs.append((RECIPES[name], int(steps)))
    return runs


def summarize_grpo(records: list[dict]) -> dict:
    """Step time (first step apart: it captures graphs / warms up), generation time, peak memory, rewards."""
    train = [r for r in records if "reward" in r]
    if len(train) < 2:
        raise ValueError(f"{len(train)} logged steps: at least 2 are needed")

    def values(key, rows=train):
        return [r[key] for r in rows if r.get(key) is not None]

    later = train[1:]
    rewards = values("reward")
    summary = {
        "steps": len(train),
        "first_step_seconds": train[0].get("step_time"),
        "step_seconds": statistics.mean(values("step_time", later)),
        "reward_last": rewards[-1],
        "reward_mean": statistics.mean(rewards),
        "rewards": rewards,
    }
    for key, name in (
        ("time/generation", "generation_seconds"),
        ("completions/mean_length", "mean_length"),
        ("groups/resampled", "resampled_groups"),
    ):
        if values(key, later):
            summary[name] = statistics.mean(values(key, later))
    if values("gpu_peak_memory_gib"):
        summary["peak_memory_gib"] = max(values("gpu_peak_memory_gib"))
    return summary


def run_grpo(recipe: str, config: str, steps: int, model: str, workdir: Path, timeout: int) -> dict:
    """Train ``recipe`` for ``steps`` steps in a fresh process with ``config``'s flags; its summary."""
    from training.callbacks.run_metrics import read_metrics

    run_dir = workdir / f"{recipe}-{config}"
    shutil.rmtree(run_dir, ignore_errors=True)  # the bench's own scratch run: always from scratch
    cmd = [
        sys.executable,
        "-m",
        "training.cli.train",
        "--config",
        f"training/recipes/{recipe}.yaml",
        "--model",
        model,
        "--init_adapter",
        "base",
        "--report_to",
        "none",
        "--max_steps",
        str(steps),
        "--save_steps",
        str(10 * steps),
        "--output_dir",
        str(run_dir),
        "--results_dir",
        str(run_dir / "results"),
        *CONFIGS[config],
    ]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout)
    result = {"recipe": recipe, "config": config, "flags": CONFIGS[config], "wall_seconds": time.perf_counter() - start}
    metrics = run_dir / "metrics.jsonl"
    if proc.returncode not in (0, 3) or not metrics.exists():  # 3: the collapse guard stopped it (still measured)
        return {**result, "error": f"exit {proc.returncode}: {proc.stderr.strip()[-400:]}"}
    try:
        return {**result, **summarize_grpo(read_metrics(metrics))}
    except ValueError as exc:
        return {**result, "error": str(exc)}


def merge_results(old: dict, new: dict) -> dict:
    """``new`` on top of ``old``: entries with the same key (stage/batch/method, recipe/config) are replaced."""

    def merged(key_of, part):
        entries = {key_of(e): e for e in old.get(part, [])}
        entries.update({key_of(e): e for e in new.get(part, [])})
        return list(entries.values())

    out = {**old, **{k: v for k, v in new.items() if k not in ("generation", "grpo")}}
    out["generation"] = merged(lambda e: (e["stage"], e["batch"], e["method"]), "generation")
    out["grpo"] = merged(lambda e: (e["recipe"], e["config"]), "grpo")
    return out


def _ratio(a, b) -> str:
    return f"{a / b:.1f}x" if a and b else ""


def render_table(bench: dict) -> str:
    """The markdown table of a bench.json: each project figure beside TRL's default and their ratio."""
    lines = [
        f"# TRL defaults vs project settings, {bench.get('device', '?')}",
        "",
        f"Model {bench.get('model', '?')}; torch {bench.get('torch', '?')}, transformers "
        f"{bench.get('transformers', '?')}, trl {bench.get('trl', '?')}. Written by `make bench-train`.",
        "",
        "## Rollouts: tokens/s (sampling at temperature 1, LoRA r=32 on all linear layers, weight sync included)",
        "",
        "| stage | completions | max new tokens | TRL default generate | project sampler | ratio |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    generation = bench.get("generation", [])
    for entry in generation:
        if entry["method"] == "dynamic":
            continue
        base = next(
            (
                b
                for b in generation
                if b["method"] == "dynamic" and b["stage"] == entry["stage"] and b["batch"] == entry["batch"]
            ),
            None,
        )
        base_tps = base.get("tokens_per_second") if base else None
        ours = (
            f"{entry['tokens_per_second']:,.0f} ({entry['method']})"
            if "tokens_per_second" in entry
            else f"failed ({entry['method']}): {entry.get('error', '')[:80]}"
        )
        lines.append(
            f"| {entry['stage']} | {entry['batch']} | {entry['max_new_tokens']} | "
            f"{f'{base_tps:,.0f}' if base_tps else 'n/a'} | {ours} | "
            f"{_ratio(entry.get('tokens_per_second'), base_tps)} |"
        )
    lines += [
        "",
        "## GRPO steps (recipe batch: 8 prompts x 8 generations, up to 2 dynamic-sampling rounds)",
        "",
        "| run | steps | metric | TRL defaults | project | ratio |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    grpo = {(e["recipe"], e["config"]): e for e in bench.get("grpo", [])}
    for recipe in dict.fromkeys(e["recipe"] for e in bench.get("grpo", [])):
        trl, ours = grpo.get((recipe, "trl-defaults"), {}), grpo.get((recipe, "project"), {})
        if "error" in trl or "error" in ours:
            lines.append(f"| {recipe} | | failed | {trl.get('error', '')[:80]} | {ours.get('error', '')[:80]} | |")
            continue
        steps = min(trl.get("steps", 0), ours.get("steps", 0))
        rows = [
            ("step time, s (after step 1)", "step_seconds", "{:.2f}", True),
            ("generation per step, s", "generation_seconds", "{:.2f}", True),
            ("first step, s", "first_step_seconds", "{:.2f}", True),
            ("peak GPU memory, GiB", "peak_memory_gib", "{:.1f}", False),
            ("reward at the last step", "reward_last", "{:.3f}", None),
            ("mean reward over the steps", "reward_mean", "{:.3f}", None),
        ]
        for label, key, fmt, faster_is_smaller in rows:
            a, b = trl.get(key), ours.get(key)
            if a is None and b is None:
                continue
            ratio = (_ratio(a, b) if faster_is_smaller else _ratio(b, a)) if faster_is_smaller is not None else ""
            lines.append(
                f"| {recipe} | {steps} | {label} | {fmt.format(a) if a is not None else 'n/a'} | "
                f"{fmt.format(b) if b is not None else 'n/a'} | {ratio} |"
            )
    flags = " ".join(CONFIGS["trl-defaults"])
    lines += [
        "",
        f"TRL defaults = the project's recipe with `{flags}`; ratio = TRL defaults / project for times, "
        "project / TRL defaults for memory.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", default="smollm2-135m-instruct", help="preset, model folder or Hub id")
    parser.add_argument("--generation_stages", type=int, nargs="*", default=[1, 4])
    parser.add_argument("--batches", type=int, nargs="+", default=[128, 512])
    parser.add_argument(
        "--methods",
        nargs="+",
        default=["dynamic", "graph"],
        help="generation paths; 'dynamic' (TRL's default) is the baseline",
    )
    parser.add_argument(
        "--grpo",
        nargs="*",
        default=["1:8", "4:3", "arithmetic:15"],
        help="GRPO runs as STAGE:STEPS or arithmetic:STEPS (each run twice: TRL defaults, project)",
    )
    parser.add_argument("--grpo_timeout", type=int, default=1800, help="seconds per GRPO run")
    parser.add_argument("--out", default="results/bench")
    parser.add_argument("--runs_dir", default="runs/bench", help="where the GRPO runs write checkpoints and logs")
    parser.add_argument("--merge", action="store_true", help="add to an existing OUT/bench.json")
    args = parser.parse_args(argv)
    try:
        runs = parse_grpo_runs(args.grpo)
    except ValueError as exc:
        parser.error(str(exc))

    import torch

    if not torch.cuda.is_available():
        print(
            "error: make bench-train measures GPU training speed and needs a CUDA GPU (none is visible here)",
            file=sys.stderr,
        )
        return 2
    import transformers
    import trl

    from benchmarks.bench_generation import policy_for_bench, run_generation_bench

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bench = {
        "device": torch.cuda.get_device_name(),
        "model": args.model,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "trl": trl.__version__,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "generation": [],
        "grpo": [],
    }
    if args.generation_stages:
        print(f"rollouts on {bench['device']}: stages {args.generation_stages}, batches {args.batches}", flush=True)
        model, tokenizer = policy_for_bench(args.model)
        bench["generation"] = run_generation_bench(
            model,
            tokenizer,
            args.generation_stages,
            args.batches,
            args.methods,
            log=lambda line: print(line, flush=True),
        )
        del model
        torch.cuda.empty_cache()
    workdir = Path(args.runs_dir)
    for recipe, steps in runs:
        for config in CONFIGS:
            print(f"GRPO {recipe}, {config}: {steps} steps ...", flush=True)
            result = run_grpo(recipe, config, steps, args.model, workdir, args.grpo_timeout)
            print(json.dumps({k: v for k, v in result.items() if k != "rewards"}), flush=True)
            bench["grpo"].append(result)
    if args.merge and (out / "bench.json").exists():
        bench = merge_results(json.loads((out / "bench.json").read_text()), bench)
    (out / "bench.json").write_text(json.dumps(bench, indent=2) + "\n")
    table = render_table(bench)
    (out / "bench.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
