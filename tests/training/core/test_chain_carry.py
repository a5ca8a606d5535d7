"""training.core.chain_carry: what a piece of a chain run on one machine hands to the next. The end-to-end check (two
pieces of a chain on the tiny model, the second going on from what this picks) is in tests/training/cli/
test_curriculum.py."""

from pathlib import Path

import pytest

from training.core.chain_carry import carried_files, main


def _touch(root: Path, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("{}")


def test_a_piece_carries_every_steps_records_and_its_last_steps_adapter_alone(tmp_path, capsys):
    _touch(
        tmp_path,
        "stage-1/final/adapter_config.json",
        "stage-1/final/adapter_model.safetensors",  # an earlier step's weights stay behind
        "stage-1/chain-step.json",
        "stage-1/results/summary.json",
        "stage-1/results/metrics.jsonl",
        "stage-1/checkpoint-300/adapter_config.json",
        "stage-2/supervised-help/final/adapter_config.json",
        "stage-2/supervised-help/results/summary.json",
        "stage-2/final/adapter_config.json",
        "stage-2/final/adapter_model.safetensors",
        "stage-2/chain-step.json",
        "stage-2/results/summary.json",
        "curriculum-time.json",
    )
    assert [str(p) for p in carried_files(tmp_path, "stage-2")] == [
        "curriculum-time.json",
        "stage-1/chain-step.json",
        "stage-1/final/adapter_config.json",
        "stage-1/results/summary.json",
        "stage-2/chain-step.json",
        "stage-2/final/adapter_config.json",
        "stage-2/final/adapter_model.safetensors",
        "stage-2/results/summary.json",
        "stage-2/supervised-help/final/adapter_config.json",
        "stage-2/supervised-help/results/summary.json",
    ]
    assert main([str(tmp_path), "stage-2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "curriculum-time.json"


def test_a_piece_that_did_not_finish_its_last_step_says_so(tmp_path, capsys):
    _touch(tmp_path, "stage-1/final/adapter_config.json")
    with pytest.raises(FileNotFoundError, match="stage-1/final/ has no adapter_model.safetensors"):
        carried_files(tmp_path, "stage-1")
    assert main([str(tmp_path), "stage-2"]) == 2
    assert "the piece did not finish stage-2" in capsys.readouterr().err
