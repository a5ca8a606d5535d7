"""Run reports a person should see (saves, pruning, collapse, clipping), as one line on stdout; durations in words."""

from __future__ import annotations

import os


def report(line: str) -> None:
    """Run reports a person should see (saves, pruning, collapse, clipping): one line on stdout (first process only)."""
    if os.environ.get("RANK", "0") == "0":  # set by accelerate launch / torchrun for each process
        print(line, flush=True)


def duration(seconds: float) -> str:
    """``under 1 s``, ``42 s``, ``6.9 min``, ``22.8 h``."""
    if seconds < 0.5:
        return "under 1 s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
