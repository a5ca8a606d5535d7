"""Two runs into one run folder: the second stops with a message naming the first's pid."""

import os
import subprocess
import sys
import time

import pytest

from tests.conftest import REPO_ROOT
from training.core.arguments import RecipeError
from training.core.run_lock import RunFolderLocked, RunLock, hold_run_lock

HOLD = (
    "import sys, time; from training.core.run_lock import hold_run_lock; hold_run_lock(sys.argv[1]); "
    "print('held', flush=True); time.sleep(60)"
)


@pytest.fixture
def holder(tmp_path):
    """Another process holding the lock on tmp_path/run."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path / "run")], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "held"
    yield proc
    proc.kill()
    proc.wait()


def test_a_second_lock_on_a_run_folder_names_the_holder(holder, tmp_path):
    with pytest.raises(RunFolderLocked, match=rf"{tmp_path / 'run'} is in use by another run \(pid {holder.pid} on "):
        RunLock(tmp_path / "run").acquire()
    assert issubclass(RunFolderLocked, RecipeError)  # the training CLIs turn it into their one-line error


def test_the_lock_is_free_again_when_its_holder_dies(holder, tmp_path):
    holder.kill()  # kill -9: the kernel drops the lock
    holder.wait()
    lock = RunLock(tmp_path / "run").acquire()
    assert (tmp_path / "run" / ".lock").read_text().startswith(f"pid {os.getpid()} on ")
    lock.release()


def test_a_process_holds_its_own_lock_once_and_other_ranks_take_none(tmp_path, monkeypatch):
    first = hold_run_lock(tmp_path / "run")
    assert hold_run_lock(tmp_path / "run") is first
    monkeypatch.setenv("RANK", "1")
    assert hold_run_lock(tmp_path / "other") is None and not (tmp_path / "other").exists()
    first.release()


@pytest.mark.parametrize("module", ["training.cli.train", "training.cli.warm_start"])
def test_training_refuses_a_run_folder_in_use(holder, tmp_path, module, in_process, no_model_load):
    recipe = (
        "training/recipes/stage-1.yaml" if module == "training.cli.train" else "training/recipes/sft-every-length.yaml"
    )
    started = time.time()
    proc = in_process(
        "-m",
        module,
        "--config",
        recipe,
        "--model",
        "tiny-random-llama",
        "--output_dir",
        str(tmp_path / "run"),
        "--results_dir",
        str(tmp_path / "results"),
        "--report_to",
        "none",
        "--max_steps",
        "1",
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"is in use by another run (pid {holder.pid} on " in proc.stderr and "Traceback" not in proc.stderr
    assert time.time() - started < 60  # before the model is loaded
