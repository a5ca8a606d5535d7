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
import statistics
import sys
import time
from pathlib import Path

from dataset_builders import tasks
from dataset_builders.prompts import completion_text
from model_cards.eval_results import EvalResults, EvalRow


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


def eval_row(task, records: list[dict], label: str, split: str) -> EvalRow:
    """One task's means over its ``problem_records``: its main score (``task.score_name``) and exact match."""
    score = statistics.mean(r["score"] for r in records)
    exact = statistics.mean(r["exact"] for r in records)
    return EvalRow(task=task.name, words=task.words, split=split, n=len(records), exact_match=exact, label=label,
                   **{"nw_score": None, task.score_name: score})


def generate(sampler, tokenizer, prompts, max_new_tokens: int, batch_size: int, end_tokens: list[int],
             progress=None, ended: list[bool] | None = None) -> list[str]:
    """Greedy completions (text) of chat ``prompts``, ``batch_size`` at a time, each ending at its first
    ``end_tokens`` id (``base_models.models.end_token_ids``). ``ended``: gets, per prompt, whether its completion
    stopped on an end token (False: it ran to ``max_new_tokens``)."""
    ids = [tokenizer.apply_chat_template(p, add_generation_prompt=True, tokenize=True) for p in prompts]
    ids = [list(x["input_ids"]) if hasattr(x, "keys") else list(x) for x in ids]
    texts = []
    for start in range(0, len(ids), batch_size):
        tokens = sampler.sample(ids[start:start + batch_size], max_new_tokens, end_tokens,
                                tokenizer.pad_token_id, temperature=0)
        texts += [completion_text(tokenizer.decode(t, skip_special_tokens=True)) for t in tokens]
        if ended is not None:
            ended += [bool(t) and t[-1] in end_tokens for t in tokens]
        if progress is not None:
            progress.update(len(tokens))
    return texts


def evaluate_model(model, tokenizer, task_names: list[str], n: int, split: str, label: str, batch_size: int,
                   log=print, dtype=None, samples: list[dict] | None = None,
                   samples_per_task: int = 0, problems_out: list[dict] | None = None,
                   with_completions: bool = False) -> list[EvalRow]:
    """Score ``model`` (a causal LM, with or without a peft adapter) greedily on ``n`` problems of each task named.

    ``dtype``: decode a copy in this dtype (e.g. bfloat16 for a float32 policy trained under autocast).
    ``samples``: the first ``samples_per_task`` problems of each task are appended to it (prompt, reference,
    completion).
    ``problems_out``: one record per problem is appended to it (``problem_records``; with ``with_completions``,
    the completion text too).
    """
    from tqdm.auto import tqdm

    from training.trainer.graph_sampler import GraphSampler, merged_copy
    from base_models.models import end_token_ids

    sampler = GraphSampler(merged_copy(model, dtype=dtype))
    end_tokens = end_token_ids(model, tokenizer)
    rows = []
    for name in task_names:
        task = tasks.get(name)
        problems = task.problems(split, n)
        # Room for the longest reference too, so that no problem's exact answer is cut off.
        budget = task.completion_budget(tokenizer, [task.reference(row) for row in problems])
        start = time.perf_counter()
        ended: list[bool] = []
        with tqdm(total=len(problems), desc=f"{label} {name}", unit="problem", leave=False) as progress:
            completions = generate(sampler, tokenizer, problems["prompt"], budget, batch_size, end_tokens, progress,
                                   ended)
        records = problem_records(label, task, completions, list(problems), ended, with_completions)
        if problems_out is not None:
            problems_out += records
        if samples is not None:
            samples += [{"label": label, "task": name, "prompt": problems[i]["prompt"][-1]["content"],
                         "reference": task.reference(problems[i]), "completion": completions[i],
                         "score": records[i]["score"], "score_label": task.score_label}
                        for i in range(min(samples_per_task, len(problems)))]
        row = eval_row(task, records, label, split)
        rows.append(row)
        log(f"{label} {name}: {task.score_label} {row.score:.3f}, "
            f"exact {row.exact_match:.1%} over {row.n} problems ({time.perf_counter() - start:.1f} s)")
    return rows


def problem_records(label: str, task, completions: list[str], rows: list[dict], ended: list[bool],
                    with_completions: bool = False) -> list[dict]:
    """One record per problem: the task's score record (score, exact match, lengths, first differing word), plus
    the label, task, index and whether the completion stopped on an end token."""
    records = []
    for index, (completion, scored, stopped) in enumerate(
            zip(completions, task.score_batch(completions, rows), ended, strict=True)):
        record = {"label": label, "task": task.name, "index": index, "score": scored["score"],
                  "exact": scored["exact"], "ended": stopped, **scored}
        if with_completions:
            record["completion"] = completion
        records.append(record)
    return records


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
        lines += [f"## {sample['task']}, {sample['label']}, {sample['score_label']} {sample['score']:.3f}", "", "Prompt:", "", "```", sample["prompt"], "```",
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
    parser.add_argument("--out", default=None, help="output folder (default results/eval/<adapter or model name>)")
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
    out = Path(args.out or f"results/eval/{name}")
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
