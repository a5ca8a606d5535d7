"""Greedy evaluation on the fast sampler: each task's problems of a split, scored by the task itself.

``make eval`` (``training.cli.evaluate``) and curriculum promotion (``training.callbacks.promotion``, through the
``score`` the run passes it) score with ``evaluate_model``; ``problem_records`` are the lines of ``problems.jsonl``.
"""

from __future__ import annotations

import statistics
import time

from dataset_builders import tasks
from dataset_builders.prompts import completion_text
from model_cards.eval_results import EvalRow


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

    from base_models.models import end_token_ids
    from training.trainer.graph_sampler import GraphSampler, merged_copy

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
