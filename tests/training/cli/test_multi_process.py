"""Data-parallel training: two processes (torchrun, gloo on CPU) share a step; the accelerate configs parse."""

import json
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.conftest import REPO_ROOT, run_cli
from tests.training.tiny_run import STAGE_1, TINY_GRPO


@pytest.mark.long  # two training processes (torchrun) on the CPU
def test_two_processes_train_one_run_together(tiny_model_dir, tmp_path):
    torchrun = shutil.which("torchrun", path=str(REPO_ROOT / ".venv" / "bin")) or shutil.which("torchrun")
    proc = run_cli(
        torchrun or sys.executable,
        *([] if torchrun else ["-m", "torch.distributed.run"]),
        "--nproc_per_node",
        "2",
        "-m",
        "training.cli.train",
        *STAGE_1,
        *TINY_GRPO,
        "--max_steps",
        "2",
        "--dynamic_sampling_rounds",  # stage 1 has none since GPU batch 19; asked for, it is turned off with a warning
        "1",
        "--output_dir",
        str(tmp_path / "run"),
        "--results_dir",
        str(tmp_path / "res"),
        env={"OMP_NUM_THREADS": "1"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert [r["data/position"] for r in records] == [4, 8]  # 2 prompts per process per step, both processes
    assert (tmp_path / "run" / "final" / "adapter_model.safetensors").exists()
    assert proc.stdout.count("from a fresh LoRA adapter") == 1  # run reports come from the first process only
    assert "dynamic sampling runs on one process only" in proc.stderr
    assert "fast generation is off" not in proc.stderr  # each process samples its share with the fast sampler


def test_accelerate_configs_and_the_gpus_option():
    for name, kind in (("multi_gpu", "MULTI_GPU"), ("fsdp2", "FSDP")):
        config = yaml.safe_load((REPO_ROOT / "training" / "accelerate" / f"{name}.yaml").read_text())
        assert config["distributed_type"] == kind and config["mixed_precision"] == "bf16"
    dry = subprocess.run(["make", "-n", "train-stage", "N=2", "GPUS=2"], cwd=REPO_ROOT, capture_output=True, text=True)
    launch = (
        "accelerate launch --config_file training/accelerate/multi_gpu.yaml --num_processes 2 -m training.cli.train"
    )
    assert launch in dry.stdout
    single = subprocess.run(["make", "-n", "train-stage", "N=2"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert "accelerate" not in single.stdout
