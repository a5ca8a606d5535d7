"""A stage ends early at its validation bar (promotion) or when its time budget is used up."""

import json

from tests.training.tiny_run import TINY_GRPO

SMALL = [*TINY_GRPO, "--max_steps", "4"]


def test_a_stage_that_passes_its_bar_stops_and_keeps_the_promoted_adapter(tiny_model_dir, tmp_path, in_process):
    proc = in_process(
        "-m",
        "training.cli.train",
        "--config",
        "training/recipes/stage-1.yaml",
        *SMALL,
        "--promotion_bar",
        "0.0",
        "--promotion_every",
        "2",
        "--promotion_problems",
        "3",
        "--output_dir",
        str(tmp_path / "run"),
        "--results_dir",
        str(tmp_path / "res"),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "validation at step 2: stage-1 NW" in proc.stdout and "promoted: stopping the stage" in proc.stdout
    checks = [json.loads(line) for line in (tmp_path / "run" / "promotion.jsonl").read_text().splitlines()]
    assert [c["global_step"] for c in checks] == [2] and 0.0 <= checks[0]["validation_nw_score"] <= 1.0
    summary = json.loads((tmp_path / "res" / "summary.json").read_text())
    assert summary["global_step"] == 2 and summary["promoted_at"] == 2
    assert (tmp_path / "run" / "final" / "adapter_model.safetensors").exists()


def test_the_time_budget_stops_and_saves_once_it_is_used_up():
    from types import SimpleNamespace

    from training.callbacks.promotion import TimeBudget

    lines = []
    budget = TimeBudget(minutes=0, report=lines.append)
    state, control = SimpleNamespace(global_step=1), SimpleNamespace(should_training_stop=False, should_save=False)
    budget.on_step_end(None, state, control)  # before training began: nothing
    assert not control.should_training_stop
    budget.on_train_begin(None, state, control)
    budget.on_step_end(None, state, control)
    assert control.should_training_stop and control.should_save  # the Trainer saves a checkpoint, then stops
    assert budget.stopped_at == 1 and lines == ["time budget of 0 min used up at step 1: stopping (RESUME=1 continues)"]
    assert TimeBudget(minutes=60).seconds == 3600
    warm = TimeBudget(minutes=0, report=lines.append, resume_hint="--init_adapter runs/w/final continues the adapter")
    warm.on_train_begin(None, state, control)
    warm.on_step_end(None, state, control)
    assert lines[-1].endswith("(--init_adapter runs/w/final continues the adapter)")  # SFT has no RESUME
