"""``python -m dataset_builders.arithmetic [--config 3x2]``: print a few multiplication problems."""

from __future__ import annotations

import argparse
import logging
import sys

from dataset_builders.arithmetic.builder import Arithmetic
from dataset_builders.cli_args import non_negative_int, positive_int


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dataset_builders.arithmetic", description=__doc__)
    parser.add_argument("--config", default="3x2", help="AxB: digits of the two operands (default 3x2)")
    parser.add_argument("--split", default="train", choices=("train", "validation", "test"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=non_negative_int, default=0, help="first problem index")
    parser.add_argument("-n", "--count", type=positive_int, default=5, help="problems to print")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        # the builder's config: the same problems as the dataset
        builder = Arithmetic(args.config.lower(), seed=args.seed)
        problems = builder.problems
        rows = [problems.problem(args.split, i) for i in range(args.start, args.start + args.count)]
    except (ValueError, IndexError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    a_digits, b_digits = builder.config.a_digits, builder.config.b_digits
    print(
        f"{a_digits}-digit x {b_digits}-digit, split {args.split}, seed {args.seed}: "
        f"{problems.n_pairs:,} operand pairs, "
        f"{2 * problems.held_out_per_split:,} held out for test/validation, {problems.n_train:,} for train"
    )
    for row in rows:
        print(f"{row['id']}: {row['a']} * {row['b']} = {row['answer']}")
    print(f"\nprompt of the last problem (role user):\n{rows[-1]['prompt'][0]['content']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
