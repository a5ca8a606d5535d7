"""One flag style across the project's CLIs: underscores, as TRL's (``--base_model``); ``--base-model`` still works."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def underscore_flags(argv: Sequence[str] | None = None) -> list[str]:
    """``argv`` (default: the command line) with each ``--flag-name`` (or ``--flag-name=x``) as ``--flag_name``."""
    out = []
    for arg in sys.argv[1:] if argv is None else argv:
        if arg.startswith("--") and len(arg) > 2:
            name, eq, value = arg[2:].partition("=")
            arg = "--" + name.replace("-", "_") + eq + value
        out.append(arg)
    return out
