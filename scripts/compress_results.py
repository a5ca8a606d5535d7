"""Gzip the bulky text files of results/ (logs, metrics, per-problem records over a size) and store its plots as
palette PNGs, so that the working tree, which every GPU call carries, stays small (scripts/gpu/pack.sh needs room
beside it for its bundles).

    .venv/bin/python scripts/compress_results.py [FOLDER ...] [--min_kb 100]

Each ``*.jsonl`` and ``*.log`` file of at least ``--min_kb`` under the folders (default: results/) becomes ``NAME.gz``
(gzip -9, no name or time stored, so the bytes depend on the content only); the original is removed. Read them back
with ``gzip -dc`` (``scripts/summarize_runs.py`` reads ``metrics.jsonl.gz`` too). Each ``*.png`` is rewritten as a
256-colour palette image where that is smaller (matplotlib's plots use a few colours: 13.5 -> 5.7 MB for results/ in
session 16). Prints what it saved.
"""

from __future__ import annotations

import argparse
import gzip
import io
from pathlib import Path

from PIL import Image

SUFFIXES = (".jsonl", ".log")


def compress(path: Path) -> int:
    """``path`` -> ``path.gz``; the bytes saved."""
    data = path.read_bytes()
    target = path.with_name(path.name + ".gz")
    target.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    path.unlink()
    return len(data) - target.stat().st_size


def palette_png(path: Path) -> int:
    """``path`` rewritten as a 256-colour palette PNG if that is smaller; the bytes saved (0 if kept)."""
    data = path.read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        if image.mode == "P":
            return 0
        quantized = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    buffer = io.BytesIO()
    quantized.save(buffer, "PNG", optimize=True)
    if buffer.tell() >= len(data):
        return 0
    path.write_bytes(buffer.getvalue())
    return len(data) - buffer.tell()


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
            elif path.is_file() and path.suffix == ".png":
                shrunk = palette_png(path)
                saved += shrunk
                count += shrunk > 0
    print(f"compressed {count} files, {saved / 1e6:.1f} MB saved")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
