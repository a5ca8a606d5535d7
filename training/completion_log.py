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
