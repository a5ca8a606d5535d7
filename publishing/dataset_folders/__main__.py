"""``python -m publishing.dataset_folders --out DIR``: write the curriculum and arithmetic datasets as Hub folders.

Each folder (parquet per config and split, README.md card, LICENSE) loads with ``load_dataset(folder, CONFIG)``.
Pushing them to the Hub is ``make publish-datasets`` (``python -m publishing datasets``), which writes the
same folders with these options.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from dataset_builders.cli_flags import underscore_flags
from dataset_builders.fetch import FetchError
from publishing.dataset_folders.folders import (
    ARITHMETIC_CONFIGS,
    ARITHMETIC_FOLDER,
    CURRICULUM_CONFIGS,
    CURRICULUM_FOLDER,
    write_arithmetic_folder,
    write_curriculum_folder,
)

DATASETS = (CURRICULUM_FOLDER, ARITHMETIC_FOLDER)


def _configs(value: str | None, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    if not value:
        return known
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown {what} config(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return names


def add_dataset_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say which datasets, configs and sizes to write (shared with ``python -m publishing``)."""
    parser.add_argument("--only", choices=DATASETS, help="write one of the two datasets")
    parser.add_argument("--curriculum_configs", metavar="A,B", help=f"subset of {','.join(CURRICULUM_CONFIGS)}")
    parser.add_argument("--arithmetic_configs", metavar="A,B", help=f"subset of {','.join(ARITHMETIC_CONFIGS)}")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train_size", type=int, default=10_000, help="rows of the train sample per config")
    parser.add_argument("--validation_size", type=int, default=256)
    parser.add_argument("--test_size", type=int, default=512)


def dataset_command(prog: str, args: argparse.Namespace) -> str:
    """The command line that makes the folders (recorded in the cards)."""
    parts = [
        prog,
        f"--seed {args.seed}",
        f"--train_size {args.train_size}",
        f"--validation_size {args.validation_size}",
        f"--test_size {args.test_size}",
    ]
    parts += [f"--only {args.only}"] if args.only else []
    parts += [f"--curriculum_configs {args.curriculum_configs}"] if args.curriculum_configs else []
    parts += [f"--arithmetic_configs {args.arithmetic_configs}"] if args.arithmetic_configs else []
    return " ".join(parts)


def write_dataset_folders(
    out: Path, args: argparse.Namespace, repos: dict[str, str | None], command: str
) -> dict[str, Path]:
    """Write the folders the options ask for into ``out``; ``repos`` maps a dataset to its Hub id (for the cards)."""
    wanted = (args.only,) if args.only else DATASETS
    curriculum_configs = _configs(args.curriculum_configs, CURRICULUM_CONFIGS, "curriculum")
    arithmetic_configs = _configs(args.arithmetic_configs, ARITHMETIC_CONFIGS, "arithmetic")
    sizes = dict(
        seed=args.seed,
        train_size=args.train_size,
        validation_size=args.validation_size,
        test_size=args.test_size,
        command=command,
    )
    folders = {}
    if CURRICULUM_FOLDER in wanted:
        from dataset_builders.corpus import load_corpus

        folders[CURRICULUM_FOLDER] = write_curriculum_folder(
            out, load_corpus(), curriculum_configs, repo=repos.get(CURRICULUM_FOLDER), **sizes
        )
    if ARITHMETIC_FOLDER in wanted:
        folders[ARITHMETIC_FOLDER] = write_arithmetic_folder(
            out, arithmetic_configs, repo=repos.get(ARITHMETIC_FOLDER), **sizes
        )
    return folders


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m publishing.dataset_folders",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", type=Path, default=Path("dist/datasets"), help="folder for the two dataset folders")
    add_dataset_arguments(parser)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(underscore_flags(argv))
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        command = dataset_command(f"python -m publishing.dataset_folders --out {args.out}", args)
        for folder in write_dataset_folders(args.out, args, {}, command).values():
            print(f"wrote {folder}  (load_dataset({str(folder)!r}, CONFIG, split=...))")
    except (ValueError, FetchError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
