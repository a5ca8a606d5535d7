"""``python -m dataset_builders.interleave_curriculum --stage N``: print a few problems of a curriculum stage."""

from __future__ import annotations

import argparse
import logging
import sys

from dataset_builders.cli_args import non_negative_int, positive_int
from dataset_builders.cli_flags import underscore_flags
from dataset_builders.corpus.passages import ALL_SPLITS
from dataset_builders.fetch import FetchError
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.stages import stage_words
from dataset_builders.prompts import interleave_user_message


def _shorten(text: str, max_words: int | None) -> str:
    words = text.split()
    if max_words is None or len(words) <= max_words:
        return text
    return " ".join(words[:max_words]) + f" ... [{len(words) - max_words} more words]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dataset_builders.interleave_curriculum", description=__doc__)
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--stage", type=int, default=1, help="curriculum stage 1-6 (default 1)")
    length.add_argument("--n_words", type=positive_int, help="words per fragment, instead of a stage")
    parser.add_argument("--split", default="train", choices=ALL_SPLITS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=non_negative_int, default=0, help="first problem index")
    parser.add_argument("-n", "--count", type=positive_int, default=3, help="problems to print")
    parser.add_argument("--full", action="store_true", help="print whole texts (long stages are shortened otherwise)")
    args = parser.parse_args(underscore_flags(argv))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        n_words = args.n_words if args.n_words is not None else stage_words(args.stage)
        from dataset_builders.corpus import load_corpus

        problems = InterleaveProblems(load_corpus(), args.split, n_words, args.seed)
    except (ValueError, FetchError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    limit = None if args.full else 40
    shares = ", ".join(f"{register} {share:.0%}" for register, share in problems.mix.shares().items())
    print(
        f"{n_words} words per fragment, split {args.split}, seed {args.seed}: "
        f"{problems.n_pairs:,} distinct fragment pairs from {len(problems.work_ids)} works; registers {shares}"
    )
    for index in range(args.start, args.start + args.count):
        ex = problems[index]
        print(
            f"\n--- {ex['id']}  (stage {ex['stage']}; A from {ex['source_a']} ({ex['register_a']}), "
            f"B from {ex['source_b']} ({ex['register_b']}))"
        )
        print(f"text_a: {_shorten(ex['text_a'], limit)}")
        print(f"text_b: {_shorten(ex['text_b'], limit)}")
        print(f"target: {_shorten(ex['target'], limit)}")
    print("\n--- prompt of the last problem (role user" + ("" if args.full else "; texts shortened") + "):")
    print(
        ex["prompt"][0]["content"]
        if args.full
        else interleave_user_message(_shorten(ex["text_a"], limit), _shorten(ex["text_b"], limit))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
