"""A SIGTERM or Ctrl-C ends a run after its step, and the run still writes its final adapter and results."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest
from transformers import TrainerControl

from tests.conftest import REPO_ROOT
from tests.training.tiny_run import TINY_RUN
from training.callbacks.stop_on_signal import StopOnSignal

ONE_PROCESS = SimpleNamespace(world_size=1)


def test_the_first_signal_ends_training_after_the_step_and_the_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM)
    lines = []
    stop = StopOnSignal(report=lines.append)
    stop.on_train_begin(ONE_PROCESS, None, TrainerControl())
    try:
        control = TrainerControl()
        stop.on_step_end(ONE_PROCESS, SimpleNamespace(global_step=3), control)
        assert not control.should_training_stop  # no signal yet
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here, in the main thread
        assert stop.received == signal.SIGTERM and "SIGTERM received: finishing this step" in lines[0]
        stop.on_step_end(ONE_PROCESS, SimpleNamespace(global_step=4), control)
        assert control.should_training_stop and control.should_save and stop.stopped_at == 4
        assert "stopping at step 4 on SIGTERM (RESUME=1 continues)" in lines[-1]
    finally:
        stop.on_train_end(ONE_PROCESS, None, TrainerControl())
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_second_ctrl_c_stops_at_once_and_several_processes_keep_the_usual_signals():
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own (a test worker may differ)
    try:
        stop = StopOnSignal(report=lambda line: None)
        stop.on_train_begin(ONE_PROCESS, None, TrainerControl())
        os.kill(os.getpid(), signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the re-sent signal is handled at the next bytecode
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored by the second signal
        several = StopOnSignal(report=lambda line: None)
        several.on_train_begin(SimpleNamespace(world_size=2), None, TrainerControl())
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler and not several._previous
    finally:
        signal.signal(signal.SIGINT, before)


TINY_SFT = [
    *("-m", "training.cli.warm_start", "--config", "training/recipes/sft-every-length.yaml"),
    *("--model", "tiny-random-llama", "--words", "4", "--per_device_train_batch_size", "2", "--max_length", "256"),
    *("--dataset_num_proc", "1", "--report_to", "none"),
]


def _sigterm_after_a_step(metrics, sent: list, done: threading.Event) -> threading.Thread:
    """A thread that sends this process SIGTERM (as `timeout` does) once the run in it has logged a step to
    ``metrics`` and its StopOnSignal holds SIGTERM (never before: the signal would end the test process); ``sent``
    gets True when it did. It gives up when ``done`` is set (the run returned)."""

    def watch():
        deadline = time.time() + 300
        while time.time() < deadline and not done.is_set():
            holder = getattr(signal.getsignal(signal.SIGTERM), "__self__", None)
            if isinstance(holder, StopOnSignal) and metrics.is_file() and metrics.read_text().strip():
                sent.append(True)
                os.kill(os.getpid(), signal.SIGTERM)
                return
            time.sleep(0.2)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("run", [["-m", "training.cli.train", *TINY_RUN], TINY_SFT], ids=["grpo", "sft"])
def test_a_run_stopped_by_sigterm_writes_its_final_adapter_and_results(run, tmp_path, in_process):
    """A tiny run, told to run 500 steps, gets SIGTERM once it has logged a step (as `timeout` sends it). The run is
    the CLI's main() in the test's process (tests/in_process.py), which the signal reaches as it would its own; a
    run in a process of its own that a signal stops: the format start's test below (the GRPO run and its child)."""
    out, results = tmp_path / "run", tmp_path / "results"
    sent, done = [], threading.Event()
    watcher = _sigterm_after_a_step(out / "metrics.jsonl", sent, done)
    try:
        proc = in_process(
            *run, "--max_steps", "500", "--logging_steps", "1", "--output_dir", str(out), "--results_dir", str(results)
        )
    finally:
        done.set()
        watcher.join()
    output = proc.stdout + proc.stderr
    assert sent, "the run ended or stalled before its first step"
    assert proc.returncode == 0, output[-3000:]
    assert "SIGTERM received: finishing this step" in output and "stopping at step" in output
    summary = json.loads((results / "summary.json").read_text())
    assert 1 <= summary["global_step"] < 500
    if "training.cli.train" in run:  # GRPO's summary names each limit that stopped the run
        assert summary["signal_stopped_at"] == summary["global_step"]
    assert (out / "final" / "adapter_model.safetensors").is_file() and (results / "metrics.jsonl").is_file()
    assert (out / f"checkpoint-{summary['global_step']}").is_dir()  # saved at the stop: RESUME=1 continues from it


def test_a_sigterm_during_the_format_start_stops_the_run_before_grpo(tmp_path):
    """`timeout` signals the GRPO run's process only: the run passes it to its format start (a child process), which
    ends after its step and writes its adapter; the run then stops, saying so, instead of starting GRPO."""
    from training.core.arguments import RECIPES_DIR

    recipe = tmp_path / "long-format-start.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\n"
        "max_steps: 500\nper_device_train_batch_size: 2\nlogging_steps: 1\ndataset_num_proc: 1\n"
    )
    fresh = [a for a in TINY_RUN if a not in ("--init_adapter", "base")]  # the recipe's default: its format start
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "training.cli.train", *fresh, "--format_start", str(recipe), "--max_steps", "2"]
        + ["--output_dir", str(out), "--results_dir", str(tmp_path / "results")],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    metrics, deadline = out / "format-start" / "metrics.jsonl", time.time() + 300
    while not (metrics.is_file() and metrics.read_text().strip()):
        assert proc.poll() is None and time.time() < deadline, "the format start ended or stalled before a step"
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 128 + signal.SIGTERM, stderr[-3000:]
    assert "stopped during the format start (SIGTERM)" in stderr and "GRPO did not start" in stderr
    assert "SIGTERM received: finishing this step" in stdout  # the child's own report
    assert (out / "format-start" / "final" / "adapter_config.json").is_file()
    assert json.loads((out / "format-start" / "results" / "summary.json").read_text())["global_step"] < 500
    assert not (out / "final").exists()  # no GRPO
