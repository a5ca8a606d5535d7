"""A fresh run never continues an older trackio record of the same name; a resumed run continues its own."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from tests.conftest import REPO_ROOT
from training.core.tracking_run import name_tracking_run, tracking_run_name


def test_a_fresh_run_takes_the_first_free_name_and_its_resume_keeps_it(tmp_path):
    assert tracking_run_name(tmp_path / "a", "stage-1", False, []) == "stage-1"
    assert tracking_run_name(tmp_path / "b", "stage-1", False, ["stage-1", "stage-1-2", "stage-2"]) == "stage-1-3"
    assert tracking_run_name(tmp_path / "b", "stage-1", True, ["stage-1", "stage-1-2", "stage-1-3"]) == "stage-1-3"
    assert tracking_run_name(tmp_path / "c", "stage-1", True, ["stage-1"]) == "stage-1"  # a run from before


def test_runs_that_do_not_report_to_trackio_keep_their_name(tmp_path):
    args = SimpleNamespace(report_to=["none"], run_name="stage-1", project="huggingface")
    name_tracking_run(args, tmp_path, resume=False)
    assert args.run_name == "stage-1" and not list(tmp_path.iterdir())


TWO_RUNS = """
import sys, trackio
from types import SimpleNamespace
from training.core.tracking_run import name_tracking_run

lines = []
for folder, resume in (("old", False), ("new", False), ("new", True)):
    args = SimpleNamespace(report_to=["trackio"], run_name="stage-1", project="p")
    name_tracking_run(args, sys.argv[1] + "/" + folder, resume)
    trackio.init(project="p", name=args.run_name, resume="allow")  # as transformers' TrackioCallback does
    trackio.log({"reward": 0.5})
    trackio.finish()
"""


def test_with_trackio_a_second_fresh_run_creates_a_new_record(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", TWO_RUNS, str(tmp_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env={"TRACKIO_DIR": str(tmp_path / "trackio"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    runs = [line for line in proc.stdout.splitlines() if "existing run" in line or "new run" in line]
    assert runs == ["* Created new run: stage-1", "* Created new run: stage-1-2", "* Resumed existing run: stage-1-2"]


@pytest.mark.long  # the naming in process: test_with_trackio_a_second_fresh_run_creates_a_new_record
def test_two_fresh_training_runs_of_one_name_get_two_trackio_records(tiny_model_dir, tmp_path):
    from tests.conftest import run_cli

    outputs = []
    for folder in ("first", "second"):
        proc = run_cli(
            "-m",
            "training.cli.train",
            "--config",
            "training/recipes/stage-1.yaml",
            "--init_adapter",
            "base",
            "--model",
            "tiny-random-llama",
            "--per_device_train_batch_size",
            "2",
            "--num_generations",
            "2",
            "--max_steps",
            "1",
            "--derive_max_completion_length",
            "false",
            "--max_completion_length",
            "4",
            "--output_dir",
            str(tmp_path / folder / "stage-1"),
            "--results_dir",
            str(tmp_path / folder / "results"),
            env={"TRACKIO_DIR": str(tmp_path / "trackio")},
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        outputs.append(proc.stdout)
    assert "Created new run: stage-1\n" in outputs[0] and "Created new run: stage-1-2\n" in outputs[1]
    assert "Resumed existing run" not in outputs[1]
