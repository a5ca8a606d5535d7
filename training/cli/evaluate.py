"""``make eval``: greedy scores of a model, and of the model with a trained adapter, on held-out problems.

Each task scores its completions itself (``Task.score``: curriculum stages with the normalized Needleman-Wunsch
metric and exact match, arithmetic with partial credit and exact match). Completions come from the fast
sampler (``training.trainer.graph_sampler``, greedy) on a merged copy of the model. Writes ``eval.json`` (the
schema of ``model_cards.eval_results``), ``eval.md``, ``eval.png`` and ``problems.jsonl`` (one line per
problem: score, exact match, whether it stopped on an end token, the first word that differs) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from model_cards.eval_results import EvalResults, EvalRow
from training.trainer.greedy_eval import evaluate_model


def parse_stages(spec: str) -> list[int]:
    """``"1-6"``, ``"1,3"``, ``"2"`` -> stage numbers (1-6)."""
    stages: list[int] = []
    for part in spec.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise ValueError(f"STAGES={spec!r}: expected e.g. 1-6, 1,3 or 2")
        stages += range(int(first), int(last or first) + 1)
    if not stages or any(s < 1 or s > 6 for s in stages):
        raise ValueError(f"STAGES={spec!r}: stages are 1 to 6")
    return sorted(set(stages))


def render_markdown(results: EvalResults) -> str:
    """Baseline vs trained per task: NW score (partial credit for arithmetic) and exact match."""
    labels = [label for label in ("baseline", "trained") if any(r.label == label for r in results.rows)]
    header = " | ".join(f"{label} {metric}" for label in labels for metric in ("score", "exact"))
    lines = [f"# Evaluation: {results.model}" + (f" + {results.adapter}" if results.adapter else ""), "",
             f"Greedy, {results.rows[0].split if results.rows else 'test'} split, {results.device}, "
             f"{results.generated_at}. Score: NW score for curriculum stages, partial credit for arithmetic.", "",
             f"| task | words | n | {header} |", "|" + " --- |" * (3 + 2 * len(labels))]
    by_key = {(r.label, r.task): r for r in results.rows}
    for task in dict.fromkeys(r.task for r in results.rows):
        row = next(r for r in results.rows if r.task == task)
        cells = []
        for label in labels:
            scored = by_key.get((label, task))
            cells += [f"{scored.score:.3f}", f"{scored.exact_match:.1%}"] if scored else ["", ""]
        lines.append(f"| {task} | {row.words if row.words is not None else '-'} | {row.n} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def render_samples(samples: list[dict]) -> str:
    """Markdown: per task and label, the prompt, the reference and the greedy completion, with its score (the
    ``score`` of its problem record, named by the task)."""
    lines = ["# Greedy samples", ""]
    for sample in samples:
        lines += [f"## {sample['task']}, {sample['label']}, {sample['score_label']} {sample['score']:.3f}", "",
                  "Prompt:", "", "```", sample["prompt"], "```",
                  "", "Reference:", "", "```", sample["reference"], "```", "", "Completion:", "", "```",
                  sample["completion"], "```", ""]
    return "\n".join(lines)


def plot(rows: list[EvalRow], path: Path) -> None:
    """Grouped bars: score and exact match per task, baseline vs trained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_key = {(r.label, r.task): r for r in rows}
    tasks = list(dict.fromkeys(r.task for r in rows))
    labels = [label for label in ("baseline", "trained") if any(r.label == label for r in rows)]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    width = 0.8 / max(1, len(labels))
    for ax, metric, title in ((axes[0], "score", "NW score (arithmetic: partial credit)"),
                              (axes[1], "exact_match", "exact match")):
        for i, label in enumerate(labels):
            values = [getattr(by_key[(label, task)], metric) if (label, task) in by_key else 0.0 for task in tasks]
            ax.bar([x + i * width for x in range(len(tasks))], values, width, label=label)
        ax.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(tasks))], tasks, rotation=30)
        ax.set_ylim(0, 1)
        ax.set_title(title)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.cli.evaluate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="smollm2-135m-instruct", help="preset, model folder or Hub id")
    parser.add_argument("--adapter", default=None, help="a trained LoRA adapter folder (omit: the base model only)")
    parser.add_argument("--stages", default="1-6", help="curriculum stages, e.g. 1-6, 1,3 (empty: none)")
    parser.add_argument("--arithmetic", default="true", choices=("true", "false"), help="also the arithmetic control")
    parser.add_argument("--baseline", default="true", choices=("true", "false"),
                        help="with --adapter, also score the model without it")
    parser.add_argument("--n", type=int, default=256, help="problems per task")
    parser.add_argument("--split", default="test", choices=("validation", "test"))
    parser.add_argument("--batch_size", type=int, default=128)
    parser.add_argument("--out", default=None, help="output folder (default runs/eval/<adapter's run or model name>)")
    parser.add_argument("--samples", type=int, default=0,
                        help="also write samples.md: the first K problems of each task with their completions")
    parser.add_argument("--dtype", default=None, choices=("bfloat16", "float32"),
                        help="weights and decoding dtype (default: bfloat16 on a GPU, float32 on CPU)")
    parser.add_argument("--completions", action="store_true",
                        help="problems.jsonl also holds each completion's text (stage 6: ~6 kB per problem)")
    args = parser.parse_args(argv)
    try:
        names = [f"stage-{s}" for s in parse_stages(args.stages)] if args.stages.strip() else []
    except ValueError as exc:
        parser.error(str(exc))
    names += ["arithmetic"] if args.arithmetic == "true" else []
    if not names:
        parser.error("nothing to evaluate: give --stages or --arithmetic true")
    if args.adapter and not (Path(args.adapter) / "adapter_config.json").is_file():
        print(f"error: {args.adapter} is not a LoRA adapter folder (no adapter_config.json); train one with "
              "`make train-stage N=...` (it writes runs/stage-N/final)", file=sys.stderr)
        return 2

    import torch
    from peft import PeftModel

    from base_models.models import load_model

    cuda = torch.cuda.is_available()
    device = torch.cuda.get_device_name() if cuda else "cpu"
    dtype = args.dtype or ("bfloat16" if cuda else "float32")
    model, tokenizer = load_model(args.model, dtype=dtype, device="cuda" if cuda else "cpu")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    name = Path(args.adapter).resolve().parent.name if args.adapter else Path(str(args.model)).name
    out = Path(args.out or f"runs/eval/{name}")  # ad hoc, under the ignored runs/; results/ holds curated copies
    runs = ([("baseline", None)] if not args.adapter or args.baseline == "true" else []) \
        + ([("trained", args.adapter)] if args.adapter else [])
    rows, samples, problems = [], [], []
    for label, adapter in runs:
        subject = PeftModel.from_pretrained(model, adapter) if adapter else model
        rows += evaluate_model(subject, tokenizer, names, args.n, args.split, label, args.batch_size,
                               samples=samples, samples_per_task=args.samples, problems_out=problems,
                               with_completions=args.completions)
        if adapter:
            model = subject.unload()
    results = EvalResults(model=str(args.model), adapter=str(args.adapter) if args.adapter else None,
                          generated_at=time.strftime("%Y-%m-%dT%H:%M:%S"), device=device, rows=rows,
                          decoding="greedy" if args.dtype is None else f"greedy, {dtype}")
    results.save(out / "eval.json")
    table = render_markdown(results)
    (out / "eval.md").write_text(table, encoding="utf-8")
    plot(rows, out / "eval.png")
    if samples:
        (out / "samples.md").write_text(render_samples(samples), encoding="utf-8")
    (out / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in problems), encoding="utf-8")
    print(table)
    print(f"written: {out}/eval.json, eval.md, eval.png, problems.jsonl" + (", samples.md" if samples else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
