"""Every prompt and completion of a run, with rewards, step and time, in a gzip JSONL file.

Each step is appended as its own gzip member and flushed, so the file stays readable after a crash:
a reader gets every complete step, and skips (and reports) a member cut short, reading on after it.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import os
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)


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


@dataclass(frozen=True)
class TornMember:
    """Bytes of a completion log that hold no complete gzip member (a write cut short by a crash or a full disk)."""

    offset: int
    length: int


_GZIP_MAGIC = b"\x1f\x8b\x08"  # ID1, ID2, CM=deflate: how every member starts
_CHUNK = 1 << 20


def _decompress_member(data: memoryview, start: int) -> tuple[bytes, int] | None:
    """The decompressed bytes of the gzip member at ``start`` and its end offset; None if torn or corrupt."""
    decompressor = zlib.decompressobj(wbits=31)  # one gzip member; zlib checks its CRC-32 and length
    parts, position = [], start
    try:
        while not decompressor.eof and position < len(data):
            chunk = data[position : position + _CHUNK]
            parts.append(decompressor.decompress(chunk))
            position += len(chunk)
    except zlib.error:
        return None
    if not decompressor.eof:
        return None
    return b"".join(parts), position - len(decompressor.unused_data)


def _member_texts(data: bytes, torn: list[TornMember]) -> Iterator[str]:
    """The text of each complete member in order; torn stretches are skipped up to the next member that reads."""
    view, position = memoryview(data), 0
    while position < len(data):
        member = _decompress_member(view, position) if data.startswith(_GZIP_MAGIC, position) else None
        if member is not None:
            text, position = member
            yield text.decode("utf-8")
            continue
        resume = position + 1
        while (resume := data.find(_GZIP_MAGIC, resume)) != -1 and _decompress_member(view, resume) is None:
            resume += 1
        resume = len(data) if resume == -1 else resume
        torn.append(TornMember(offset=position, length=resume - position))
        position = resume


def read_completion_log(path: str | Path, torn: list[TornMember] | None = None) -> Iterator[dict]:
    """Yield the records of a completion log, step by step.

    A torn or corrupt member (a crash mid-write, then a resumed run appending after it) is skipped and logged,
    and every complete member after it is still read; ``torn``, when given, receives each skipped stretch.
    """
    torn = [] if torn is None else torn
    seen = len(torn)
    for text in _member_texts(Path(path).read_bytes(), torn):
        while seen < len(torn):
            _log_torn(path, torn[seen])
            seen += 1
        for line in io.StringIO(text):
            yield json.loads(line)
    for member in torn[seen:]:
        _log_torn(path, member)


def _log_torn(path: str | Path, member: TornMember) -> None:
    logger.warning(
        "%s: skipped %d bytes at offset %d that hold no complete step (a write cut short)",
        path,
        member.length,
        member.offset,
    )


def completion_log_stats(path: str | Path) -> dict:
    """Size of a completion log: records, steps, bytes on disk, compressed bytes per 1,000 completions, torn bytes."""
    records, seen_steps, torn = 0, set(), []
    for record in read_completion_log(path, torn):
        records += 1
        seen_steps.add(record["step"])
    size = Path(path).stat().st_size
    return {
        "file": str(path),
        "completions": records,
        "steps": len(seen_steps),
        "bytes": size,
        "bytes_per_1000_completions": round(size * 1000 / records) if records else None,
        "torn_members": len(torn),
        "torn_bytes": sum(member.length for member in torn),
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m training.callbacks.completion_log LOG [--json OUT]``: print a completion log's size statistics."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m training.callbacks.completion_log", description=main.__doc__)
    parser.add_argument("log", help="a run's completions.jsonl.gz")
    parser.add_argument("--json", help="also write the statistics to this JSON file")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="warning: %(message)s")
    if not Path(args.log).is_file():
        print(f"error: no completion log at {args.log}", file=sys.stderr)
        return 2
    try:
        stats = completion_log_stats(args.log)
    except OSError as error:
        print(f"error: cannot read {args.log}: {error.strerror or error}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as error:  # a gzip member that is not JSON lines with a step
        print(
            f"error: {args.log} is not a completion log (a complete member holds no JSON records with a "
            f"step: {type(error).__name__})",
            file=sys.stderr,
        )
        return 2
    if stats["bytes"] == 0:
        print(f"{args.log} is empty: no step was logged")
    elif stats["completions"] == 0:
        print(
            f"error: {args.log} holds no complete step in its {stats['bytes']:,} bytes: a log cut short "
            "before its first step ended, or not a completion log",
            file=sys.stderr,
        )
        return 2
    else:
        print(
            f"{stats['completions']:,} completions over {stats['steps']} steps in {stats['bytes']:,} bytes: "
            f"{stats['bytes_per_1000_completions']:,} bytes per 1,000 completions"
        )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(stats, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
