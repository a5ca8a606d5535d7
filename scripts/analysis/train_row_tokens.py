"""How many tokens a supervised train row (chat prompt + interleave target + end token) takes at each text length,
and what share of the rows a recipe's ``max_length`` cuts (TRL's SFTTrainer keeps the first ``max_length`` tokens
and drops the rest, so the end of a longer target is never trained on).

    .venv/bin/python scripts/analysis/train_row_tokens.py --words 100,200,250,320,400,450,500 --n 200 \
        --out results/corpus/train-row-tokens.md

Reads the embedded corpus and the embedded model's tokenizer; no GPU.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

LIMITS = (2048, 3072, 4096, 6144)


def row_tokens(tokenizer, problem: dict) -> int:
    from dataset_builders.prompts import chat_prompt_ids

    target = tokenizer(problem["target"], add_special_tokens=False)["input_ids"]
    return len(chat_prompt_ids(tokenizer, problem["prompt"])) + len(target) + 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", default="100,200,250,320,400,450,500")
    parser.add_argument("--n", type=int, default=200, help="train problems per length (the first N)")
    parser.add_argument("--identifier_fraction", type=float, default=0.0)
    parser.add_argument("--long_identifier_share", type=float, default=0.0, help="of those identifiers, long ones")
    parser.add_argument("--seed", type=int, default=0, help="the problem seed (a help's problem_seed)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)

    from transformers import AutoTokenizer

    from base_models.models import resolve_model
    from dataset_builders.corpus import load_corpus
    from dataset_builders.interleave_curriculum.problems import InterleaveProblems

    tokenizer = AutoTokenizer.from_pretrained(resolve_model("smollm2-135m-instruct"))
    corpus = load_corpus()
    head = "| words per text | rows | median | 95th pct | max | " + " | ".join(f"> {n}" for n in LIMITS) + " |"
    lines = [head, "| --- " * (5 + len(LIMITS)) + "|"]
    for words in (int(w) for w in args.words.split(",")):
        problems = InterleaveProblems(
            corpus,
            "train",
            words,
            seed=args.seed,
            identifier_fraction=args.identifier_fraction,
            long_identifier_share=args.long_identifier_share,
        )
        counts = sorted(row_tokens(tokenizer, problems[i]) for i in range(args.n))
        over = [f"{sum(c > n for c in counts) / len(counts):.0%}" for n in LIMITS]
        p95 = counts[int(0.95 * (len(counts) - 1))]
        cells = [str(words), str(len(counts)), f"{statistics.median(counts):.0f}", str(p95), str(counts[-1]), *over]
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        args.out.write_text(table + "\n")


if __name__ == "__main__":
    main()
