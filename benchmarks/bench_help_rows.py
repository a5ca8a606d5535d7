"""``python -m benchmarks.bench_help_rows --out results/pipeline-cpu/help-rows.md``: how long the chain's supervised
helps spend building their problems before TRL tokenizes them, in one process and in several.

Each help part of ``training/recipes/chains/curriculum.yaml``'s stages (their ``supervised_help``), at its full size
(``problems``, else max_steps x rows a step): ``training.cli.warm_start.warm_start_dataset`` in one process, then in
``--procs`` processes, and whether the two give the same rows. The chain runner's clock ran ~6 minutes over its
steps' training time (results/grpo/chain-minutes.md); this is one part of that.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

from training.cli.warm_start import parse_warm_start_arguments, warm_start_dataset, warm_start_tasks
from training.core.arguments import RECIPES_DIR, read_recipe
from training.core.chains import CHAINS_DIR, read_chain
from training.core.format_start import help_parts


def chain_helps() -> list[tuple[str, str, Path]]:
    """(stage, help recipe name, its file) for each help part of the curriculum chain, in order."""
    out = []
    for step in read_chain(CHAINS_DIR / "curriculum.yaml").steps:
        helps = read_recipe(RECIPES_DIR / f"{step.run}.yaml").get("supervised_help")
        if helps and helps != "none":
            out += [(step.run, name, recipe) for name, recipe in help_parts(str(helps))]
    return out


def measure(name: str, recipe: Path, procs: int, rows: int | None) -> dict:
    args, sft, _ = parse_warm_start_arguments(["--config", str(recipe), "--bf16", "false"])
    size = args.problems or sft.max_steps * sft.per_device_train_batch_size * sft.gradient_accumulation_steps
    size = min(size, rows) if rows else size
    started = time.perf_counter()
    one = warm_start_dataset(warm_start_tasks(args), size)
    serial = time.perf_counter() - started
    started = time.perf_counter()
    several = warm_start_dataset(warm_start_tasks(args), size, procs)
    parallel = time.perf_counter() - started
    return {"help": name, "rows": size, "one": serial, "several": parallel, "same": one.to_list() == several.to_list()}


def render(results: list[dict], procs: int) -> str:
    one, several = sum(r["one"] for r in results), sum(r["several"] for r in results)
    lines = [
        "# Building the chain's help rows: one process against several "
        f"({platform.processor() or platform.machine()}, {os.cpu_count()} cores)",
        "",
        "`python -m benchmarks.bench_help_rows --procs "
        f"{procs} --out results/pipeline-cpu/help-rows.md`. Each help part of the curriculum chain at its full size: "
        "`warm_start_dataset` (the rows before TRL tokenizes them) in one process, then in "
        f"{procs}, the rows compared.",
        "",
        f"| stage | help | rows | one process (s) | {procs} processes (s) | same rows |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines.append(
            f"| {r['stage']} | `{r['help']}` | {r['rows']:,} | {r['one']:.1f} | {r['several']:.1f} | "
            f"{'yes' if r['same'] else '**no**'} |"
        )
    lines += [f"| **total** | | {sum(r['rows'] for r in results):,} | **{one:.1f}** | **{several:.1f}** | |", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--procs", type=int, default=2, help="processes for the parallel build (default 2)")
    parser.add_argument("--rows", type=int, default=None, help="at most this many rows a help (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="write the table here (markdown)")
    args = parser.parse_args(argv)
    results = []
    for stage, name, recipe in chain_helps():
        result = {"stage": stage, **measure(name, recipe, args.procs, args.rows)}
        print(
            f"{stage} {name}: {result['rows']} rows, {result['one']:.1f} s in one process, "
            f"{result['several']:.1f} s in {args.procs}, same rows: {result['same']}",
            flush=True,
        )
        results.append(result)
    text = render(results, args.procs)
    if args.out:
        args.out.write_text(text)
        print(f"wrote {args.out}")
    return 0 if all(r["same"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
