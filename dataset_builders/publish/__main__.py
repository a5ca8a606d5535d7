"""``python -m dataset_builders.publish --out DIR``: write the curriculum and arithmetic datasets as Hub folders.

With ``--namespace`` (or ``--curriculum-repo``/``--arithmetic-repo``) and a token the folders are then
pushed to the Hub as dataset repos.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from dataset_builders.fetch import FetchError
from dataset_builders.publish.folders import (
    ARITHMETIC_CONFIGS, ARITHMETIC_FOLDER, CURRICULUM_CONFIGS, CURRICULUM_FOLDER, write_arithmetic_folder,
    write_curriculum_folder,
)
from dataset_builders.publish.hub import HubError, push_folder, resolve_token

DATASETS = (CURRICULUM_FOLDER, ARITHMETIC_FOLDER)


def _configs(value: str | None, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    if not value:
        return known
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown {what} config(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return names


def _command(args: argparse.Namespace) -> str:
    """The command line that made the folders, without the token."""
    parts = ["python -m dataset_builders.publish", f"--out {args.out}", f"--seed {args.seed}",
             f"--train-size {args.train_size}", f"--validation-size {args.validation_size}", f"--test-size {args.test_size}"]
    parts += [f"--only {args.only}"] if args.only else []
    parts += [f"--curriculum-configs {args.curriculum_configs}"] if args.curriculum_configs else []
    parts += [f"--arithmetic-configs {args.arithmetic_configs}"] if args.arithmetic_configs else []
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dataset_builders.publish", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("dist/datasets"), help="folder for the two dataset folders")
    parser.add_argument("--only", choices=DATASETS, help="write one of the two datasets")
    parser.add_argument("--curriculum-configs", metavar="A,B", help=f"subset of {','.join(CURRICULUM_CONFIGS)}")
    parser.add_argument("--arithmetic-configs", metavar="A,B", help=f"subset of {','.join(ARITHMETIC_CONFIGS)}")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-size", type=int, default=10_000, help="rows of the train sample per config")
    parser.add_argument("--validation-size", type=int, default=256)
    parser.add_argument("--test-size", type=int, default=512)
    parser.add_argument("--namespace", help="push to NAMESPACE/interleave-curriculum and NAMESPACE/arithmetic")
    parser.add_argument("--curriculum-repo", metavar="REPO_ID", help="Hub dataset repo for the curriculum")
    parser.add_argument("--arithmetic-repo", metavar="REPO_ID", help="Hub dataset repo for the arithmetic set")
    parser.add_argument("--token", help="Hub token (default: HF_TOKEN or a saved login); never printed")
    parser.add_argument("--private", action="store_true", help="create the Hub repos as private")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    wanted = (args.only,) if args.only else DATASETS
    repos = {
        CURRICULUM_FOLDER: args.curriculum_repo or (f"{args.namespace}/{CURRICULUM_FOLDER}" if args.namespace else None),
        ARITHMETIC_FOLDER: args.arithmetic_repo or (f"{args.namespace}/{ARITHMETIC_FOLDER}" if args.namespace else None),
    }
    push = {name: repos[name] for name in wanted if repos[name]}
    try:
        curriculum_configs = _configs(args.curriculum_configs, CURRICULUM_CONFIGS, "curriculum")
        arithmetic_configs = _configs(args.arithmetic_configs, ARITHMETIC_CONFIGS, "arithmetic")
        token = resolve_token(args.token) if push else None
        sizes = dict(seed=args.seed, train_size=args.train_size, validation_size=args.validation_size,
                     test_size=args.test_size, command=_command(args))
        folders = {}
        if CURRICULUM_FOLDER in wanted:
            from dataset_builders.corpus import load_corpus

            folders[CURRICULUM_FOLDER] = write_curriculum_folder(
                args.out, load_corpus(), curriculum_configs, repo=repos[CURRICULUM_FOLDER], **sizes)
        if ARITHMETIC_FOLDER in wanted:
            folders[ARITHMETIC_FOLDER] = write_arithmetic_folder(
                args.out, arithmetic_configs, repo=repos[ARITHMETIC_FOLDER], **sizes)
        for name, folder in folders.items():
            print(f"wrote {folder}  (load_dataset({str(folder)!r}, CONFIG, split=...))")
        for name, repo_id in push.items():
            url = push_folder(folders[name], repo_id, token, private=args.private)
            print(f"pushed {name} to https://huggingface.co/datasets/{repo_id}  ({url})")
    except (ValueError, FetchError, HubError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
