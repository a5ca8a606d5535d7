"""scripts/analysis/chain_minutes.py: the chain's minutes by the recipes of now, from committed run records. Each
record must be a run of its stage's recipe as it stands, so that a recipe changed without its row fails here."""

import json
from pathlib import Path

import pytest

from scripts.analysis import chain_minutes
from training.core.arguments import RECIPES_DIR, read_recipe
from training.core.chains import CHAINS_DIR, read_chain
from training.core.format_start import help_parts

# the schedule each row's help run trained at, for runs older than summary.json's record of it: their sweeps' commands
# (batch 40's s6a: sft-stage-6-help-long-texts as committed; idc: --lr_scheduler_type cosine, grpo_sweep_40.sh)
SCHEDULES_BEFORE_RECORDED = {
    "batch-34/h3-steps": "cosine",
    "batch-34/h4-steps": "cosine",
    "batch-38/l5-5e4": "constant_with_warmup",
    "batch-40/s6a": "constant_with_warmup",
    "batch-40/idc": "cosine",
}


def _helps(value) -> list[str]:
    return [name for name, _ in help_parts(str(value))] if value not in (None, "", "none") else []


def test_each_stage_of_the_chain_has_a_run_of_its_recipe_as_it_stands():
    assert [stage for stage, *_ in chain_minutes.STAGES] == [
        s.run for s in read_chain(CHAINS_DIR / "curriculum.yaml").steps
    ]
    for stage, runs, _ in chain_minutes.STAGES:
        recipe = read_recipe(RECIPES_DIR / f"{stage}.yaml")
        folders, helps = chain_minutes.folders_of(runs), _helps(recipe.get("supervised_help"))
        record = chain_minutes.summary(folders[0])
        folder = folders[0]
        if "grpo" in record or record.get("max_steps") == 0:  # a stage's own run: its GRPO steps, help and start
            assert len(folders) == 1, folders
            assert record["max_steps"] == recipe.get("max_steps"), folder
            helped = record.get("supervised_help") or {}
            parts = helped.get("parts") or ([helped] if helped else [])
            assert [Path(p["recipe"]).stem for p in parts] == helps, folder
            for part in parts:  # a help bounded by its steps ran them all
                bound = read_recipe(Path(RECIPES_DIR / f"{Path(part['recipe']).stem}.yaml")).get("max_steps")
                assert "7m" in part["recipe"] or part["steps"] == bound, (folder, part["recipe"])
            start = (record.get("format_start") or {}).get("recipe")
            assert (Path(start).stem if start else None) == recipe.get("format_start"), folder
        else:  # the stage's help parts each run alone, in order (max_steps: 0 stages): steps, rate and schedule theirs
            assert recipe["max_steps"] == 0 and len(helps) == len(folders), folders
            for folder, help_name in zip(folders, helps):
                record, help_recipe = chain_minutes.summary(folder), read_recipe(RECIPES_DIR / f"{help_name}.yaml")
                assert record["global_step"] == record["max_steps"] == help_recipe["max_steps"], folder
                assert record["sft"]["learning_rate"] == float(help_recipe["learning_rate"]), folder
                assert record["identifier_fraction"] == float(help_recipe.get("identifier_fraction") or 0), folder
                if "lr_scheduler_type" in record["sft"]:  # recorded since session 36 (batch 41's runs on)
                    assert record["sft"]["lr_scheduler_type"] == help_recipe["lr_scheduler_type"], folder
                else:  # the runs before it: the schedule their sweep gave (read from its command here)
                    assert SCHEDULES_BEFORE_RECORDED[folder] == help_recipe["lr_scheduler_type"], folder


def test_the_table_totals_its_stages(tmp_path):
    out = tmp_path / "minutes.md"
    assert chain_minutes.main(["--out", str(out)]) == 0
    rows = chain_minutes.rows()
    total = sum(r["minutes"] for r in rows)
    assert f"**{total:.1f}**" in out.read_text() and 40 < total < 90
    scale, means = chain_minutes.ratio()
    assert 1.0 < scale < 1.3 and set(means) == {"NVIDIA H100", "NVIDIA H200"}


def test_the_runners_clock_is_read_against_the_same_steps_summaries():
    pieces = chain_minutes.runner_overhead()
    assert [piece for piece, *_ in pieces] == ["stages 1-2", "stages 3-5", "stage 6"]
    for _, clock, counted in pieces:  # the clock counts what the summaries leave out: it is the larger
        assert clock > counted > 0


def test_a_pieces_clock_with_steps_it_did_not_time_is_refused(tmp_path, monkeypatch):
    """A piece's curriculum-time.json whose total leaves steps out (counted by their summary only, or not at all) is
    not the runner's clock: reading it as one would understate the overhead."""
    monkeypatch.setattr(chain_minutes, "GRPO", tmp_path)
    ledger = {"steps": [], "total_seconds": 600.0, "devices": [], "summary_only": [], "not_recorded": []}
    (tmp_path / "whole.json").write_text(json.dumps(ledger))
    (tmp_path / "short.json").write_text(json.dumps({**ledger, "summary_only": ["stage-1"]}))
    assert chain_minutes.clock_minutes("whole.json") == 10.0 and chain_minutes.clock_minutes(12.5) == 12.5
    with pytest.raises(SystemExit, match="steps without process time"):
        chain_minutes.clock_minutes("short.json")


def test_a_pieces_clock_reads_the_steps_it_names_from_a_ledger_that_carries_earlier_ones(tmp_path, monkeypatch):
    """A piece continued from another carries the earlier steps in its curriculum-time.json: the piece's own clock is
    its own steps' process time, and a step the ledger did not time is an error, not a zero."""
    monkeypatch.setattr(chain_minutes, "GRPO", tmp_path)
    steps = [{"run": f"stage-{n}", "process_seconds": 60.0 * n} for n in (1, 2, 3)]
    ledger = {"steps": steps, "total_seconds": 360.0, "devices": [], "summary_only": [], "not_recorded": []}
    (tmp_path / "piece.json").write_text(json.dumps(ledger))
    assert chain_minutes.clock_minutes("piece.json") == 6.0
    assert chain_minutes.clock_minutes(("piece.json", ("stage-2", "stage-3"))) == 5.0
    with pytest.raises(SystemExit, match="no process time for stage-4"):
        chain_minutes.clock_minutes(("piece.json", ("stage-3", "stage-4")))
    # a carried step timed by its summary only spoils the whole ledger's total, not the piece's own steps
    steps[0]["process_seconds"] = None
    (tmp_path / "carried.json").write_text(json.dumps({**ledger, "steps": steps, "summary_only": ["stage-1"]}))
    assert chain_minutes.clock_minutes(("carried.json", ("stage-2", "stage-3"))) == 5.0
    with pytest.raises(SystemExit, match="steps without process time"):
        chain_minutes.clock_minutes("carried.json")
    with pytest.raises(SystemExit, match="no process time for stage-1"):
        chain_minutes.clock_minutes(("carried.json", ("stage-1", "stage-2")))
