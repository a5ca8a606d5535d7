"""Build the corpus once into the cache (passages.jsonl + manifest.json) and load it from there."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from dataset_builders.corpus.passages import ALL_SPLITS, Passage, build_passages
from dataset_builders.corpus.sources import DEFAULT_SOURCES, SOURCES, SourceResult, read_source
from dataset_builders.fetch import FetchError, cache_dir

logger = logging.getLogger(__name__)

COUNT_THRESHOLDS = (500, 1000)
# Registers held out of train, validation and test: their works form the out_of_register split (those of
# passages.HELD_OUT_VALIDATION_SOURCES the out_of_register_validation split).
DEFAULT_HELD_OUT_REGISTERS = ("technical",)


@dataclass
class Corpus:
    """The passages of a built corpus and its manifest (sources, file hashes, counts)."""

    passages: list[Passage]
    manifest: dict
    path: Path

    def split(self, name: str, min_words: int = 0) -> list[Passage]:
        """Passages of one split with at least ``min_words`` words."""
        if name not in ALL_SPLITS:
            raise ValueError(f"unknown split {name!r}; expected one of {ALL_SPLITS}")
        return [p for p in self.passages if p.split == name and p.n_words >= min_words]

    @property
    def sources(self) -> list[str]:
        return list(self.manifest["sources"])

    @property
    def held_out_registers(self) -> list[str]:
        return list(self.manifest.get("held_out_registers", []))


def _fingerprint(passages: list[Passage]) -> str:
    digest = hashlib.sha256()
    for p in passages:
        digest.update(f"{p.id}\t{p.split}\t{p.text}\n".encode())
    return digest.hexdigest()


def count_table(passages: list[Passage], by: str = "source") -> list[dict]:
    """One row per (source, split), or (register, split) with ``by="register"``, plus totals: works, passages,
    words, passages with >= 500 / >= 1000 words."""
    groups: dict[tuple[str, str], list[Passage]] = {}
    for p in passages:
        key = getattr(p, by)
        groups.setdefault((key, p.split), []).append(p)
        groups.setdefault((key, "all"), []).append(p)
        groups.setdefault(("all", p.split), []).append(p)
        groups.setdefault(("all", "all"), []).append(p)
    order = {s: i for i, s in enumerate((*ALL_SPLITS, "all"))}
    rows = []
    for (key, split), group in sorted(groups.items(), key=lambda kv: (kv[0][0] == "all", kv[0][0], order[kv[0][1]])):
        row = {
            by: key,
            "split": split,
            "works": len({p.work_id for p in group}),
            "passages": len(group),
            "words": sum(p.n_words for p in group),
        }
        for t in COUNT_THRESHOLDS:
            row[f"passages>={t}"] = sum(p.n_words >= t for p in group)
        rows.append(row)
    return rows


def format_count_table(rows: list[dict]) -> str:
    """The count table as aligned text, for ``make corpus``."""
    headers = list(rows[0])
    cells = [[f"{r[h]:,}" if isinstance(r[h], int) else str(r[h]) for h in headers] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths)))]
    for c in cells:
        lines.append("  ".join(v.ljust(w) if i < 2 else v.rjust(w) for i, (v, w) in enumerate(zip(c, widths))))
    return "\n".join(lines)


def _config(
    sources: tuple[str, ...],
    min_words: int,
    test_fraction: float,
    validation_fraction: float,
    held_out_registers: tuple[str, ...],
) -> dict:
    return {
        "sources": list(sources),
        "min_words": min_words,
        "test_fraction": test_fraction,
        "validation_fraction": validation_fraction,
        "held_out_registers": sorted(held_out_registers),
    }


def _read_sources(sources: tuple[str, ...]) -> list[SourceResult]:
    """Every source that can be read; an embedded source that is not required is left out with a warning.

    Sources are fetched side by side (the Django sdist's ``pip download`` takes most of a fresh build).
    """
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [pool.submit(read_source, spec) for spec in sources]
    results = []
    for spec, future in zip(sources, futures):
        try:
            results.append(future.result())
        except FetchError as exc:
            if spec in SOURCES and not SOURCES[spec].required and len(sources) > 1:
                logger.warning(
                    "%s (%s) left out: %s. The corpus goes on with the other sources.",
                    spec,
                    SOURCES[spec].register,
                    exc,
                )
                continue
            raise
    return results


def build_corpus(
    sources: tuple[str, ...] = DEFAULT_SOURCES,
    min_words: int = 1000,
    test_fraction: float = 0.1,
    validation_fraction: float = 0.1,
    out_dir: Path | None = None,
    held_out_registers: tuple[str, ...] = DEFAULT_HELD_OUT_REGISTERS,
) -> Corpus:
    """Read the sources, cut passages, assign splits and write ``passages.jsonl`` + ``manifest.json``."""
    started = time.time()
    results = _read_sources(tuple(sources))
    works = [w for r in results for w in r.works]
    passages = build_passages(works, min_words, test_fraction, validation_fraction, tuple(held_out_registers))
    config = _config(tuple(sources), min_words, test_fraction, validation_fraction, tuple(held_out_registers))
    manifest = {
        **config,
        "sources_read": {
            r.name: {
                "origin": r.origin,
                "register": r.register,
                "license": r.license,
                "license_text": r.license_text,
                "works": len(r.works),
                "notes": r.notes,
                "files": r.files,
            }
            for r in results
        },
        "sources_missing": [
            s for s in sources if s not in {r.name for r in results} and not s.startswith(("dir:", "hf:"))
        ],
        "counts": count_table(passages),
        "register_counts": count_table(passages, by="register"),
        "work_splits": {p.work_id: p.split for p in passages},
        "fingerprint": _fingerprint(passages),
        "build_seconds": round(time.time() - started, 2),
    }
    out_dir = out_dir or cache_dir("corpus", _cache_key(config))
    tmp = out_dir.with_name(out_dir.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with open(tmp / "passages.jsonl", "w", encoding="utf-8") as handle:
        for p in passages:
            handle.write(json.dumps(p.to_dict(), ensure_ascii=False) + "\n")
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    shutil.rmtree(out_dir, ignore_errors=True)
    tmp.rename(out_dir)
    logger.info("corpus built in %.1fs: %d passages -> %s", manifest["build_seconds"], len(passages), out_dir)
    return Corpus(passages, manifest, out_dir)


def _cache_key(config: dict) -> str:
    """Settings + the code that builds the corpus: a change to either builds a new cache entry."""
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()[:12]


def read_corpus(path: Path) -> Corpus:
    """A corpus written by :func:`build_corpus` (e.g. carried to a GPU machine)."""
    path = Path(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    with open(path / "passages.jsonl", encoding="utf-8") as handle:
        passages = [Passage(**json.loads(line)) for line in handle]
    return Corpus(passages, manifest, path)


def load_corpus(
    sources: tuple[str, ...] = DEFAULT_SOURCES,
    min_words: int = 1000,
    test_fraction: float = 0.1,
    validation_fraction: float = 0.1,
    rebuild: bool = False,
    held_out_registers: tuple[str, ...] = DEFAULT_HELD_OUT_REGISTERS,
) -> Corpus:
    """The corpus for these settings: from the cache when built before, else built now.

    ``$INTERLEAVE_GRPO_CORPUS`` (a folder holding passages.jsonl + manifest.json) overrides the cache.
    """
    override = os.environ.get("INTERLEAVE_GRPO_CORPUS")
    if override:
        return read_corpus(Path(override))
    config = _config(tuple(sources), min_words, test_fraction, validation_fraction, tuple(held_out_registers))
    path = cache_dir("corpus") / _cache_key(config)
    if not rebuild and (path / "manifest.json").exists():
        corpus = read_corpus(path)
        if corpus.manifest.get("sources_missing"):
            logger.warning(
                "cached corpus lacks %s; run `python -m dataset_builders.corpus --rebuild` once it can be fetched",
                ", ".join(corpus.manifest["sources_missing"]),
            )
        return corpus
    return build_corpus(
        tuple(sources),
        min_words,
        test_fraction,
        validation_fraction,
        out_dir=path,
        held_out_registers=tuple(held_out_registers),
    )
