"""Collapse guard: see groups whose generations all score alike (no gradient) and stop a run that stays so."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from transformers import TrainerCallback

from training.core.reward_groups import zero_std_groups

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GroupStats:
    """Per generation batch: how many prompt groups carry no learning signal."""

    groups: int
    zero_std_groups: int
    identical_groups: int

    @property
    def zero_std_fraction(self) -> float:
        return self.zero_std_groups / self.groups if self.groups else 0.0

    @property
    def identical_fraction(self) -> float:
        return self.identical_groups / self.groups if self.groups else 0.0


def group_stats(completions: list[str], rewards: list[float], group_size: int, atol: float = 1e-6) -> GroupStats:
    """Count groups (consecutive ``group_size`` generations of one prompt) with zero reward spread / one text."""
    if len(completions) != len(rewards):
        raise ValueError(f"{len(completions)} completions and {len(rewards)} rewards do not pair up")
    zero_std = zero_std_groups(rewards, group_size, atol)
    identical = sum(
        len(set(completions[start : start + group_size])) == 1 for start in range(0, len(completions), group_size)
    )
    return GroupStats(len(rewards) // group_size, len(zero_std), identical)


class CollapseGuard(TrainerCallback):
    """Warns when most groups have zero reward variance for ``warn_after`` steps; stops after ``stop_after``.

    Feed it with :meth:`observe` after each generation batch; it acts at the end of the step.
    """

    def __init__(self, max_zero_std_fraction: float = 0.9, warn_after: int = 5, stop_after: int = 20, report=print):
        self.max_zero_std_fraction = max_zero_std_fraction
        self.warn_after = warn_after
        self.stop_after = stop_after
        self.report = report
        self.collapsed_steps = 0
        self.stopped_at: int | None = None

    def observe(self, step: int, stats: GroupStats) -> None:
        """Record one generation batch's statistics."""
        if stats.zero_std_fraction >= self.max_zero_std_fraction:
            self.collapsed_steps += 1
            if self.collapsed_steps == self.warn_after:
                self.report(
                    f"collapse warning at step {step}: {stats.zero_std_fraction:.0%} of groups have zero reward "
                    f"variance ({stats.identical_fraction:.0%} all-identical) for {self.collapsed_steps} steps; "
                    f"no gradient flows. Stopping after {self.stop_after} such steps."
                )
        else:
            self.collapsed_steps = 0

    def on_step_end(self, args, state, control, **kwargs):
        if self.collapsed_steps >= self.stop_after and self.stopped_at is None:
            self.stopped_at = state.global_step
            self.report(
                f"collapse: stopping at step {state.global_step} after {self.collapsed_steps} steps without reward "
                f"variance; the last good checkpoints are kept in {args.output_dir}"
            )
            control.should_training_stop = True
            control.should_save = False  # a collapsed policy must not push a good checkpoint out
