"""training.core.chain_time: a chain's time, step by step, from the runner's record of each step's process and the
summaries train.py and warm_start.py write, as make curriculum prints it."""

import json

from training.core.chain_time import STEP_FILE, add_process_time, chain_time, render, step_seconds


def _write(output_dir, summary):
    (output_dir / "results").mkdir(parents=True)
    (output_dir / "results" / "summary.json").write_text(json.dumps(summary))


def test_each_kind_of_step_counts_what_ran_and_a_help_only_stage_counts_its_help_once():
    grpo_with_start = {"wall_seconds": 443.6, "grpo": {}, "format_start": {"wall_seconds": 48.7}, "max_steps": 900}
    assert step_seconds(grpo_with_start) == {"format start": 48.7, "GRPO": 443.6}
    helped = {"wall_seconds": 165.9, "grpo": {}, "supervised_help": {"wall_seconds": 423.1}, "max_steps": 300}
    assert step_seconds(helped) == {"supervised help": 423.1, "GRPO": 165.9}
    help_only = {"wall_seconds": 1229.0, "supervised_help": {"wall_seconds": 1229.0, "parts": []}, "max_steps": 0}
    assert step_seconds(help_only) == {"supervised help": 1229.0}  # help_only_summary copies the help's time
    assert step_seconds({"wall_seconds": 300.0, "sft": {}}) == {"supervised": 300.0}  # a warm start
    assert step_seconds({"run": "x"}) is None  # an older summary without its time


def test_the_total_takes_each_steps_process_time_and_says_which_count_by_their_summary_only(tmp_path):
    _write(tmp_path / "stage-1", {"wall_seconds": 420.0, "grpo": {}, "format_start": {"wall_seconds": 60.0},
                                  "device": "NVIDIA H100 80GB HBM3"})  # fmt: skip
    add_process_time(tmp_path / "stage-1", 400.0)  # stopped, then run again: both attempts count
    add_process_time(tmp_path / "stage-1", 140.0)
    assert json.loads((tmp_path / "stage-1" / STEP_FILE).read_text()) == {"process_seconds": 540.0}
    _write(
        tmp_path / "stage-2",
        {"wall_seconds": 600.0, "max_steps": 0, "device": "NVIDIA H200", "supervised_help": {"wall_seconds": 600.0}},
    )  # fmt: skip (carried, no step file)
    (tmp_path / "stage-3" / "final").mkdir(parents=True)  # carried without its results/ or step file
    record = chain_time([(f"stage-{n}", tmp_path / f"stage-{n}") for n in (1, 2, 3)])
    assert [r["process_seconds"] for r in record["steps"]] == [540.0, None]
    assert [r["seconds"] for r in record["steps"]] == [480.0, 600.0]
    assert record["total_seconds"] == 540.0 + 600.0
    assert record["summary_only"] == ["stage-2"] and record["not_recorded"] == ["stage-3"]
    assert record["devices"] == ["NVIDIA H100 80GB HBM3", "NVIDIA H200"]
    lines = render(record)
    assert lines[1].split()[:7] == ["stage-1", "9.0", "min", "(training", "format", "start", "1.0,"]
    assert "its summary only" in lines[2] and "stage-3" in lines[3] and "not counted" in lines[3]
    assert lines[-1].split()[:3] == ["total", "19.0", "min"]
    assert lines[-1].endswith("1 step(s) by their summary only, 1 step(s) not counted")
