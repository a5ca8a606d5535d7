"""Run reports a person should see (saves, pruning, collapse, clipping), as one line on stdout."""

from __future__ import annotations

import os


def report(line: str) -> None:
    """Run reports a person should see (saves, pruning, collapse, clipping): one line on stdout (first process only)."""
    if os.environ.get("RANK", "0") == "0":  # set by accelerate launch / torchrun for each process
        print(line, flush=True)
