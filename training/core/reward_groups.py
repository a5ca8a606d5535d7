"""Prompt groups whose rewards are all equal: what dynamic sampling replaces and the collapse guard counts."""

from __future__ import annotations

from collections.abc import Sequence


def zero_std_groups(rewards: Sequence[float], group_size: int, atol: float = 1e-6) -> list[int]:
    """Indices of the groups (consecutive ``group_size`` rewards) whose rewards are all equal."""
    if len(rewards) % group_size:
        raise ValueError(f"{len(rewards)} rewards do not form groups of {group_size}")
    groups = [rewards[i : i + group_size] for i in range(0, len(rewards), group_size)]
    return [g for g, values in enumerate(groups) if max(values) - min(values) <= atol]
