import json
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import TrainerControl

from training.callbacks.checkpoints import (
    COMPLETE_MARKER,
    CheckpointRetention,
    latest_complete_checkpoint,
    list_checkpoints,
    prune_checkpoints,
)


def _save(run_dir, step, reward, complete=True):
    folder = run_dir / f"checkpoint-{step}"
    folder.mkdir(parents=True)
    (folder / "adapter_model.safetensors").write_bytes(b"x")
    if complete:
        (folder / COMPLETE_MARKER).write_text(json.dumps({"step": step, "reward": reward}))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1, allow_nan=False), st.booleans()), min_size=1, max_size=25))
def test_best_first_and_newest_are_never_deleted(tmp_path_factory, saves):
    run_dir = tmp_path_factory.mktemp("run")
    best = None
    first = None
    for i, (reward, complete) in enumerate(saves, start=1):
        step = 20 * i
        _save(run_dir, step, reward, complete)
        if complete:
            first = first or step
            if best is None or reward > best[0]:
                best = (reward, step)
        reports = prune_checkpoints(run_dir)
        left = {c.step: c for c in list_checkpoints(run_dir)}
        assert all(c.complete for c in left.values())  # half-written ones are pruned
        assert len(left) <= 4
        if best is not None:
            assert best[1] in left and first in left
            assert max(left) == max(s for s, (_, ok) in zip(range(20, 20 * i + 1, 20), saves[:i]) if ok)
        expected_tail = "keeping first=" if first else "keeping no complete checkpoint"
        assert all(r.startswith("pruned checkpoint-") and expected_tail in r for r in reports)


def test_report_line_and_resume_choice(tmp_path):
    for step, reward in [(20, 0.1), (40, 0.41), (60, 0.2), (80, 0.5), (100, 0.3)]:
        _save(tmp_path, step, reward)
    _save(tmp_path, 120, None, complete=False)  # a crash mid-save
    assert latest_complete_checkpoint(tmp_path).name == "checkpoint-100"
    reports = prune_checkpoints(tmp_path)
    assert reports == [
        "pruned checkpoint-40 (reward 0.410): keeping first=20, best=80, prev=80, latest=100",
        "pruned checkpoint-60 (reward 0.200): keeping first=20, best=80, prev=80, latest=100",
        "pruned checkpoint-120 (incomplete): keeping first=20, best=80, prev=80, latest=100",
    ]
    assert [c.step for c in list_checkpoints(tmp_path)] == [20, 80, 100]


def test_callback_saves_on_a_new_best_reward_above_threshold_and_marks_checkpoints(tmp_path):
    lines = []
    callback = CheckpointRetention(threshold=0.3, report=lines.append, extra_state=lambda: {"data_position": 7})
    args = SimpleNamespace(output_dir=str(tmp_path))
    state = SimpleNamespace(global_step=0, is_world_process_zero=True)
    callback.on_train_begin(args, state, TrainerControl())
    decisions = []
    for step, reward in [(1, 0.2), (2, 0.35), (3, 0.3), (4, 0.5), (5, 0.45)]:
        state.global_step = step
        control = TrainerControl()
        callback.on_log(args, state, control, logs={"reward": reward})
        decisions.append(control.should_save)
        if control.should_save:
            (tmp_path / f"checkpoint-{step}").mkdir()
            callback.on_save(args, state, control)
    assert decisions == [False, True, False, True, False]
    assert lines == [
        "reward save at step 2: reward 0.350 (previous best none)",
        "reward save at step 4: reward 0.500 (previous best 0.350 at step 2)",
    ]
    marker = json.loads((tmp_path / "checkpoint-4" / COMPLETE_MARKER).read_text())
    assert marker == {"step": 4, "reward": 0.5, "data_position": 7}
    # a resumed run remembers the best so far
    again = CheckpointRetention(threshold=0.3, report=lines.append)
    again.on_train_begin(args, state, TrainerControl())
    assert (again.best_reward, again.best_step) == (0.5, 4)
