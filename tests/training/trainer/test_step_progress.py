"""Progress inside a slow step: a bar over the rollout's token steps, and a line when the update begins."""

import time

from training.trainer.step_progress import StepProgress


def test_a_slow_step_shows_its_rollout_tokens_then_its_update(capsys):
    lines = []
    progress = StepProgress(delay=0.0, report=lines.append)
    progress.step_started(1)
    with progress.rollout(1, completions=64, max_tokens=53) as tick:
        for _ in range(53):
            tick()
    with progress.rollout(1, completions=16, max_tokens=53, round_=1) as tick:
        tick()
    shown = capsys.readouterr().err
    assert "step 1: sampling 64 completions:" in shown and "/53 [" in shown  # token steps out of the budget
    assert "step 1: sampling 16 completions (resampling round 1)" in shown
    progress.update_started(1, 64)
    progress.update_started(1, 64)  # the next micro-batch of the same step
    assert len(lines) == 1 and lines[0].startswith("step 1: 64 completions sampled and scored in 0 s; now the update")


def test_a_fast_step_shows_nothing(capsys):
    lines = []
    progress = StepProgress(delay=60.0, report=lines.append)
    progress.step_started(1)
    with progress.rollout(1, completions=64, max_tokens=53) as tick:
        for _ in range(53):
            tick()
    progress.update_started(1, 64)
    assert capsys.readouterr().err == "" and lines == []


def test_other_processes_show_nothing(capsys):
    lines = []
    progress = StepProgress(enabled=False, delay=0.0, report=lines.append)
    progress.step_started(1)
    time.sleep(0.01)
    with progress.rollout(1, completions=8, max_tokens=4) as tick:
        tick()
    progress.update_started(1, 8)
    assert capsys.readouterr().err == "" and lines == []


def test_a_rollout_still_reading_its_prompts_shows_its_bar_and_clock(capsys):
    progress = StepProgress(delay=0.05, heartbeat=0.05)
    progress.step_started(1)
    with progress.rollout(1, completions=64, max_tokens=64):
        time.sleep(0.4)  # the prefill: no token yet
    shown = capsys.readouterr().err
    assert "step 1: sampling 64 completions:" in shown and "0/64 [" in shown and "reading the prompts" in shown
