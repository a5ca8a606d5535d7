"""make curriculum / make arithmetic-control: one chain file, run step by step, each from the previous final adapter."""

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, run_cli
from training.cli.curriculum import step_commands
from training.cli.warm_start import parse_warm_start_arguments
from training.core.arguments import RecipeError, parse_run_arguments
from training.core.chain_carry import carried_files
from training.core.chains import CHAINS_DIR, read_chain


def _parse(command: list[str]):
    module, argv = command[2], command[3:]
    parse = parse_warm_start_arguments if module == "training.cli.warm_start" else parse_run_arguments
    return parse(argv)


def test_the_curriculum_hands_each_adapter_to_the_next_step(tmp_path):
    chain = read_chain(CHAINS_DIR / "supervised-curriculum.yaml")
    assert [s.run for s in chain.steps] == [
        "warm-start",
        "warm-start-long",
        "stage-3",
        "warm-start-500",
        "warm-start-500b",
        "warm-start-500c",
        "warm-start-500d",
        "warm-start-500e",
    ]
    planned = step_commands(chain, tmp_path, ["python"], None, [])
    previous = None
    for run, command, _ in planned[:-1]:  # the steps, then the eval
        args, train_args, _ = _parse(command)
        assert train_args.output_dir == str(tmp_path / run)
        assert args.init_adapter == (str(previous) if previous else None)  # the first: its recipe's start (fresh)
        previous = tmp_path / run / "final"
    sft_500, sft_500d = _parse(planned[3][1]), _parse(planned[6][1])
    assert sft_500[0].words == "10,25,50,100,200,250,320,400,450,500" and sft_500[1].max_steps == 500
    assert sft_500[1].learning_rate == 2e-4 and sft_500d[0].problem_seed == 1 and sft_500d[1].max_steps == 700
    run, command, _ = planned[-1]
    assert run == "eval" and command[2:] == [
        "training.cli.evaluate",
        "--adapter",
        str(tmp_path / "warm-start-500e" / "final"),
        "--stages",
        "1-6",
    ]


def test_the_grpo_curriculum_is_make_train_stage_1_to_6_then_the_eval():
    """Each step parses to what `make train-stage N` parses to (recipe stage-N.yaml into runs/stage-N), stage 1 with
    no --init_adapter (so its format start runs) and stage N from runs/stage-(N-1)/final (train-stage's default)."""
    chain = read_chain(CHAINS_DIR / "curriculum.yaml")
    planned = step_commands(chain, REPO_ROOT / "runs", ["python"], None, [])
    assert [run for run, _, _ in planned] == [f"stage-{n}" for n in range(1, 7)] + ["eval"]
    for n, (run, command, _) in enumerate(planned[:-1], start=1):
        assert command[1:4] == ["-m", "training.cli.train", "--config"]
        run_args, grpo, _ = _parse(command)
        make_run_args, make_grpo, _ = parse_run_arguments(["--config", f"training/recipes/stage-{n}.yaml"])
        assert grpo.output_dir == str(REPO_ROOT / "runs" / run) and make_grpo.output_dir == f"runs/stage-{n}"
        assert run_args.init_adapter == (None if n == 1 else str(REPO_ROOT / "runs" / f"stage-{n - 1}" / "final"))
        same = {"init_adapter": None, "named": None}  # `named`: which settings the recipe and flags named
        assert {**vars(run_args), **same} == {**vars(make_run_args), **same}
        assert grpo.to_dict() == {**make_grpo.to_dict(), "output_dir": grpo.output_dir}
    assert run_args.task == "stage-6" and planned[0][1].count("--init_adapter") == 0
    assert _parse(planned[1][1])[0].supervised_help == "sft-stage-2-help-7m"  # stage 2's help is its recipe's
    assert planned[-1][1][2:] == ["training.cli.evaluate", "--adapter", str(REPO_ROOT / "runs/stage-6/final"),
                                  "--stages", "1-6"]  # fmt: skip


def test_make_curriculum_dry_run_and_a_chain_continued_on_another_machine(tmp_path):
    """`make curriculum CHAIN_ARGS=--dry_run` prints the six stages and the eval; with runs/stage-1/final
    carried over (as from another machine), stage 1 is skipped and stage 2 continues that adapter."""
    command = ["make", "-s", "curriculum", f"CHAIN_ARGS=--dry_run --runs_dir {tmp_path}"]
    proc = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for n in range(1, 7):
        assert f"stage-{n}: grpo stage-{n}" in proc.stdout and f"--output_dir {tmp_path}/stage-{n}" in proc.stdout
    assert "eval of" in proc.stdout and not (tmp_path / "stage-1").exists()  # a dry run trains nothing
    (tmp_path / "stage-1" / "final").mkdir(parents=True)
    (tmp_path / "stage-1" / "final" / "adapter_config.json").write_text("{}")
    again = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert f"skip stage-1: {tmp_path}/stage-1/final exists" in again.stdout
    assert f"--init_adapter {tmp_path}/stage-1/final" in again.stdout


def test_make_curriculum_until_a_step_trains_up_to_it_and_leaves_the_rest(tmp_path):
    """`make curriculum UNTIL=stage-2` (a machine held for less than the chain): stages 1 and 2, then a line that
    says what is left and how to go on; no stage 3 and no eval. A step the chain lacks is one clear error."""
    base = ["make", "-s", "curriculum", f"CHAIN_ARGS=--dry_run --runs_dir {tmp_path}"]
    proc = subprocess.run([*base, "UNTIL=stage-2"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "stage-1: grpo stage-1" in proc.stdout and "stage-2: grpo stage-2" in proc.stdout
    assert "stage-3: grpo" not in proc.stdout and "eval of" not in proc.stdout
    assert "stop after stage-2 (--until): stage-3, stage-4, stage-5, stage-6 and the eval are left" in proc.stdout
    assert f"where {tmp_path}/stage-2/final and the runs before it are carried" in proc.stdout
    bad = subprocess.run([*base, "UNTIL=stage-9"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "--until stage-9: the chain has no step of that name; its steps: stage-1, stage-2" in bad.stderr
    last = step_commands(read_chain(CHAINS_DIR / "curriculum.yaml"), tmp_path, ["python"], None, [], until="stage-6")
    assert [run for run, _, _ in last] == [*(f"stage-{n}" for n in range(1, 7)), "stage-6"]  # the steps, then a stop
    assert last[-1][1] is None and last[-1][2].startswith("stop after stage-6 (--until): the eval is left;")


def test_a_stopped_chain_skips_finished_steps_and_resumes_a_grpo_step(tmp_path):
    chain = read_chain(CHAINS_DIR / "supervised-curriculum.yaml")
    for run in ("warm-start", "warm-start-long"):
        (tmp_path / run / "final").mkdir(parents=True)
        (tmp_path / run / "final" / "adapter_config.json").write_text("{}")
    (tmp_path / "stage-3" / "checkpoint-20").mkdir(parents=True)
    (tmp_path / "stage-3" / "checkpoint-20" / "checkpoint_complete.json").write_text("{}")
    planned = step_commands(chain, tmp_path, ["python"], "tiny-random-llama", ["--max_steps", "2"])
    assert [command for _, command, _ in planned[:2]] == [None, None]
    assert planned[0][2] == f"skip warm-start: {tmp_path}/warm-start/final exists (delete it to train this step again)"
    stage_3 = planned[2][1]
    assert stage_3[-2:] == ["--resume", "true"] and "--max_steps" in stage_3 and "tiny-random-llama" in stage_3
    assert stage_3[stage_3.index("--init_adapter") + 1] == str(tmp_path / "warm-start-long" / "final")


def test_the_arithmetic_control_chain(tmp_path):
    chain = read_chain(CHAINS_DIR / "arithmetic-control.yaml")
    planned = step_commands(chain, tmp_path, ["python"], None, [])
    (sft, _, _), (grpo, grpo_command, _), (_, eval_command, _) = planned
    args, _, _ = _parse(planned[0][1])
    assert args.task == "arithmetic-3x2"
    run_args, _, _ = _parse(grpo_command)
    assert run_args.task == "arithmetic-3x2" and run_args.init_adapter == str(tmp_path / sft / "final")
    assert eval_command[-6:] == ["--adapter", str(tmp_path / grpo / "final"), "--stages", "", "--n", "512"]


def test_bad_chain_files_say_what_is_wrong(tmp_path):
    bad = {
        "steps: []\n": "steps` must be a list",
        "steps: [{run: a, entry_point: dpo, recipe: stage-1}]\n": "entry_point must be one of sft, grpo",
        "steps: [{run: a, entry_point: sft, recipe: nope}]\n": "no recipe",
        "steps: [{run: a, entry_point: sft, recipe: stage-1, extra: 1}]\n": "unknown keys extra",
        "steps: [{run: a, entry_point: sft, recipe: stage-1}, {run: a, entry_point: sft, recipe: stage-1}]\n": (
            "two steps write the same run (a)"
        ),
    }
    for text, message in bad.items():
        (tmp_path / "chain.yaml").write_text(text)
        with pytest.raises(RecipeError, match=message.replace("(", r"\(").replace(")", r"\)")):
            read_chain(tmp_path / "chain.yaml")


@pytest.mark.long  # the chain's parts: the chain tests above, make warm-start, make train-stage, make eval
def test_make_curriculum_runs_a_chain_and_stops_at_a_failing_step(tiny_model_dir, tmp_path):
    """A two-step chain on the tiny model (a supervised step, then a GRPO step from its adapter), run in two pieces
    as on two machines (``UNTIL=sft`` in one runs folder; what ``training.core.chain_carry`` picks copied to another,
    where the chain goes on), then again: the third time both steps are skipped and only the eval runs. A chain
    whose step fails stops with its exit code."""
    chain = tmp_path / "chain.yaml"
    chain.write_text(
        "steps:\n"
        "  - {run: sft, entry_point: sft, recipe: sft-every-length, overrides: {words: '4', max_steps: 1,"
        " per_device_train_batch_size: 2, max_length: 256, dataset_num_proc: 1}}\n"
        "  - {run: grpo, entry_point: grpo, recipe: stage-1, overrides: {max_steps: 1,"
        " per_device_train_batch_size: 4, num_generations: 2, derive_max_completion_length: false,"
        " max_completion_length: 8}}\n"
        "eval: {stages: '1', args: [--n, '2', --batch_size, '2', --arithmetic, 'false',"
        f" --out, '{tmp_path}/eval']}}\n"
    )
    runs, piece = tmp_path / "runs", tmp_path / "piece"
    command = [
        "make",
        "-s",
        "curriculum",
        "MODEL=tiny-random-llama",
        "TRAIN_ARGS=--report_to none",
        f"CHAIN_ARGS=--chain {chain} --runs_dir {runs}",
    ]
    first_piece = [*command[:-1], f"CHAIN_ARGS=--chain {chain} --runs_dir {piece}", "UNTIL=sft"]
    proc = subprocess.run(first_piece, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0 and not (piece / "grpo").exists(), proc.stderr[-3000:]
    carried = carried_files(piece, "sft")  # what the next machine gets: records, and the last step's adapter
    assert Path("sft/final/adapter_model.safetensors") in carried and Path("sft/chain-step.json") in carried
    assert not any(path.name == "training_args.bin" or "checkpoint-" in str(path) for path in carried)
    for path in carried:
        (runs / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(piece / path, runs / path)
    first = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "skip sft:" in first.stdout and f"--init_adapter {runs}/sft/final" in first.stdout
    assert (runs / "grpo" / "final" / "adapter_config.json").is_file() and (tmp_path / "eval" / "eval.json").is_file()
    # the chain's training time, step by step from each step's summary, printed before the eval and written down
    timed = json.loads((runs / "chain-time.json").read_text())
    assert [step["run"] for step in timed["steps"]] == ["sft", "grpo"] and timed["devices"] == ["cpu"]
    assert list(timed["steps"][0]["parts"]) == ["supervised"] and list(timed["steps"][1]["parts"]) == ["GRPO"]
    for step in timed["steps"]:  # a step's process outlasts the training its summary records (loading, saving)
        assert step["process_seconds"] > step["seconds"] > 0
    assert timed["total_seconds"] == sum(step["process_seconds"] for step in timed["steps"])
    assert timed["summary_only"] == timed["not_recorded"] == []
    assert first.stdout.index("time by step") < first.stdout.index("eval of")
    assert f"wrote {runs}/chain-time.json" in first.stdout
    again = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and again.stdout.count("skip ") == 2 and "eval of" in again.stdout
    assert json.loads((runs / "chain-time.json").read_text()) == timed  # skipped steps: their records as they stand

    chain.write_text("steps: [{run: bad, entry_point: grpo, recipe: stage-1, overrides: {max_steps: -5}}]\n")
    failed = run_cli(
        "-m", "training.cli.curriculum", "--chain", str(chain), "--runs_dir", str(runs), "--model", "tiny-random-llama"
    )
    assert failed.returncode != 0 and "error: step bad exited with" in failed.stderr


def test_a_step_stopped_by_a_signal_is_named_so_when_the_chain_skips_it(tmp_path):
    """A GRPO step stopped by SIGTERM or Ctrl-C writes its final adapter (what it trained so far): the chain run again
    skips it like a finished one, and says it was stopped and how to train it on."""
    chain = read_chain(CHAINS_DIR / "curriculum.yaml")
    for run, stopped_at in (("stage-1", None), ("stage-2", 2)):
        (tmp_path / run / "final").mkdir(parents=True)
        (tmp_path / run / "final" / "adapter_config.json").write_text("{}")
        (tmp_path / run / "results").mkdir()
        summary = {"max_steps": 84, "signal_stopped_at": stopped_at, "wall_seconds": 1.0}
        (tmp_path / run / "results" / "summary.json").write_text(json.dumps(summary))
    notes = [note for _, _, note in step_commands(chain, tmp_path, ["python"], None, [])[:2]]
    assert notes[0] == f"skip stage-1: {tmp_path}/stage-1/final exists (delete it to train this step again)"
    assert notes[1] == (
        f"skip stage-2: {tmp_path}/stage-2/final exists, stopped by a signal at step 2 of 84: what it trained so far "
        "(delete it to train this step on)"
    )


FAKE_STEP = """
import pathlib, signal, sys, time
out = pathlib.Path(sys.argv[sys.argv.index("--output_dir") + 1])
out.mkdir(parents=True, exist_ok=True)
stopped = []
signal.signal(signal.SIGTERM, lambda signum, frame: stopped.append(signum))
(out / "started").write_text("")
deadline = time.time() + 60
while not stopped and time.time() < deadline:  # a step that ends its own step on SIGTERM, as the entry points do
    time.sleep(0.05)
(out / "stopped").write_text(str(bool(stopped)))
"""


def test_a_stop_signal_ends_the_chain_after_the_step_under_way_and_its_time_is_kept(tmp_path):
    """SIGTERM to the chain's runner alone (a `timeout`, a scheduler): the runner passes it to the step, waits while
    the step ends (here a stand-in launched by --launcher), keeps the step's time, starts no further step and exits
    128 + 15 with a line that says how to go on."""
    fake = tmp_path / "fake_step.py"
    fake.write_text(FAKE_STEP)
    chain = tmp_path / "chain.yaml"
    chain.write_text(
        "steps:\n"
        "  - {run: one, entry_point: grpo, recipe: stage-1}\n"
        "  - {run: two, entry_point: grpo, recipe: stage-2}\n"
    )
    runs = tmp_path / "runs"
    command = [sys.executable, "-m", "training.cli.curriculum", "--chain", str(chain), "--runs_dir", str(runs)]
    proc = subprocess.Popen(
        [*command, "--launcher", f"{sys.executable} {fake}"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 60
    while not (runs / "one" / "started").exists() and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert (runs / "one" / "stopped").read_text() == "True"  # the step got the signal and ended on its own
    assert not (runs / "two").exists()  # the chain went no further
    assert json.loads((runs / "one" / "chain-step.json").read_text())["process_seconds"] > 0
    assert "stopped during one (SIGTERM); the chain goes no further" in stderr and "Traceback" not in stderr
