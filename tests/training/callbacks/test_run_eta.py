"""The first step's time, then the run's pace and end after its second step."""

from types import SimpleNamespace

from training.callbacks.run_eta import RunEta
from training.core.reporting import duration


def _state(step: int, max_steps: int = 200) -> SimpleNamespace:
    return SimpleNamespace(global_step=step, max_steps=max_steps, is_world_process_zero=True)


def test_the_first_step_reports_its_time_and_the_second_the_time_left():
    lines, clock = [], iter([0.0, 412.0, 500.0, 530.0, 600.0, 601.0])
    eta = RunEta(report=lines.append, clock=lambda: next(clock), now=lambda: 0.0)
    for step in (1, 2, 3):
        eta.on_step_begin(None, _state(step - 1), None)
        eta.on_step_end(None, _state(step), None)
    assert len(lines) == 2  # the third step says nothing: the progress bar has the pace by then
    # the first step is mostly set-up: projecting 199 more like it (22.8 h) would misread a run of ~1.6 h
    assert lines[0] == (
        "step 1 of 200 took 6.9 min, one-time set-up included: the pace and the run's end follow the next step"
    )
    assert lines[1].startswith("step 2 of 200 took 30 s: at that pace the 198 steps left take 1.6 h")


def test_a_run_of_one_step_left_and_of_none():
    lines, clock = [], iter([0.0, 10.0, 20.0, 30.0])
    eta = RunEta(report=lines.append, clock=lambda: next(clock), now=lambda: 0.0)
    for step in (1, 2):
        eta.on_step_begin(None, _state(step - 1, 2), None)
        eta.on_step_end(None, _state(step, 2), None)
    assert lines == [lines[0]] and "the last step takes 10 s" in lines[0]


def test_durations_read_as_seconds_minutes_or_hours():
    assert [duration(s) for s in (0.3, 42, 89, 412, 5399, 5400, 82080)] == [
        "under 1 s",
        "42 s",
        "89 s",
        "6.9 min",
        "90.0 min",
        "1.5 h",
        "22.8 h",
    ]
