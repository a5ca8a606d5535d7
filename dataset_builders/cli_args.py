"""argparse types for the dataset CLIs: counts and indices that argparse itself refuses when out of range."""

from __future__ import annotations

import argparse


def non_negative_int(text: str) -> int:
    """An int >= 0 (a problem index)."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def positive_int(text: str) -> int:
    """An int >= 1 (a count of problems)."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
