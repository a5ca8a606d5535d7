"""The project code the Space shares with the repo, found in the checkout or in a vendored copy, and the vendoring.

The demo scores with the repo's one Needleman-Wunsch core and prompts with its one prompt template. From the
checkout they are imported where they are; a Space uploaded to the Hub carries copies of exactly these files
(``SHARED_FILES``), written by ``bundle_space`` (``python spaces/interleave_demo/shared_code.py OUT``), at the
same relative paths, so the imports read the same in both layouts.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Repo files the Space imports (each a small module with no imports outside this list but numpy).
SHARED_FILES = (
    "metrics/__init__.py",
    "metrics/needleman_wunsch/__init__.py",
    "metrics/needleman_wunsch/nw_alignment.py",
    "metrics/needleman_wunsch/nw_kernels.py",
    "dataset_builders/__init__.py",
    "dataset_builders/prompts.py",
)


class SharedCodeMissing(RuntimeError):
    """Neither a vendored copy nor a checkout holds the shared modules; the message says what to do."""


def space_files() -> list[Path]:
    """The Space's own files (every file of this folder, no sub-folders, caches or hidden files)."""
    return sorted(p for p in HERE.iterdir() if p.is_file() and not p.name.startswith(".") and p.suffix != ".pyc")


def _holds_shared_files(root: Path) -> bool:
    return all((root / name).is_file() for name in SHARED_FILES)


def shared_code_root(start: Path = HERE) -> Path:
    """The folder holding the shared modules: ``start`` itself (a vendored Space) or the checkout above it."""
    for folder in (start, *start.parents):
        if _holds_shared_files(folder):
            return folder
    raise SharedCodeMissing(
        f"the demo needs the project's modules {', '.join(SHARED_FILES)}: run it from the interleave-grpo checkout, "
        f"or vendor them next to app.py with: python spaces/interleave_demo/shared_code.py OUT_FOLDER")


def use_shared_code() -> Path:
    """Put the shared modules' root first on ``sys.path`` and return it."""
    root = shared_code_root()
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return root


def bundle_space(out: Path, repo_root: Path | None = None, models: tuple[str, ...] = (),
                 datasets: tuple[str, ...] = ()) -> Path:
    """Write a standalone copy of the Space into ``out``: its own files plus the shared modules (replaces ``out``).

    ``models`` and ``datasets`` (Hub ids, e.g. the adapter repo) are added to the card's ``models:``/``datasets:``.
    """
    repo_root = repo_root or shared_code_root()
    out = Path(out)
    if out.resolve() == HERE or HERE in out.resolve().parents:
        raise ValueError(f"{out} is inside the Space folder itself; pick a folder outside it")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for path in space_files():
        shutil.copy2(path, out / path.name)
    for name in SHARED_FILES:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo_root / name, out / name)
    if models or datasets:
        _add_card_links(out / "README.md", models, datasets)
    return out


def _add_card_links(readme: Path, models: tuple[str, ...], datasets: tuple[str, ...]) -> None:
    from huggingface_hub import SpaceCard

    card = SpaceCard.load(readme)
    card.data.models = list(dict.fromkeys([*(card.data.models or []), *models]))
    card.data.datasets = list(dict.fromkeys([*(card.data.datasets or []), *datasets]))
    card.save(readme)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a standalone copy of the demo Space (its files plus the "
                                                 "project modules it imports), ready to upload as a Space repo.")
    parser.add_argument("out", type=Path, help="folder to write (replaced)")
    parser.add_argument("--model", action="append", default=[], help="a Hub model id to list in the card (repeatable)")
    parser.add_argument("--dataset", action="append", default=[], help="a Hub dataset id to list in the card (repeatable)")
    args = parser.parse_args(argv)
    out = bundle_space(args.out, models=tuple(args.model), datasets=tuple(args.dataset))
    print(f"standalone Space written to {out} ({len(space_files())} Space files + {len(SHARED_FILES)} shared modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
