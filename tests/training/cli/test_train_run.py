"""GRPO runs end to end on CPU with the tiny random model: checkpoints, logs, resume after kill -9, collapse guard."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from tests.conftest import REPO_ROOT, run_cli
from tests.in_process import forbid_model_load, in_process_child, run_main
from tests.training.tiny_run import TINY_RUN
from training.callbacks.completion_log import read_completion_log
from training.callbacks.run_metrics import read_metric_lines, read_metrics
from training.core.arguments import RecipeError


def train_args(out: Path, *extra: str) -> list[str]:
    return [
        "-m",
        "training.cli.train",
        *TINY_RUN,
        "--output_dir",
        str(out / "run"),
        "--results_dir",
        str(out / "results"),
        *extra,
    ]


def adapter_weights(folder: Path) -> dict[str, torch.Tensor]:
    return load_file(folder / "adapter_model.safetensors")


def test_two_grpo_steps_write_checkpoints_logs_metrics_and_results(tiny_model_dir, tmp_path):
    """``python -m training.cli.train`` in a process of its own, as a user runs it (the other runs of this file call
    its main() in the test's process: tests/in_process.py)."""
    proc = run_cli(
        *train_args(
            tmp_path,
            "--max_steps",
            "2",
            "--save_steps",
            "1",
            "--sample_outputs_steps",
            "1",
            "--progress_after_seconds",
            "0",
            "--train_words",  # train problems of 3 and 10 words per text take turns (validation stays at 10)
            "3,10",
        )
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "fast generation is off" not in proc.stderr  # the recipes sample with training.trainer.graph_sampler
    assert "FutureWarning" not in proc.stderr  # TRL's calls of transformers' deprecated names, at every step
    # a first run on CPU: its cost before it starts, progress inside each step, then its pace and end
    assert (
        "no GPU: this run trains on the CPU" in proc.stdout
        and "2 steps x 4 completions of up to 8 tokens" in proc.stdout
        and "Estimated time: " in proc.stdout
    )
    assert "step 1: sampling 4 completions:" in proc.stderr and "/8 [" in proc.stderr  # the rollout's token steps
    assert "step 1: 4 completions sampled and scored in" in proc.stdout and "now the update" in proc.stdout
    assert "step 1 of 2 took " in proc.stdout and "at that pace the last step takes" in proc.stdout
    run = tmp_path / "run"
    assert "run run: stage-1, 2 steps, from a fresh LoRA adapter" in proc.stdout
    assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-1", "checkpoint-2"]
    for name in (
        "adapter_model.safetensors",
        "optimizer.pt",
        "scheduler.pt",
        "rng_state.pth",
        "trainer_state.json",
        "checkpoint_complete.json",
    ):
        assert (run / "checkpoint-2" / name).is_file(), name
    marker = json.loads((run / "checkpoint-2" / "checkpoint_complete.json").read_text())
    assert marker["step"] == 2 and marker["data_position"] == 4  # 2 prompts per step
    assert (run / "final" / "adapter_model.safetensors").is_file()
    weights = adapter_weights(run / "final")
    assert any(k.endswith("lora_B.weight") and v.abs().sum() > 0 for k, v in weights.items()), "no update happened"

    records = list(read_completion_log(run / "completions.jsonl.gz"))
    own = [r for r in records if r["round"] == 0]
    assert [r["step"] for r in own] == [1] * 4 + [2] * 4
    assert [r["id"] for r in own[::2]] == [f"{n}w-train-seed0-{i:07d}" for i in range(2) for n in (3, 10)]
    assert all(r["prompt"].startswith("You run two processes") and isinstance(r["completion"], str) for r in records)
    assert all(set(r["rewards"]) == {"letter_reward"} and "time" in r and "advantage" in r for r in records)
    resampled = [r for r in records if r["round"] == 1]
    assert all(r["id"].split("-", 1)[1].startswith("train-seed0-5") for r in resampled)  # the resampling range

    metrics = read_metrics(run / "metrics.jsonl")
    assert [m["global_step"] for m in metrics] == [1, 2]
    for key in (
        "reward",
        "reward_std",
        "frac_reward_zero_std",
        "completions/mean_length",
        "completions/clipped_ratio",
        "entropy",
        "learning_rate",
        "step_time",
        "num_tokens",
        "timestamp",
        "groups/identical_fraction_sampled",
    ):
        assert key in metrics[-1], key
    assert metrics[-1]["tokens_per_second"] > 0
    assert "step 1: mean reward" in (run / "sample_outputs.log").read_text()

    results = tmp_path / "results"
    summary = json.loads((results / "summary.json").read_text())
    assert summary["global_step"] == 2 and summary["steps_logged"] == 2 and summary["data_position"] == 4
    assert summary["device"] == "cpu" and summary["wall_seconds"] > 0  # the model card's training time
    assert {p.name for p in results.glob("*.png")} == {
        "reward.png",
        "zero_std_fraction.png",
        "completion_length.png",
        "entropy.png",
    }
    assert (results / "metrics.jsonl").read_text() == (run / "metrics.jsonl").read_text()


FOUR_STEPS = ["--max_steps", "4", "--save_steps", "2"]


@pytest.fixture(scope="module")
def four_steps(tiny_model_dir, tmp_path_factory) -> Path:
    """One uninterrupted run of 4 steps (checkpoints 2 and 4) for the resume tests, which copy what they change."""
    out = tmp_path_factory.mktemp("four-steps")
    # in this process (tests/in_process.py); its output goes to the test's report
    assert run_main("training.cli.train", train_args(out, *FOUR_STEPS)[2:]) == 0
    return out


def test_kill_9_then_resume_matches_an_uninterrupted_run(four_steps, tmp_path, in_process):
    steps = FOUR_STEPS

    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, *train_args(killed, *steps)],
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    marker = killed / "run" / "checkpoint-2" / "checkpoint_complete.json"
    deadline = time.time() + 240
    while not marker.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert marker.exists() and not (killed / "run" / "final").exists(), "the run was not cut short mid-way"
    half_written = killed / "run" / "checkpoint-3"  # what a kill during a save leaves: no completion marker
    half_written.mkdir(exist_ok=True)
    (half_written / "adapter_model.safetensors").write_bytes(b"torn")

    resumed = in_process(*train_args(killed, *steps, "--resume", "true"))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "resuming checkpoint-2 at problem 4" in resumed.stdout
    assert "pruned checkpoint-3 (incomplete)" in resumed.stdout

    a, b = adapter_weights(four_steps / "run" / "final"), adapter_weights(killed / "run" / "final")
    assert a.keys() == b.keys()
    for key in a:
        torch.testing.assert_close(a[key], b[key], rtol=0, atol=1e-6, msg=key)
    assert any(v.abs().sum() > 0 for k, v in a.items() if "lora_B" in k)
    summaries = [json.loads((out / "results" / "summary.json").read_text()) for out in (four_steps, killed)]
    assert summaries[0]["data_position"] == summaries[1]["data_position"] == 8
    assert summaries[0]["resample_position"] == summaries[1]["resample_position"]
    # metrics: one record per step, and the training time of both segments (not only the resumed one)
    assert [r["global_step"] for r in read_metrics(killed / "run" / "metrics.jsonl")] == [1, 2, 3, 4]
    assert summaries[1]["steps_logged"] == 4
    first_segment = read_metric_lines(killed / "run" / "metrics.jsonl")[1]  # step 2, before the kill
    assert summaries[1]["wall_seconds"] > first_segment["run_seconds"] + summaries[1]["step_time_mean"]

    # the completions of steps 3-4: a resumed log first repeats what the kill cut short, then the rest
    straight_log = [r for r in read_completion_log(four_steps / "run" / "completions.jsonl.gz") if r["step"] >= 3]
    resumed_log = [r for r in read_completion_log(killed / "run" / "completions.jsonl.gz") if r["step"] >= 3]
    assert [r["completion"] for r in straight_log] == [r["completion"] for r in resumed_log[-len(straight_log) :]]


def test_resume_passes_over_a_damaged_latest_checkpoint_naming_its_bad_file(four_steps, tmp_path, in_process):
    shutil.copytree(four_steps / "run", tmp_path / "run")
    optimizer = tmp_path / "run" / "checkpoint-4" / "optimizer.pt"
    optimizer.write_bytes(optimizer.read_bytes()[: optimizer.stat().st_size // 2])  # a save cut short by a full disk
    resumed = in_process(*train_args(tmp_path, "--max_steps", "6", "--save_steps", "2", "--resume", "true"))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert f"cannot resume checkpoint-4: {optimizer} is damaged" in resumed.stdout
    assert "resuming checkpoint-2 at problem 4" in resumed.stdout
    assert "moved the damaged checkpoint-4 aside to checkpoint-4.damaged" in resumed.stdout
    assert (tmp_path / "run" / "checkpoint-4.damaged" / "optimizer.pt").is_file()
    assert (tmp_path / "run" / "checkpoint-6" / "checkpoint_complete.json").is_file()
    assert [r["global_step"] for r in read_metrics(tmp_path / "run" / "metrics.jsonl")] == list(range(1, 7))


def test_collapse_guard_stops_a_run_whose_generations_are_all_identical(tiny_model_dir, tmp_path, in_process):
    proc = in_process(
        *train_args(
            tmp_path,
            "--max_steps",
            "6",
            "--save_steps",
            "100",
            "--top_k",
            "1",
            "--collapse_warn_after",
            "1",
            "--collapse_stop_after",
            "2",
        )
    )
    assert proc.returncode == 3, proc.stderr[-3000:]
    assert "collapse warning at step 1: 100% of groups have zero reward variance (100% all-identical)" in proc.stdout
    assert "collapse: stopping at step 2" in proc.stdout
    summary = json.loads((tmp_path / "results" / "summary.json").read_text())
    assert summary["collapse_stopped_at"] == 2 and summary["global_step"] == 2
    assert summary["final_adapter"] is None and "no final adapter written" in proc.stdout  # nothing good to hand on
    metrics = read_metrics(tmp_path / "run" / "metrics.jsonl")
    assert all(m["groups/identical_fraction_sampled"] == 1.0 for m in metrics)


@pytest.mark.long
def test_stage_1_trains_its_format_start_first_and_a_supervised_help_continues_it(tiny_model_dir, tmp_path):
    """A fresh stage 1 runs the supervised recipe it names (format_start) before GRPO; a stage's supervised_help
    then continues that start, here in two parts (the same recipe twice, the second from the first's final adapter);
    all are reported in summary.json (run_format_start and run_supervised_help themselves:
    tests/training/core/test_format_start.py)."""
    from training.core.arguments import RECIPES_DIR

    recipe = tmp_path / "tiny-format-start.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\n"
        "max_steps: 2\nper_device_train_batch_size: 4\nlogging_steps: 1\n"
    )
    fresh = [a for a in train_args(tmp_path, "--max_steps", "1") if a not in ("--init_adapter", "base")]
    assert "--init_adapter" not in fresh  # TINY_GRPO's explicit fresh start taken out: the recipe's default applies
    proc = run_cli(*fresh, "--format_start", str(recipe), "--supervised_help", f"{recipe},{recipe}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    start = tmp_path / "run" / "format-start" / "final"
    one, helped = tmp_path / "run" / "supervised-help" / "final", tmp_path / "run" / "supervised-help-2" / "final"
    assert "format start: a fresh adapter learns the answer's form first" in proc.stdout
    assert f"supervised help part 1 of 2: continuing {start}/" in proc.stdout and f"continues {one}/" in proc.stdout
    assert f"supervised help part 2 of 2: continuing {one}/" in proc.stdout
    assert f"GRPO starts from {helped}/" in proc.stdout
    summary = json.loads((tmp_path / "results" / "summary.json").read_text())
    assert summary["init_adapter"] == str(helped) and summary["format_start"]["steps"] == 2
    assert summary["format_start"]["recipe"] == str(recipe) and summary["format_start"]["wall_seconds"] > 0
    helped_record = summary["supervised_help"]
    assert (
        helped_record["from"] == str(start) and helped_record["steps"] == 4 and helped_record["adapter"] == str(helped)
    )
    assert [p["from"] for p in helped_record["parts"]] == [str(start), str(one)]
    second = json.loads((helped.parent / "results" / "summary.json").read_text())  # the real child's own record
    assert second["init_adapter"] == str(one) and second["global_step"] == 2


def test_a_stage_of_max_steps_0_is_its_supervised_help_alone(tiny_model_dir, tmp_path, in_process, monkeypatch):
    """``max_steps: 0`` (stages whose GRPO polish did not clear its bar, batch 25): the help trains, its adapter
    becomes final/, and no GRPO step runs; without a help the run stops before loading, saying what to give. (The
    help's child runs in this process too: its own process is test_format_start.py's.)"""
    from training.core.arguments import RECIPES_DIR

    recipe = tmp_path / "tiny-help.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: 2\nper_device_train_batch_size: 4\n"
        "logging_steps: 1\n"
    )
    monkeypatch.setattr("training.core.format_start.run_child_until_stopped", in_process_child)
    proc = in_process(*train_args(tmp_path, "--max_steps", "0", "--supervised_help", str(recipe)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    helped, final = tmp_path / "run" / "supervised-help" / "final", tmp_path / "run" / "final"
    assert f"max_steps 0: no GRPO steps; the stage's final adapter is its supervised help's ({final}/)" in proc.stdout
    weights = adapter_weights(final)
    assert weights.keys() == adapter_weights(helped).keys()
    assert all(torch.equal(weights[k], adapter_weights(helped)[k]) for k in weights)
    assert not list((tmp_path / "run").glob("checkpoint-*")) and not (tmp_path / "run" / "metrics.jsonl").exists()
    summary = json.loads((tmp_path / "results" / "summary.json").read_text())
    assert (summary["global_step"], summary["max_steps"], summary["final_adapter"]) == (0, 0, str(final))
    assert summary["supervised_help"]["steps"] == 2 and summary["supervised_help"]["adapter"] == str(helped)
    assert summary["init_adapter"] is None and summary["wall_seconds"] == summary["supervised_help"]["wall_seconds"]

    fresh = [a for a in train_args(tmp_path / "bare", "--max_steps", "0") if a not in ("--init_adapter", "base")]
    forbid_model_load(monkeypatch)
    proc = in_process(*fresh)  # a fresh stage 1 would train its format start first: the check comes before it
    _fails_before_loading(proc)
    assert "--max_steps 0 runs no GRPO step, so the stage is its supervised help alone" in proc.stderr
    assert "format start" not in proc.stdout and not (tmp_path / "bare" / "run" / "format-start").exists()


def _stage_with_help_parts(tmp_path, monkeypatch, help_list: str, *extra: str):
    """train() in this process, a stage of max_steps 0 whose help is ``help_list``, its supervised children replaced
    by tests/training/fake_warm_start.py's stand-in (returned: the calls it got); the exit code or the error."""
    from tests.training.fake_warm_start import FakeWarmStart
    from training.cli.train import train
    from training.core.arguments import parse_run_arguments

    fake = FakeWarmStart()
    monkeypatch.setattr("training.core.format_start.run_child_until_stopped", fake)
    args = train_args(tmp_path, "--max_steps", "0", "--supervised_help", help_list, *extra)[2:]  # no -m ...
    try:
        return fake, train(*parse_run_arguments(args))
    except RecipeError as exc:
        return fake, exc


def test_a_stage_whose_help_has_two_parts_trains_them_in_turn_and_reports_both(tiny_model_dir, tmp_path, monkeypatch):
    """``--supervised_help a,b`` on a stage of max_steps 0: b continues a's final adapter, the stage's final adapter is
    b's, and summary.json holds the help's totals and each part (the model card's side: test_stage_card.py)."""
    from training.core.arguments import RECIPES_DIR

    recipes = []
    for name, steps in (("part-a", 3), ("part-b", 5)):
        recipes.append(tmp_path / f"{name}.yaml")
        recipes[-1].write_text(f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: {steps}\n")
    fake, code = _stage_with_help_parts(tmp_path, monkeypatch, f"{recipes[0]}, {recipes[1]}")
    assert code == 0
    run = tmp_path / "run"
    one, two = run / "supervised-help" / "final", run / "supervised-help-2" / "final"
    assert fake.calls == [(str(recipes[0]), one.parent, None), (str(recipes[1]), two.parent, str(one))]
    weights = "adapter_model.safetensors"
    assert (run / "final" / weights).read_text() == (two / weights).read_text() == f"{recipes[1]} from {one}\n"
    summary = json.loads((tmp_path / "results" / "summary.json").read_text())
    helped = summary["supervised_help"]
    assert helped["recipe"] == f"{recipes[0]},{recipes[1]}" and helped["adapter"] == str(two)
    assert (helped["steps"], helped["wall_seconds"], summary["wall_seconds"]) == (8, 48.0, 48.0)
    assert [(p["recipe"], p["from"], p["steps"]) for p in helped["parts"]] == [
        (str(recipes[0]), None, 3),
        (str(recipes[1]), str(one), 5),
    ]


def test_a_stage_checks_every_part_of_its_help_before_anything_trains(tiny_model_dir, tmp_path, monkeypatch):
    """A fresh stage 1 trains its format start first: a help part with no recipe, or none bounded in time, stops
    the run before it."""
    from training.core.arguments import RECIPES_DIR

    recipe = tmp_path / "tiny.yaml"
    recipe.write_text(f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: 2\n")
    unbounded = tmp_path / "unbounded.yaml"
    unbounded.write_text(f"base: {recipe}\nmax_train_minutes: null\n")
    fresh = ("--init_adapter", "", "--format_start", str(recipe))  # no explicit start: the format start trains
    for case, (second, message) in enumerate((("no-such-recipe", "no recipe"), (str(unbounded), "no max_train_min"))):
        fake, error = _stage_with_help_parts(tmp_path / str(case), monkeypatch, f"{recipe},{second}", *fresh)
        assert isinstance(error, RecipeError) and f"supervised_help part 2 of 2 '{second}'" in str(error)
        assert message in str(error) and fake.calls == []


def test_a_later_stage_needs_the_stage_before_or_an_adapter(tmp_path, in_process, no_model_load):
    """Stage N's start is runs/stage-(N-1)/final; without it the error says how to give one, and names the shipped
    adapter where that is a stage-(N-1) adapter (and only there)."""
    from model_cards.shipped_adapter import load_shipped

    shipped = load_shipped().stage
    for stage in sorted({2, min(shipped + 1, 6)}):
        proc = in_process(
            "-m",
            "training.cli.train",
            "--config",
            f"training/recipes/stage-{stage}.yaml",
            "--model",
            "tiny-random-llama",
            "--output_dir",
            str(tmp_path / f"stage-{stage}"),
            "--report_to",
            "none",
        )
        assert proc.returncode == 2
        previous = f"stage-{stage - 1}"
        assert (
            f"stage-{stage} starts from {previous}'s final adapter, {tmp_path}/{previous}/final, which does not exist"
            in proc.stderr
        )
        hint = f"The adapter shipped with the project is a {previous} adapter: INIT_ADAPTER=adapters/shipped."
        assert (hint in proc.stderr) == (stage == shipped + 1), proc.stderr
        assert "Traceback" not in proc.stderr


def test_a_second_run_into_the_same_folder_must_say_resume(tmp_path, in_process, no_model_load):
    (tmp_path / "run" / "checkpoint-5").mkdir(parents=True)
    proc = in_process(*train_args(tmp_path, "--max_steps", "1"))
    assert proc.returncode == 2 and "already holds checkpoints of an earlier run" in proc.stderr
    proc = in_process(*train_args(tmp_path / "empty", "--max_steps", "1", "--resume", "true"))
    assert proc.returncode == 2 and "nothing to resume" in proc.stderr


def test_after_a_collapse_the_final_adapter_is_the_last_checkpoint_before_it(tmp_path):
    from types import SimpleNamespace

    from training.cli.train import write_final_adapter

    for step in (20, 40, 60):
        folder = tmp_path / f"checkpoint-{step}"
        folder.mkdir()
        (folder / "adapter_model.safetensors").write_text(str(step))
        (folder / "optimizer.pt").write_text("state")
        (folder / "checkpoint_complete.json").write_text(json.dumps({"step": step, "reward": 0.5}))
    guard = SimpleNamespace(stopped_at=64, collapsed_steps=20)  # the collapse began at step 45
    final = write_final_adapter(trainer=None, output_dir=tmp_path, guard=guard)
    assert final == tmp_path / "final" and (final / "adapter_model.safetensors").read_text() == "40"
    assert not (final / "optimizer.pt").exists()


def _fails_before_loading(proc) -> None:
    """Exit 2 with one message: no traceback, and no model was loaded (the check came first)."""
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and "Loading weights" not in proc.stderr, proc.stderr[-3000:]


def test_bad_numbers_stop_the_cli_before_the_model_loads(tmp_path, in_process, no_model_load):
    proc = in_process(*train_args(tmp_path, "--max_steps", "-5", "--learning_rate", "-1"))
    _fails_before_loading(proc)
    assert (
        "error: --max_steps -5 must be a whole number >= 0; --learning_rate -1.0 must be a number >= 0" in proc.stderr
    )


def test_folders_that_cannot_be_written_stop_the_run_before_training(tmp_path, in_process, no_model_load):
    """A results folder that cannot be made was found only after training; an output folder gave a traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    proc = in_process(
        "-m",
        "training.cli.train",
        *TINY_RUN,
        "--max_steps",
        "1",
        "--output_dir",
        str(tmp_path / "run"),
        "--results_dir",
        str(blocker / "results"),
    )
    _fails_before_loading(proc)
    assert f"error: --results_dir {blocker}/results cannot be a folder: {blocker} is a file" in proc.stderr
    assert not (tmp_path / "run").exists()  # nothing was started
    proc = in_process("-m", "training.cli.train", *TINY_RUN, "--max_steps", "1", "--output_dir", str(blocker / "run"))
    _fails_before_loading(proc)
    assert f"error: --output_dir {blocker}/run cannot be a folder: {blocker} is a file" in proc.stderr


def test_the_warm_start_checks_its_folders_before_training(tmp_path, in_process, no_model_load):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    proc = in_process(
        "-m",
        "training.cli.warm_start",
        "--config",
        "training/recipes/sft-every-length.yaml",
        "--model",
        "tiny-random-llama",
        "--max_steps",
        "1",
        "--report_to",
        "none",
        "--output_dir",
        str(tmp_path / "run"),
        "--results_dir",
        str(blocker / "results"),
    )
    _fails_before_loading(proc)
    assert f"error: --results_dir {blocker}/results cannot be a folder: {blocker} is a file" in proc.stderr


def test_check_writable_probes_without_leaving_anything(tmp_path):
    from training.core.arguments import RecipeError
    from training.core.writable import check_writable

    check_writable(tmp_path / "new" / "deeper", "output_dir")
    check_writable(tmp_path, "output_dir")
    assert list(tmp_path.iterdir()) == []  # the probe file is gone and no folder was made
    if os.geteuid() != 0:  # root writes into a read-only folder anyway
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(RecipeError, match="cannot be written: Permission denied"):
            check_writable(locked / "run", "output_dir")


@pytest.mark.parametrize("slips_only", [False, True], ids=["cuts", "slips-only"])
def test_a_grpo_run_on_continuation_problems_samples_and_scores_their_windows(
    tiny_model_dir, tmp_path, slips_only, in_process
):
    """--continuation_words: the run's problems hand the model the start of the answer and score the next words (the
    interleave rewards on the window); with --continuation_slips_only every problem is the one the cuts name. The
    flags it refuses: tests/dataset_builders/test_continuation.py."""
    from dataset_builders import tasks
    from tests.training.tiny_run import STAGE_1, TINY_GRPO

    first = next(iter(tasks.get("stage-1").train_stream(0)))  # cut at its slip (--continuation_cuts): words 6-8
    cuts = tmp_path / "problems.jsonl"
    cuts.write_text(json.dumps({"id": first["id"], "split": "train", "task": "stage-1", "first_slip": 10}) + "\n")
    run = [*STAGE_1, *TINY_GRPO, "--max_steps", "1", "--continuation_words", "3", "--continuation_cuts", str(cuts)]
    run += ["--continuation_slips_only", str(slips_only).lower()]
    out = ["--output_dir", str(tmp_path / "run"), "--results_dir", str(tmp_path / "results")]
    run += ["--word_credit", "0", "--keep_word_signal_groups", "false"]
    proc = in_process("-m", "training.cli.train", *run, *out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "1 train problems cut 4 words before the start adapter's first slip" in proc.stdout + proc.stderr
    assert ("those alone, in turn (--continuation_slips_only)" in proc.stdout + proc.stderr) == slips_only
    records = list(read_completion_log(tmp_path / "run" / "completions.jsonl.gz"))
    assert records and all(len(r["reference"].split()) == 3 for r in records)
    window = " ".join(first["target"].split()[6:9])
    assert window in {r["reference"] for r in records}
    assert ({r["reference"] for r in records} == {window}) == slips_only  # slips only: that problem alone
    assert set(records[0]["rewards"]) == {"interleave_trigram_reward", "interleave_strict_reward"}


def test_a_shared_prompt_loss_pass_trains_as_trls_does(tiny_model_dir, tmp_path, in_process):
    """--shared_prompt_loss: one GRPO step of the tiny run with each group's prompt computed once gives TRL's loss,
    gradient norm and updated adapter (the same completions: the seed and the sampling do not change)."""
    runs = {}
    for shared in ("false", "true"):
        out = tmp_path / shared
        proc = in_process(*train_args(out, "--max_steps", "1", "--shared_prompt_loss", shared))
        assert proc.returncode == 0, proc.stderr[-3000:]
        (step,) = read_metrics(out / "run" / "metrics.jsonl")
        runs[shared] = step, adapter_weights(out / "run" / "final-raw")
    (plain, plain_weights), (shared, shared_weights) = runs["false"], runs["true"]
    assert plain["grad_norm"] > 0 and plain["loss"] != 0  # a step that learns something
    assert shared["loss"] == pytest.approx(plain["loss"], rel=1e-4, abs=1e-6)
    assert shared["grad_norm"] == pytest.approx(plain["grad_norm"], rel=1e-3)
    # Adam's first step moves each weight by about the learning rate times the sign of its gradient, so a gradient
    # within rounding of zero may move either way: nearly every weight must move as in TRL's pass
    same = sum(int(torch.isclose(shared_weights[n], w, atol=1e-6).sum()) for n, w in plain_weights.items())
    assert same >= 0.99 * sum(w.numel() for w in plain_weights.values())


def test_a_stage_of_its_help_alone_stops_in_several_processes(tiny_model_dir, tmp_path, monkeypatch):
    """``max_steps: 0`` with ``WORLD_SIZE`` over 1: the help trains in one process, and its by-hand route ends in
    ``--supervised_help none``, which a stage of max_steps 0 refuses; so the run stops at once, saying to use one."""
    from tests.training.fake_warm_start import FakeWarmStart
    from training.cli.train import train
    from training.core.arguments import RECIPES_DIR, parse_run_arguments

    recipe = tmp_path / "part.yaml"
    recipe.write_text(f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: 2\n")
    fake = FakeWarmStart()
    monkeypatch.setattr("training.core.format_start.run_child_until_stopped", fake)
    args = parse_run_arguments(train_args(tmp_path, "--max_steps", "0", "--supervised_help", f"{recipe},{recipe}")[2:])
    monkeypatch.setenv("WORLD_SIZE", "2")  # after parsing: TRL's config would set up a process group from it
    with pytest.raises(RecipeError, match=r"run this stage in one \(without GPUS=N"):
        train(*args)
    assert fake.calls == [] and not (tmp_path / "run").exists()


def test_a_start_that_a_stop_signal_cut_short_is_said_to_be(tmp_path, capsys):
    """`make train-stage N=2` after stage 1 was stopped by Ctrl-C: stage 1's final adapter is what it trained so far,
    and stage 2 says so before it starts from it (by default or named), and how to train stage 1 on."""
    from types import SimpleNamespace

    from training.cli.train import initial_adapter

    final = tmp_path / "stage-1" / "final"
    final.mkdir(parents=True)
    (final / "adapter_config.json").write_text("{}")
    (tmp_path / "stage-1" / "results").mkdir()
    summary = tmp_path / "stage-1" / "results" / "summary.json"
    summary.write_text(json.dumps({"max_steps": 310, "signal_stopped_at": 12}))
    task = SimpleNamespace(name="stage-2", previous="stage-1")
    for init in (None, str(final)):
        assert initial_adapter(SimpleNamespace(init_adapter=init), task, tmp_path / "stage-2") == final
        out = capsys.readouterr().out
        assert f"note: the start {final}/ was stopped by a signal at step 12 of 310: what it trained so far" in out
        assert "RESUME=1" in out
    summary.write_text(json.dumps({"max_steps": 310, "signal_stopped_at": None}))  # ran to its end: nothing said
    assert initial_adapter(SimpleNamespace(init_adapter=None), task, tmp_path / "stage-2") == final
    assert capsys.readouterr().out == ""
