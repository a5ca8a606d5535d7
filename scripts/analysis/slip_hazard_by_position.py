"""Where, in token positions, an evaluation's answers first slip, against the supervised helps' ``max_length``: for
each folder's ``problems.jsonl`` (or its gzipped copy) at one stage, the first slips per 1,000 target tokens still
unslipped ("at risk") in bands of absolute position (prompt and answer together), and the mean score of problems
whose whole row (prompt + target + end) fits ``--horizon`` tokens against those that do not. A row longer than a
recipe's ``max_length`` is cut there in training, so positions past it are never trained.

    .venv/bin/python scripts/analysis/slip_hazard_by_position.py results/grpo/batch-28/scores/n6-long-{test,validation}

Regenerates each problem from the embedded corpus (the eval's split, index and seed 0) and counts tokens with the
embedded model's tokenizer; no GPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
from scripts.summarize_runs import read_jsonl  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--task", default="stage-6", help="a curriculum stage, stage-1 .. stage-6")
    parser.add_argument("--horizon", type=int, default=3072, help="the helps' max_length")
    parser.add_argument("--bands", default="2000", help="more band edges besides 0 and the horizon, e.g. 1000,3500")
    args = parser.parse_args(argv)

    from transformers import AutoTokenizer

    from base_models.models import resolve_model
    from dataset_builders.corpus import load_corpus
    from dataset_builders.interleave_curriculum.problems import InterleaveProblems
    from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
    from dataset_builders.prompts import chat_prompt_ids

    tokenizer = AutoTokenizer.from_pretrained(resolve_model("smollm2-135m-instruct"))
    corpus = load_corpus()
    edges = [*sorted({0, args.horizon, *(int(e) for e in args.bands.split(","))}), 10**9]
    bands = list(zip(edges, edges[1:]))

    def tokens(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    names = [f"{a}-{b if b < 10**9 else ''}" for a, b in bands]
    print("| folder | " + " | ".join(names) + " | score, row fits | score, row longer |")
    print("| --- " * (len(bands) + 3) + "|")
    for folder in args.folders:
        rows = [r for r in read_jsonl(folder / "problems.jsonl") if r["task"] == args.task and r["label"] == "trained"]
        if not rows:
            print(f"| {folder} | no answer of the trained adapter to {args.task} |")
            continue
        problems = InterleaveProblems(corpus, rows[0]["split"], STAGE_WORDS[int(args.task.removeprefix("stage-"))])
        slips, at_risk = [0] * len(bands), [0] * len(bands)
        fits, longer = [], []
        for row in rows:
            problem = problems[row["index"]]
            assert problem["id"] == row["id"], (problem["id"], row["id"])
            start = len(chat_prompt_ids(tokenizer, problem["prompt"]))
            words = problem["target"].split()
            end = start + tokens(problem["target"])
            (fits if end + 1 <= args.horizon else longer).append(row["score"])
            slip = row["first_slip"]
            stop = start + tokens(" ".join(words[:slip])) if slip is not None else end
            for i, (a, b) in enumerate(bands):
                at_risk[i] += max(0, min(b, stop) - max(a, start))
                slips[i] += slip is not None and a <= stop < b
        cells = [f"{s} / {r} = {1000 * s / r:.2f}" if r else "-" for s, r in zip(slips, at_risk, strict=True)]
        scores = [f"{statistics.mean(x):.3f} (n={len(x)})" if x else "-" for x in (fits, longer)]
        print(f"| {folder} | " + " | ".join(cells + scores) + " |")


if __name__ == "__main__":
    main()
