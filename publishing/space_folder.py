"""Stage a Space folder (the metric, the demo) for upload: its files, plus the files its ``vendor.txt`` names.

A Space runs standalone from its own folder, so code shared with the rest of the project (the NW core)
is copied in at publish time. ``vendor.txt`` in the folder lists one repo-relative path per line (a file
or a folder), optionally ``-> destination`` inside the Space; ``#`` starts a comment::

    metrics/needleman_wunsch/nw_alignment.py -> nw_alignment.py
    metrics/needleman_wunsch/nw_kernels.py -> nw_kernels.py
    dataset_builders/prompts.py                # lands at dataset_builders/prompts.py

``vendor.txt`` itself, ``__pycache__`` and ``*.pyc`` are not published. ``link_card`` adds the Hub repos the
Space uses (models, datasets) to its card, so the Hub links them both ways.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from huggingface_hub import SpaceCard

from publishing.hub import HubError
from publishing.staging import require_empty

REPO_ROOT = Path(__file__).resolve().parents[1]
VENDOR_MANIFEST = "vendor.txt"
IGNORED = ("__pycache__", "*.pyc", ".pytest_cache", VENDOR_MANIFEST)


def read_vendor_manifest(path: Path) -> list[tuple[str, str]]:
    """(source, destination) pairs of a ``vendor.txt``; both relative paths."""
    pairs = []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        source, _, dest = (part.strip() for part in line.partition("->"))
        dest = dest or source
        for value in (source, dest):
            if not value or Path(value).is_absolute() or ".." in Path(value).parts:
                raise HubError(f"{path}:{number}: {raw.strip()!r}: paths must be relative, inside the repo / Space")
        pairs.append((source, dest))
    return pairs


def space_sdk(folder: Path) -> str:
    """The ``sdk`` of a Space folder's README.md header (its Space card); a HubError when missing."""
    readme = Path(folder) / "README.md"
    if not readme.is_file():
        raise HubError(f"{folder} has no README.md: a Space needs a card with a YAML header (sdk, app_file, ...)")
    sdk = SpaceCard.load(readme).data.get("sdk")
    if not sdk:
        raise HubError(f"{readme}: the YAML header names no sdk (gradio, docker or static)")
    return sdk


def stage_space_folder(source: Path, dest: Path, repo_root: Path = REPO_ROOT) -> Path:
    """Copy the Space folder ``source`` into ``dest`` (new or empty), then the files of its ``vendor.txt``."""
    source, dest = Path(source), Path(dest)
    if not source.is_dir():
        raise HubError(f"no Space folder {source}")
    space_sdk(source)
    require_empty(dest)
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(*IGNORED), dirs_exist_ok=True)
    manifest = source / VENDOR_MANIFEST
    for src, dst in read_vendor_manifest(manifest) if manifest.is_file() else []:
        origin, target = Path(repo_root) / src, dest / dst
        if not origin.exists():
            raise HubError(f"{manifest}: {src} does not exist in the repo")
        if target.exists():
            raise HubError(f"{manifest}: {dst} would overwrite a file of the Space folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(origin, target, ignore=shutil.ignore_patterns(*IGNORED))
        else:
            shutil.copy2(origin, target)
    return dest


def link_card(folder: Path, models: tuple[str, ...] = (), datasets: tuple[str, ...] = ()) -> None:
    """Add ``models`` and ``datasets`` (Hub ids) to the ``models:``/``datasets:`` of the Space card in ``folder``."""
    readme = Path(folder) / "README.md"
    card = SpaceCard.load(readme)
    card.data.models = list(dict.fromkeys([*(card.data.models or []), *models])) or None
    card.data.datasets = list(dict.fromkeys([*(card.data.datasets or []), *datasets])) or None
    card.save(readme)
