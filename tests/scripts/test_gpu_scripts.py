"""The GPU scripts are sent to a lent machine whose minutes are scarce: each parses as bash, and the training
commands of the newest sweep (the one that runs next), each of its parts run dry through scripts/gpu/setup.sh's
helpers, parse with the project's own argument parsers, so that a mistyped flag or a renamed recipe fails here and
not in a device call."""

import os
import re
import shlex
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

GPU_SCRIPTS = sorted((REPO_ROOT / "scripts" / "gpu").glob("*.sh"))
SWEEPS = sorted((REPO_ROOT / "scripts" / "gpu").glob("grpo_sweep_*.sh"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
ENTRY_POINTS = ("training.cli.train", "training.cli.warm_start")
CHAIN_RUNNER = "training.cli.curriculum"  # make curriculum: runs ENTRY_POINTS, one process a step
# flags of the other tools the scripts call: tar, nvidia-smi, pip (--no-index reads as --no)
TOOL_FLAGS = {"--exclude", "--query-gpu", "--format", "--no", "--quiet", "--target", "--upgrade"}


@pytest.mark.parametrize("script", GPU_SCRIPTS, ids=lambda p: p.name)
def test_each_gpu_script_parses_as_bash(script):
    proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def sweep_parts(script_text: str) -> list[str]:
    """The PART values a sweep's ``case`` accepts (``a | b)`` gives both), but ``bg`` and ``wait``."""
    body = script_text[script_text.index("case ${PART:?") :]
    labels = re.findall(r"^  ([\w|. -]+)\)", body, flags=re.MULTILINE)
    return [part.strip() for label in labels for part in label.split("|") if part.strip() not in ("bg", "wait")]


def dry_run(script, part: str, tmp_path, **extra_env: str) -> list[str]:
    """The python3 commands ``PART=part bash script`` would run (setup.sh's DRY_RUN), one string each; ``extra_env``
    set for the run too."""
    log, lab, out = tmp_path / f"{part}.log", tmp_path / "lab", tmp_path / "out"
    (lab / "results").mkdir(parents=True, exist_ok=True)
    out.mkdir(exist_ok=True)
    for name in sweep_parts(script.read_text()):  # a part that waits for another's log finds it
        (lab / "results" / f"bg-{name}.log").touch()
    env = {**os.environ, "DRY_RUN": str(log), "LAB": str(lab), "OUT": str(out), "PART": part, "NAMES": "x", **extra_env}
    proc = subprocess.run(["bash", str(script)], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert "set-up incomplete" not in proc.stdout, proc.stdout
    return log.read_text().splitlines() if log.exists() else []


def scored_stages_of(commands: list[str]) -> list[str]:
    """The ``--stages`` of each evaluation among a dry run's commands, sorted (background scores log in any order)."""
    return sorted(c.split("--stages ")[1].split()[0] for c in commands if "training.cli.evaluate" in c)


def test_a_chain_piece_scores_the_stages_piece_stages_names(tmp_path):
    """setup.sh's chain_piece scores its last step at stages 1-N by default, at PIECE_STAGES when given, and not at
    all with PIECE_STAGES=none (stage 6's piece: its lane has no room, the chain's own eval follows); each stage it
    trained before its last is scored at its own stage (3 and 4 here: the piece continues from stage 2)."""
    sweep = (
        REPO_ROOT / "scripts" / "gpu" / "grpo_sweep_43.sh"
    )  # its chain-b part is `chain_piece chain-b stage-5 stage-2`

    def scored_stages(**env):
        commands = dry_run(sweep, "chain-b", tmp_path / ("-".join(env.values()) or "default"), **env)
        assert "training.cli.curriculum" in commands[0] and "--until stage-5" in commands[0]
        return scored_stages_of(commands)

    assert scored_stages() == ["1-5", "3", "4"]
    assert scored_stages(PIECE_STAGES="5") == ["3", "4", "5"]
    assert scored_stages(PIECE_STAGES="none") == []


def test_a_first_chain_piece_scores_stage_1_at_its_own_stage_too(tmp_path):
    """A piece from nothing (no NEEDS: batch 42's `chain_piece chain-a stage-2`) trains stage 1 before its last."""
    sweep = REPO_ROOT / "scripts" / "gpu" / "grpo_sweep_42.sh"
    commands = dry_run(sweep, "chain-a", tmp_path)
    assert "--until stage-2" in commands[0]
    assert scored_stages_of(commands) == ["1", "1-2"]


def chain_step_commands(chain_argv: list[str]) -> list[list[str]]:
    """The training commands ``python -m training.cli.curriculum CHAIN_ARGV`` would run (its ``--dry_run``)."""
    proc = subprocess.run(
        [sys.executable, "-m", CHAIN_RUNNER, *chain_argv, "--dry_run"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [shlex.split(line) for line in proc.stdout.splitlines() if line.startswith("  ")]


def clock_bound_over_its_steps(argv: list[str]) -> bool:
    """Whether a warm start runs a recipe bounded by its steps with setup.sh's help_alone guard (``--max_steps 5000``,
    the clock then ends it) and no steps of the part's own: the recipe's max_steps, and a cosine schedule over them,
    silently replaced (batch 42's c1000 part was written so, and its dry run showed it)."""
    from training.core.arguments import read_recipe

    steps = [argv[i + 1] for i, flag in enumerate(argv) if flag == "--max_steps"]
    if "--config" not in argv or steps != ["5000"]:
        return False
    return int(read_recipe(REPO_ROOT / argv[argv.index("--config") + 1]).get("max_steps", 5000)) != 5000


def test_a_recipe_bounded_by_its_steps_keeps_them_under_help_alone():
    recipe = "training/recipes/sft-stage-6-help-identifiers.yaml"  # 613 steps
    base = ["python3", "-m", "training.cli.warm_start", "--config", recipe, "--max_train_minutes", "10"]
    assert clock_bound_over_its_steps([*base, "--max_steps", "5000"])
    assert not clock_bound_over_its_steps([*base, "--max_steps", "5000", "--max_steps", "613"])
    clocked = ["python3", "-m", "training.cli.warm_start", "--config", "training/recipes/sft-stage-6-help-8m.yaml"]
    assert not clock_bound_over_its_steps([*clocked, "--max_steps", "5000"])  # its own bound is the clock


def test_the_newest_sweeps_training_commands_parse(tmp_path, monkeypatch):
    """Each part of the newest sweep, run dry (setup.sh's DRY_RUN: its python3 commands written down, not run): the
    training commands it would run, with the arguments bash gives them there, parse."""
    from training.cli.warm_start import parse_warm_start_arguments
    from training.core.arguments import parse_run_arguments

    monkeypatch.chdir(REPO_ROOT)  # recipes are named from the repository root, as the scripts run
    newest = SWEEPS[-1]
    parts = sweep_parts(newest.read_text())
    assert len(parts) > 3 and all(re.fullmatch(r"[\w.-]+", part) for part in parts), parts  # the case was read
    parsed = []
    for part in parts:
        for line in dry_run(newest, part, tmp_path):
            argv = shlex.split(line)
            if argv[:3] == ["python3", "-m", CHAIN_RUNNER]:  # make curriculum: the step commands it would run
                argv_steps = chain_step_commands(argv[3:])
                assert argv_steps, (part, line)
            else:
                argv_steps = [argv]
            for step in argv_steps:
                module = step[step.index("-m") + 1] if "-m" in step else None
                if module in ENTRY_POINTS:
                    parse = parse_run_arguments if module == "training.cli.train" else parse_warm_start_arguments
                    parse(step[step.index("-m") + 2 :])  # a RecipeError or argparse's SystemExit names the bad flag
                    parsed.append((part, module))
                    assert not clock_bound_over_its_steps(step), (part, step)
    trained = {part for part, _ in parsed}
    evals_only = {p for p in parts if p.endswith(("-score", "-report"))}  # parts that score adapters, train none
    assert trained >= set(parts) - evals_only, (parts, trained)


def test_a_mistyped_flag_is_caught(tmp_path, monkeypatch):
    """A flag mistyped in a part, given through one of setup.sh's helpers, reaches the dry run's command and fails
    to parse there."""
    from training.core.arguments import RecipeError, parse_run_arguments

    monkeypatch.chdir(REPO_ROOT)
    script = tmp_path / "grpo_sweep_0.sh"
    script.write_text("source scripts/gpu/setup.sh\ncase ${PART:?} in\n  t13) stage1 t13 --temprature 1.3 ;;\nesac\n")
    (line,) = [line for line in dry_run(script, "t13", tmp_path) if "-m training.cli.train " in line]
    argv = shlex.split(line)[3:]
    assert argv[argv.index("--temprature") + 1] == "1.3"
    with pytest.raises(RecipeError, match="temprature"):
        parse_run_arguments(argv)


def test_every_flag_of_the_newest_sweep_is_one_its_commands_know():
    """Every --flag written in the script, or in setup.sh's shared functions, must be known to one of the entry points
    they call: the evaluation's, the benchmark's and the analysis scripts' too, which the dry run above does not
    parse."""
    from dataclasses import fields

    from trl import GRPOConfig, ModelConfig, SFTConfig

    from training.cli.warm_start import WarmStartArguments
    from training.core.arguments import RunArguments

    known = (
        {
            f"--{f.name}"
            for cls in (RunArguments, GRPOConfig, ModelConfig, WarmStartArguments, SFTConfig)
            for f in fields(cls)
        }
        | {"--config", "--model"}  # --model: the recipes' shorthand for a preset or a model
        | TOOL_FLAGS
    )
    text = SWEEPS[-1].read_text() + (REPO_ROOT / "scripts" / "gpu" / "setup.sh").read_text()  # its shared parts too
    for module in ("training.cli.evaluate", "benchmarks.bench_generation", CHAIN_RUNNER):
        if module in text:
            proc = subprocess.run(
                [sys.executable, "-m", module, "--help"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
            )
            known |= set(re.findall(r"--[a-z][a-z0-9_]*", proc.stdout))
    for script in sorted(set(re.findall(r"python3 (scripts/[\w/]+\.py)", text))):  # analysis scripts it runs
        proc = subprocess.run(
            [sys.executable, script, "--help"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0, (script, proc.stderr[-2000:])
        known |= set(re.findall(r"--[a-z][a-z0-9_]*", proc.stdout))
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())  # comments may name flags in prose
    unknown = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9_]*", code)) - known)
    assert not unknown, f"{SWEEPS[-1].name} uses flags no entry point knows: {unknown}"


def test_background_parts_run_from_a_copy_of_the_tree(tmp_path):
    """A device call copies the working tree in again while parts started by an earlier call run; batch 34's i1-num
    started python as one did and found its module missing. Parts run from a copy made when they were started: a
    file the next call replaces is still the one the part started with."""
    tree, lab = tmp_path / "tree", tmp_path / "lab"
    (tree / "scripts" / "gpu").mkdir(parents=True)
    (tree / "scripts" / "gpu" / "setup.sh").write_text((REPO_ROOT / "scripts" / "gpu" / "setup.sh").read_text())
    (tree / "marker.txt").write_text("the tree the part started with\n")
    (tree / "part.sh").write_text("while [ ! -f $LAB/go ]; do sleep 0.1; done; cat marker.txt\n")
    call = (
        "source scripts/gpu/setup.sh; PARTS=p start_parts part.sh >/dev/null\n"
        "echo 'a later call tree' > marker.txt; touch $LAB/go\n"  # the next call's copy arrives, then the part reads
        'for _ in $(seq 100); do [ -z "$(ls $LAB/running)" ] && break; sleep 0.1; done; cat $LAB/results/bg-p.log\n'
    )
    env = {**os.environ, "DRY_RUN": str(tmp_path / "dry.log"), "LAB": str(lab)}
    proc = subprocess.run(["bash", "-c", call], cwd=tree, env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "the tree the part started with", proc.stdout + proc.stderr
    assert not (lab / "code").exists() or all(not (copy / ".lab").exists() for copy in (lab / "code").iterdir())


def _lanes(tmp_path, lanes: list[str], lane_gpus: str | None):
    """(return code, output) of setup.sh's start_lanes over LANES with start_parts replaced by a line of each lane's
    GPU and parts, and LANE_GPUS as given (None: unset)."""
    quoted = " ".join(shlex.quote(lane) for lane in lanes)
    call = (
        "source scripts/gpu/setup.sh >/dev/null; code_snapshot() { echo x; }\n"
        'start_parts() { echo "$CUDA_VISIBLE_DEVICES: $PARTS"; }\n'
        f"start_lanes sweep.sh {quoted}"
    )
    env = {**os.environ, "DRY_RUN": str(tmp_path / "dry.log"), "LAB": str(tmp_path / "lab")}
    env.pop("LANE_GPUS", None)
    if lane_gpus is not None:
        env["LANE_GPUS"] = lane_gpus
    proc = subprocess.run(["bash", "-c", call], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout.strip().splitlines()


def test_lanes_take_one_gpu_each_unless_lane_gpus_says_which(tmp_path):
    """start_lanes gives lane i GPU i; LANE_GPUS puts two light lanes on one GPU (sweep 46's step-bound stage-2
    arms) and refuses a list that does not name one GPU a lane."""
    lanes = ["chain-b2", "idw idw-score", "s2-an", "s2-an-s1", "s2-7m-s1"]
    assert _lanes(tmp_path, lanes[:4], None) == (0, ["0: chain-b2", "1: idw idw-score", "2: s2-an", "3: s2-an-s1"])
    code, lines = _lanes(tmp_path, lanes, "0 1 2 2 3")
    assert (code, lines) == (0, ["0: chain-b2", "1: idw idw-score", "2: s2-an", "2: s2-an-s1", "3: s2-7m-s1"])
    code, lines = _lanes(tmp_path, lanes, "0 1 2")
    assert code == 2 and lines == ["LANE_GPUS names 3 GPUs for 5 lanes"]


def _wait_call(tmp_path, queued: dict, results_bytes: int = 0):
    """wait_parts then results_back on a lab whose outbox holds QUEUED (name -> size, oldest first) and whose results
    hold RESULTS_BYTES of incompressible bytes; returns the names brought back and those still queued."""
    lab, out = tmp_path / "lab", tmp_path / "out"
    (lab / "outbox").mkdir(parents=True)
    (lab / "results").mkdir()
    out.mkdir()
    (lab / "results" / "answers.bin").write_bytes(os.urandom(results_bytes))
    for age, (name, size) in enumerate(queued.items()):
        path = lab / "outbox" / name
        with open(path, "wb") as f:
            f.truncate(size)
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
    env = {**os.environ, "DRY_RUN": str(tmp_path / "dry.log"), "LAB": str(lab), "OUT": str(out), "WAIT": "0"}
    call = "source scripts/gpu/setup.sh >/dev/null; wait_parts >/dev/null; results_back"
    proc = subprocess.run(["bash", "-c", call], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return sorted(p.name for p in out.iterdir()), sorted(p.name for p in (lab / "outbox").iterdir())


def test_a_wait_call_brings_back_at_most_eight_files(tmp_path):
    """A call brings back 8 files at most: wait_parts moves queued files (adapters' parts) and leaves results_back's
    results.tar.gz.part-* the rest."""
    back, queued = _wait_call(tmp_path, {f"adapter-{i}.tar.gz.part-aa": 1 for i in range(9)})
    assert len(back) == 8 and "results.tar.gz.part-aa" in back and len(queued) == 2


def test_a_wait_call_leaves_room_for_two_results_parts(tmp_path):
    """Results of more than 15 MiB come back in two parts, so one queued file fewer goes."""
    back, queued = _wait_call(tmp_path, {f"adapter-{i}.tar.gz.part-aa": 1 for i in range(9)}, 16 * 2**20)
    assert len(back) == 8 and {"results.tar.gz.part-aa", "results.tar.gz.part-ab"} <= set(back)


def test_a_wait_call_stays_under_64_mib_together(tmp_path):
    """Batch 37's lost adapter: 6 queued parts of ~15 MB (67 MB with the results) went into one call, over the 64 MiB
    a call brings back together, and the device dropped one whole. wait_parts moves them oldest first while the total
    with the results stays under 64 MiB, and keeps the rest for the next call in order."""
    part = 15 * 2**20
    queued = {f"adapter-{name}.tar.gz.part-aa": part for name in ("a", "b", "c", "d", "e")}
    back, left = _wait_call(tmp_path, queued, 3 * 2**20)
    assert back == [
        "adapter-a.tar.gz.part-aa",
        "adapter-b.tar.gz.part-aa",
        "adapter-c.tar.gz.part-aa",
        "results.tar.gz.part-aa",
    ]
    assert left == ["adapter-d.tar.gz.part-aa", "adapter-e.tar.gz.part-aa"]
    total = sum((tmp_path / "out" / name).stat().st_size for name in back)
    assert total <= 64 * 2**20
