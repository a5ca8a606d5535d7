"""What the CPU side of one GRPO step on continuation windows costs: tokenizing its prompts with the chat template and
scoring its completions with the interleave rewards, for the stage and batch of a sweep's slip-window runs (16
problems x 8 generations at stage 6, 40-word windows). Batch 28's steps took 17-19 s on an H100, 5.6-7.3 s of it
generating (results/grpo/batch-28/); this says how much of the rest the CPU parts can be.

    .venv/bin/python scripts/analysis/grpo_step_cpu_parts.py --stage 6 --problems 16 --generations 8 --words 40

The windows' completions are the reference's next words (the rewards' cost does not depend on their being right).
The prompts are those of random cuts; a cut at a slip gives prompts of the same kind.
"""

from __future__ import annotations

import argparse
import time


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stage", type=int, default=6)
    parser.add_argument("--problems", type=int, default=16)
    parser.add_argument("--generations", type=int, default=8)
    parser.add_argument("--words", type=int, default=40, help="the continuation window")
    args = parser.parse_args(argv)

    from transformers import AutoTokenizer

    from base_models.models import resolve_model
    from dataset_builders import tasks
    from dataset_builders.interleave_curriculum.continuation import WINDOW_COLUMN
    from dataset_builders.prompts import chat_prompt_ids

    tokenizer = AutoTokenizer.from_pretrained(resolve_model("smollm2-135m-instruct"))
    task = tasks.get(f"stage-{args.stage}").with_continuation(args.words)
    rows = [task.problem("train", i) for i in range(args.problems)] * args.generations
    prompts = [row["prompt"] for row in rows]
    start = time.perf_counter()
    lengths = [len(chat_prompt_ids(tokenizer, prompt)) for prompt in prompts]
    tokenize = time.perf_counter() - start
    completions = [" ".join(row["target"].split()[: row[WINDOW_COLUMN]]) for row in rows]
    columns = {key: [row[key] for row in rows] for key in rows[0] if key != "prompt"}
    start = time.perf_counter()
    for reward in task.reward_funcs:
        reward(prompts=prompts, completions=completions, **columns)
    score = time.perf_counter() - start
    print(
        f"| {len(rows)} completions | tokenizing the prompts {tokenize:.2f} s (mean {sum(lengths) / len(lengths):.0f}, "
        f"max {max(lengths)} tokens) | the rewards {score:.2f} s |"
    )


if __name__ == "__main__":
    main()
