from types import SimpleNamespace

import pytest
from transformers import TrainerControl

from training.callbacks.collapse_guard import CollapseGuard, group_stats


def test_group_stats_counts_zero_variance_and_identical_groups():
    completions = ["a", "a", "a", "a", "b", "c", "d", "e", "f", "f", "g", "f"]
    rewards = [0.5, 0.5, 0.5, 0.5, 0.1, 0.2, 0.3, 0.4, 0.0, 0.0, 0.0, 0.0]
    stats = group_stats(completions, rewards, group_size=4)
    assert (stats.groups, stats.zero_std_groups, stats.identical_groups) == (3, 2, 1)
    assert stats.zero_std_fraction == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="groups of 5"):
        group_stats(completions, rewards, group_size=5)


def test_guard_warns_then_stops_and_resets_on_recovery():
    lines = []
    guard = CollapseGuard(max_zero_std_fraction=0.9, warn_after=2, stop_after=3, report=lines.append)
    args = SimpleNamespace(output_dir="runs/x")
    collapsed = group_stats(["same"] * 8, [0.0] * 8, group_size=4)
    healthy = group_stats(list("abcdefgh"), [0, 1, 0, 1, 0, 1, 0, 1], group_size=4)
    controls = []
    for step, stats in enumerate([collapsed, collapsed, healthy, collapsed, collapsed, collapsed, collapsed], start=1):
        guard.observe(step, stats)
        control = TrainerControl()
        guard.on_step_end(args, SimpleNamespace(global_step=step), control)
        controls.append(control.should_training_stop)
    assert controls == [False, False, False, False, False, True, False]
    assert guard.stopped_at == 6
    assert lines[0].startswith(
        "collapse warning at step 2: 100% of groups have zero reward variance (100% all-identical)"
    )
    assert lines[1].startswith("collapse warning at step 5")
    assert lines[2].startswith("collapse: stopping at step 6 after 3 steps")
