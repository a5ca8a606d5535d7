"""Greedy evaluation on the fast sampler: each task's problems of a split, scored by the task itself.

``make eval`` (``training.cli.evaluate``) and curriculum promotion (``training.callbacks.promotion``, through the
``score`` the run passes it) score the same way, through ``evaluate_sets``;
``problem_records`` are the lines of ``problems.jsonl``.
"""

from __future__ import annotations

import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass

from dataset_builders.prompts import chat_prompt_ids, completion_text, end_token_ids
from model_cards.eval_results import EvalRow
from training.core.slip_diagnostics import SlipDiagnostics, WordTokens, slip_fields

TOKEN_BAR_DELAY = 5.0  # seconds a batch decodes before its token bar shows (a GPU's batches are done before that)


@dataclass
class ProblemSet:
    """Problems of one task to score: a split of its dataset, or problems made from the user's texts (``data``)."""

    task: object  # a dataset_builders.task.Task
    split: str  # the split name eval rows carry: validation, test, out_of_register or data
    rows: list[dict]


def eval_row(task, records: list[dict], label: str, split: str) -> EvalRow:
    """One task's means over its ``problem_records``: its main score (``task.score_name``) and exact match."""
    score = statistics.mean(r["score"] for r in records)
    exact = statistics.mean(r["exact"] for r in records)
    return EvalRow(
        task=task.name,
        words=task.words,
        split=split,
        n=len(records),
        exact_match=exact,
        label=label,
        **{"nw_score": None, task.score_name: score},
    )


def generate(
    sampler,
    tokenizer,
    prompts,
    max_new_tokens: int,
    batch_size: int,
    end_tokens: list[int],
    progress=None,
    ended: list[bool] | None = None,
    token_counts: list[int] | None = None,
    token_progress=None,
) -> list[str]:
    """Greedy completions (text) of chat ``prompts``, ``batch_size`` at a time, each ending at its first
    ``end_tokens`` id (``dataset_builders.prompts.end_token_ids``). ``ended``: gets, per prompt, whether its completion
    stopped on an end token (False: it ran to ``max_new_tokens``); ``token_counts``: its length in tokens.
    ``token_progress``: called with the first problem's number and the batch's size, a context manager that yields
    the tick the sampler calls after each token step (a batch of long answers decodes for minutes on a CPU)."""
    ids = [chat_prompt_ids(tokenizer, p) for p in prompts]
    texts = []
    for start in range(0, len(ids), batch_size):
        batch = ids[start : start + batch_size]
        with token_progress(start + 1, len(batch)) if token_progress else nullcontext() as tick:
            tokens = sampler.sample(
                batch, max_new_tokens, end_tokens, tokenizer.pad_token_id, temperature=0, on_token=tick
            )
        texts += [completion_text(tokenizer.decode(t, skip_special_tokens=True)) for t in tokens]
        if ended is not None:
            ended += [bool(t) and t[-1] in end_tokens for t in tokens]
        if token_counts is not None:
            token_counts += [len(t) for t in tokens]
        if progress is not None:
            progress.update(len(tokens))
    return texts


def eval_token_bars(where: str, budget: int, problems: int, delay: float = TOKEN_BAR_DELAY):
    """``generate``'s ``token_progress``: for a batch that decodes longer than ``delay`` seconds, a bar of its token
    steps (``step_progress.token_bar``: at most ``budget``; the batch stops early once every answer has ended), so
    that a long evaluation on a CPU moves and shows a pace where the problem count stays at 0 for minutes (8 answers
    of 500 words: ~22 minutes on 2 cores)."""
    from training.trainer.step_progress import token_bar

    def batch_tokens(first: int, size: int):
        return token_bar(f"{where}: problems {first}-{first + size - 1} of {problems}", budget, delay)

    return batch_tokens


def evaluate_sets(
    model,
    tokenizer,
    sets: list[ProblemSet],
    label: str,
    batch_size: int,
    log=print,
    dtype=None,
    samples: list[dict] | None = None,
    samples_per_task: int = 0,
    problems_out: list[dict] | None = None,
    with_completions: bool = False,
    diagnostics: SlipDiagnostics | None = None,
) -> list[EvalRow]:
    """Score ``model`` (a causal LM, with or without a peft adapter) greedily on each problem set; one eval row each.

    ``dtype``: decode a copy in this dtype (e.g. bfloat16 for a float32 policy trained under autocast).
    ``samples``: the first ``samples_per_task`` problems of each set are appended to it (prompt, reference,
    completion).
    ``problems_out``: one record per problem is appended to it (``problem_records``; with ``with_completions``,
    the completion text too).
    ``diagnostics``: each problem's slips are counted in it, and its records get the slip fields.
    """
    from tqdm.auto import tqdm

    from training.trainer.graph_sampler import GraphSampler, merged_copy

    sampler = GraphSampler(merged_copy(model, dtype=dtype))
    end_tokens = end_token_ids(model, tokenizer)
    word_tokens = WordTokens(tokenizer) if diagnostics is not None else None
    rows = []
    for problem_set in sets:
        task, problems = problem_set.task, problem_set.rows
        # Room for the longest reference too, so that no problem's exact answer is cut off.
        budget = task.completion_budget(tokenizer, [task.reference(row) for row in problems])
        start = time.perf_counter()
        ended: list[bool] = []
        token_counts: list[int] = []
        where = f"{label} {task.name} {problem_set.split}"
        with tqdm(total=len(problems), desc=where, unit="problem", leave=False) as progress:
            completions = generate(
                sampler,
                tokenizer,
                [row["prompt"] for row in problems],
                budget,
                batch_size,
                end_tokens,
                progress,
                ended,
                token_counts,
                eval_token_bars(where, budget, len(problems)),
            )
        records = problem_records(
            label,
            task,
            completions,
            problems,
            ended,
            with_completions,
            split=problem_set.split,
            token_counts=token_counts,
        )
        if diagnostics is not None:
            tally = diagnostics.tally(
                label, problem_set.split, task.name, task.words, task.stream_lengths(problems[0]) is not None
            )
            for record, completion, row in zip(records, completions, problems, strict=True):
                fields, matched, tokens = slip_fields(
                    completion, task.reference(row), task.stream_lengths(row), record["ended"], word_tokens
                )
                record.update(fields)
                tally.add(fields, matched, tokens, record["score"])
        if problems_out is not None:
            problems_out += records
        if samples is not None:
            samples += [
                {
                    "label": label,
                    "task": task.name,
                    "split": problem_set.split,
                    "prompt": problems[i]["prompt"][-1]["content"],
                    "reference": task.reference(problems[i]),
                    "completion": completions[i],
                    "score": records[i]["score"],
                    "score_label": task.score_label,
                }
                for i in range(min(samples_per_task, len(problems)))
            ]
        row = eval_row(task, records, label, problem_set.split)
        rows.append(row)
        log(
            f"{where}: {task.score_label} {row.score:.3f}, exact {row.exact_match:.1%} over {row.n} problems "
            f"({time.perf_counter() - start:.1f} s)"
        )
    return rows


def problem_records(
    label: str,
    task,
    completions: list[str],
    rows: list[dict],
    ended: list[bool],
    with_completions: bool = False,
    split: str | None = None,
    token_counts: list[int] | None = None,
) -> list[dict]:
    """One record per problem: the task's score record (score, exact match, lengths, first differing word), plus
    the label, task, split, index, the problem's id and texts' sources when it has them, whether the completion
    stopped on an end token and its length in tokens; ``with_completions``: the completion too, and the problem's two
    texts when it has them."""
    records = []
    for index, (completion, scored, stopped) in enumerate(
        zip(completions, task.score_batch(completions, rows), ended, strict=True)
    ):
        record = {
            "label": label,
            "task": task.name,
            **({"split": split} if split else {}),
            "index": index,
            **{
                key: rows[index][key]
                for key in ("id", "source_a", "source_b", "register_a", "register_b")
                if key in rows[index]
            },
            "score": scored["score"],
            "exact": scored["exact"],
            "ended": stopped,
            **scored,
        }
        if token_counts is not None:
            record["completion_tokens"] = token_counts[index]
        if with_completions:  # and the texts it answered: an analysis needs no redraw (DATA's problems have none)
            record["completion"] = completion
            record.update({key: rows[index][key] for key in ("text_a", "text_b") if key in rows[index]})
        records.append(record)
    return records
