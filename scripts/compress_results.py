"""Gzip the bulky text files of results/ (logs, metrics, per-problem records over a size), so that the working tree,
which every GPU call carries, stays small (scripts/gpu/pack.sh needs room beside it for its bundles).

    .venv/bin/python scripts/compress_results.py [FOLDER ...] [--min_kb 100]

Each ``*.jsonl`` and ``*.log`` file of at least ``--min_kb`` under the folders (default: results/) becomes ``NAME.gz``
(gzip -9, no name or time stored, so the bytes depend on the content only); the original is removed. Read them back
with ``gzip -dc`` (``scripts/summarize_runs.py`` reads ``metrics.jsonl.gz`` too). Prints what it saved.
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

SUFFIXES = (".jsonl", ".log")


def compress(path: Path) -> int:
    """``path`` -> ``path.gz``; the bytes saved."""
    data = path.read_bytes()
    target = path.with_name(path.name + ".gz")
    target.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    path.unlink()
    return len(data) - target.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", default=["results"])
    parser.add_argument("--min_kb", type=float, default=100.0)
    args = parser.parse_args(argv)
    saved, count = 0, 0
    for folder in args.folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and path.stat().st_size >= args.min_kb * 1024:
                saved += compress(path)
                count += 1
    print(f"compressed {count} files, {saved / 1e6:.1f} MB saved")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
