import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import TrainerControl

from training.callbacks.checkpoints import (
    COMPLETE_MARKER,
    CheckpointRetention,
    checkpoint_problem,
    latest_complete_checkpoint,
    latest_resumable_checkpoint,
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


def _real_checkpoint(run_dir, step):
    """The files a Trainer save leaves (adapter, optimizer, scheduler, RNG, state, args), then the marker."""
    import torch
    from safetensors.torch import save_file

    folder = run_dir / f"checkpoint-{step}"
    folder.mkdir(parents=True)
    save_file({"lora_A": torch.randn(8, 64), "lora_B": torch.zeros(64, 8)}, folder / "adapter_model.safetensors")
    (folder / "adapter_config.json").write_text(json.dumps({"r": 8}))
    torch.save({"state": {0: {"exp_avg": torch.randn(64, 8)}}, "param_groups": [{"lr": 1e-4}]}, folder / "optimizer.pt")
    torch.save({"last_epoch": step}, folder / "scheduler.pt")
    torch.save(
        {"python": (3, tuple(range(10)), None), "cpu": torch.zeros(16, dtype=torch.uint8)}, folder / "rng_state.pth"
    )
    torch.save({"output_dir": str(run_dir)}, folder / "training_args.bin")
    (folder / "trainer_state.json").write_text(json.dumps({"global_step": step, "log_history": [{"reward": 0.1}] * 5}))
    (folder / COMPLETE_MARKER).write_text(json.dumps({"step": step, "reward": 0.1}))
    return folder


def _truncate(path, keep=0.5):
    path.write_bytes(path.read_bytes()[: int(path.stat().st_size * keep)])


@pytest.mark.parametrize(
    "damage, bad_file",
    [
        (lambda f: _truncate(f / "adapter_model.safetensors"), "adapter_model.safetensors"),
        (lambda f: _truncate(f / "adapter_model.safetensors", 0.995), "adapter_model.safetensors"),
        (lambda f: _truncate(f / "optimizer.pt"), "optimizer.pt"),
        (lambda f: _truncate(f / "optimizer.pt", 0.98), "optimizer.pt"),
        (lambda f: _truncate(f / "trainer_state.json"), "trainer_state.json"),
        (lambda f: (f / "rng_state.pth").write_bytes(b""), "rng_state.pth"),
        (lambda f: (f / "trainer_state.json").unlink(), "trainer_state.json"),
        (lambda f: (f / "trainer_state.json").write_text(json.dumps({"global_step": 2})), "trainer_state.json"),
    ],
)
def test_resume_names_the_damaged_file_and_falls_back_to_the_checkpoint_before(tmp_path, damage, bad_file):
    for step in (2, 4, 6):
        _real_checkpoint(tmp_path, step)
    assert checkpoint_problem(tmp_path / "checkpoint-6") is None
    damage(tmp_path / "checkpoint-6")
    lines = []
    assert latest_resumable_checkpoint(tmp_path, report=lines.append) == tmp_path / "checkpoint-4"
    assert len(lines) == 1 and lines[0].startswith("cannot resume checkpoint-6: ")
    assert f"checkpoint-6/{bad_file}" in lines[0] and "falling back to the checkpoint before it" in lines[0]
    assert (tmp_path / "checkpoint-6").is_dir()  # choosing is read-only; the resumed run moves it aside


def test_no_resumable_checkpoint_when_every_one_is_damaged(tmp_path):
    for step in (2, 4):
        _truncate(_real_checkpoint(tmp_path, step) / "scheduler.pt")
    lines = []
    assert latest_resumable_checkpoint(tmp_path, report=lines.append) is None
    assert [line.split(":")[0] for line in lines] == ["cannot resume checkpoint-4", "cannot resume checkpoint-2"]


def test_the_resumed_run_moves_damaged_newer_checkpoints_aside(tmp_path):
    for step in (2, 4):
        _real_checkpoint(tmp_path, step)
    _truncate(tmp_path / "checkpoint-4" / "optimizer.pt")
    lines = []
    callback = CheckpointRetention(report=lines.append)
    state = SimpleNamespace(global_step=2, is_world_process_zero=True)  # resumed from checkpoint-2
    callback.on_train_begin(SimpleNamespace(output_dir=str(tmp_path)), state, TrainerControl())
    assert lines == ["moved the damaged checkpoint-4 aside to checkpoint-4.damaged (resumed at step 2)"]
    assert [c.step for c in list_checkpoints(tmp_path)] == [2] and (tmp_path / "checkpoint-4.damaged").is_dir()


def test_checkpoint_files_are_flushed_before_the_marker_is_written(tmp_path, monkeypatch):
    import os

    import training.callbacks.checkpoints as checkpoints

    folder = tmp_path / "checkpoint-1"
    folder.mkdir()
    (folder / "adapter_model.safetensors").write_bytes(b"weights")
    (folder / "optimizer.pt").write_bytes(b"state")
    events = []
    real_fsync, real_rename = os.fsync, os.rename

    def fsync(descriptor):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}")))
        return real_fsync(descriptor)

    monkeypatch.setattr(checkpoints.os, "fsync", fsync)
    monkeypatch.setattr(
        checkpoints.Path,
        "rename",
        lambda self, target: (events.append(("marker", str(target))), real_rename(self, target))[1],
    )
    callback = CheckpointRetention(report=lambda line: None)
    state = SimpleNamespace(global_step=1, is_world_process_zero=True)
    callback.on_save(SimpleNamespace(output_dir=str(tmp_path)), state, TrainerControl())
    marker_at = events.index(("marker", str(folder / COMPLETE_MARKER)))
    flushed = {path for kind, path in events[:marker_at] if kind == "fsync"}
    assert {str(folder / "adapter_model.safetensors"), str(folder / "optimizer.pt"), str(folder)} <= flushed
    assert str(folder / (COMPLETE_MARKER + ".tmp")) in flushed
