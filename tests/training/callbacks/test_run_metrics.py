"""A resumed run's metrics: one record per step (the last written), and training time summed over segments."""

import json
from types import SimpleNamespace

import training.callbacks.run_metrics as run_metrics
from training.callbacks.run_metrics import MetricsFile, read_metric_lines, read_metrics, summarize


class Clock:
    def __init__(self, now=1000.0):
        self.now = now

    def time(self):
        return self.now


def run_segment(path, clock, start_step, end_step, step_seconds, reward):
    """One process's part of a run: train begins at ``start_step`` and logs each step up to ``end_step``."""
    callback = MetricsFile(path, report=lambda line: None)
    state = SimpleNamespace(global_step=start_step, is_world_process_zero=True)
    callback.on_train_begin(None, state, None)
    for step in range(start_step + 1, end_step + 1):
        clock.now += step_seconds
        state.global_step = step
        callback.on_log(None, state, None, logs={"reward": reward(step), "step_time": step_seconds})


def test_a_resumed_run_has_one_record_per_step_and_its_time_summed_over_segments(tmp_path, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(run_metrics.time, "time", clock.time)
    path = tmp_path / "metrics.jsonl"
    run_segment(path, clock, 0, 5, 10.0, reward=lambda s: 0.1)  # killed after step 5; checkpoint-3 survived
    clock.now += 3600.0  # an hour before anyone resumes it
    run_segment(path, clock, 3, 8, 20.0, reward=lambda s: 0.9)
    assert [r["global_step"] for r in read_metric_lines(path)] == [1, 2, 3, 4, 5, 4, 5, 6, 7, 8]
    records = read_metrics(path)
    assert [r["global_step"] for r in records] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r["reward"] for r in records] == [0.1] * 3 + [0.9] * 5  # the redone steps' records win
    summary = summarize(records)
    assert summary["steps_logged"] == 8 and summary["last_step"] == 8
    assert summary["wall_seconds"] == 5 * 10.0 + 5 * 20.0  # both segments, not the hour between them


def test_a_restart_from_scratch_drops_the_abandoned_runs_steps(tmp_path, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(run_metrics.time, "time", clock.time)
    path = tmp_path / "metrics.jsonl"
    run_segment(path, clock, 0, 6, 10.0, reward=lambda s: 0.1)  # killed before its first checkpoint
    run_segment(path, clock, 0, 4, 10.0, reward=lambda s: 0.5)  # started again from step 0, stopped at 4
    records = read_metrics(path)
    assert [(r["global_step"], r["reward"]) for r in records] == [(s, 0.5) for s in range(1, 5)]
    assert summarize(records)["wall_seconds"] == 40.0


def test_summarize_deduplicates_records_it_is_given_raw(tmp_path):
    steps = [(1, 0.1), (2, 0.2), (2, 0.3), (3, 0.4)]
    lines = [{"global_step": s, "timestamp": float(s), "reward": r} for s, r in steps]
    path = tmp_path / "metrics.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines) + '{"global_step": 4, "rew')  # a torn last line
    summary = summarize(read_metric_lines(path))
    assert summary["steps_logged"] == 3 and summary["reward_best"] == 0.4 and "wall_seconds" not in summary
