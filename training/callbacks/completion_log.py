"""Every prompt and completion of a run, with rewards, step and time, in a gzip JSONL file.

Each step is appended as its own gzip member and flushed, so the file stays readable after a crash:
a reader gets every complete step and drops at most the one being written.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import time
import zlib
from collections.abc import Iterator
from pathlib import Path


class CompletionLog:
    """Append-only writer: one gzip member per step, fsync'd, so a crash loses at most the current step."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def write_step(self, step: int, records: list[dict]) -> None:
        """Append the records of one step; each gets ``step`` and a ``time`` stamp."""
        now = time.time()
        lines = "".join(json.dumps({"step": step, "time": now, **r}, ensure_ascii=False) + "\n" for r in records)
        member = gzip.compress(lines.encode("utf-8"), compresslevel=6, mtime=0)
        with open(self.path, "ab") as handle:
            handle.write(member)
            handle.flush()
            os.fsync(handle.fileno())


def read_completion_log(path: str | Path) -> Iterator[dict]:
    """Yield the records of a completion log, step by step, skipping a torn last member."""
    data = Path(path).read_bytes()
    while data:
        decompressor = zlib.decompressobj(wbits=31)  # one gzip member
        try:
            text = decompressor.decompress(data)
        except zlib.error:
            return
        if not decompressor.eof:  # the member was cut short by a crash
            return
        for line in io.StringIO(text.decode("utf-8")):
            yield json.loads(line)
        data = decompressor.unused_data


def completion_log_stats(path: str | Path) -> dict:
    """Size of a completion log: records, steps, bytes on disk and compressed bytes per 1,000 completions."""
    records, seen_steps = 0, set()
    for record in read_completion_log(path):
        records += 1
        seen_steps.add(record["step"])
    size = Path(path).stat().st_size
    return {"file": str(path), "completions": records, "steps": len(seen_steps), "bytes": size,
            "bytes_per_1000_completions": round(size * 1000 / records) if records else None}


def main(argv: list[str] | None = None) -> int:
    """``python -m training.callbacks.completion_log LOG [--json OUT]``: print a completion log's size statistics."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m training.callbacks.completion_log", description=main.__doc__)
    parser.add_argument("log", help="a run's completions.jsonl.gz")
    parser.add_argument("--json", help="also write the statistics to this JSON file")
    args = parser.parse_args(argv)
    if not Path(args.log).is_file():
        print(f"error: no completion log at {args.log}", file=sys.stderr)
        return 2
    stats = completion_log_stats(args.log)
    print(f"{stats['completions']:,} completions over {stats['steps']} steps in {stats['bytes']:,} bytes: "
          f"{stats['bytes_per_1000_completions']:,} bytes per 1,000 completions")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(stats, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
