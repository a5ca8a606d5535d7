"""What the analysis scripts do with the table they make: print it, and write it to ``--out`` too when given."""

from __future__ import annotations

from pathlib import Path


def emit(text: str, out: Path | None) -> None:
    """``text`` on stdout as it is, and into ``out`` when it is not None."""
    print(text, end="")
    if out:
        out.write_text(text)
