"""make bench-train: the GRPO summary, the merge of partial runs, the table, and the CPU message."""

import json
import subprocess

import pytest

from benchmarks.bench_train import merge_results, parse_grpo_runs, render_table, summarize_grpo
from tests.conftest import REPO_ROOT, run_cli


def _records(step_times, rewards, generation, peak):
    return [
        {"global_step": i + 1, "step_time": t, "reward": r, "time/generation": g, "gpu_peak_memory_gib": m}
        for i, (t, r, g, m) in enumerate(zip(step_times, rewards, generation, peak))
    ]


def test_summary_leaves_the_first_step_out_of_the_step_time():
    summary = summarize_grpo(_records([30.0, 2.0, 4.0], [0.1, 0.2, 0.6], [20.0, 1.0, 3.0], [1.0, 3.0, 2.0]))
    assert summary["first_step_seconds"] == 30.0
    assert summary["step_seconds"] == pytest.approx(3.0)
    assert summary["generation_seconds"] == pytest.approx(2.0)
    assert summary["peak_memory_gib"] == 3.0
    assert summary["reward_last"] == 0.6 and summary["reward_mean"] == pytest.approx(0.3)
    with pytest.raises(ValueError, match="at least 2"):
        summarize_grpo(_records([1.0], [0.0], [0.5], [1.0]))


def test_grpo_run_specs():
    assert parse_grpo_runs(["1:8", "arithmetic:15"]) == [("stage-1", 8), ("arithmetic", 15)]
    for bad in ("7:3", "1", "1:x", "1:1"):
        with pytest.raises(ValueError, match="STAGE:STEPS"):
            parse_grpo_runs([bad])


def _bench(config_seconds):
    generation = [
        {"stage": 1, "batch": 128, "method": "dynamic", "max_new_tokens": 48, "tokens_per_second": 1000.0},
        {"stage": 1, "batch": 128, "method": "graph", "max_new_tokens": 48, "tokens_per_second": 12500.0},
    ]
    grpo = [
        {
            "recipe": "stage-1",
            "config": config,
            "steps": 4,
            "step_seconds": seconds,
            "first_step_seconds": seconds,
            "generation_seconds": seconds / 2,
            "peak_memory_gib": 2.0,
            "reward_last": 0.5,
            "reward_mean": 0.25,
        }
        for config, seconds in config_seconds.items()
    ]
    return {"device": "NVIDIA H100 80GB HBM3", "model": "m", "generation": generation, "grpo": grpo}


def test_table_puts_each_project_figure_beside_trl_defaults():
    table = render_table(_bench({"trl-defaults": 10.0, "project": 2.0}))
    assert "NVIDIA H100 80GB HBM3" in table
    assert "| 1 | 128 | 48 | 1,000 | 12,500 (graph) | 12.5x |" in table
    assert "| stage-1 | 4 | step time, s (after step 1) | 10.00 | 2.00 | 5.0x |" in table
    assert "| stage-1 | 4 | peak GPU memory, GiB | 2.0 | 2.0 | 1.0x |" in table


def test_merge_replaces_entries_of_the_same_run():
    old = _bench({"trl-defaults": 10.0, "project": 2.0})
    new = {"device": "other", "generation": [], "grpo": [dict(old["grpo"][1], step_seconds=1.0)]}
    merged = merge_results(old, new)
    assert merged["device"] == "other" and len(merged["generation"]) == 2
    assert {(e["config"], e["step_seconds"]) for e in merged["grpo"]} == {("trl-defaults", 10.0), ("project", 1.0)}


def test_make_bench_train_without_a_gpu_says_so():
    proc = subprocess.run(
        ["make", "--no-print-directory", "bench-train"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2
    assert "needs a CUDA GPU" in proc.stderr and "Traceback" not in proc.stderr
    json.dumps(proc.stdout)  # printable


def test_generation_benchmark_says_it_needs_a_gpu():
    proc = run_cli("-m", "benchmarks.bench_generation")
    assert proc.returncode == 2 and "needs a CUDA GPU" in proc.stderr
