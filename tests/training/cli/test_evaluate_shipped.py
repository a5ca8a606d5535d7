"""`make eval` without ADAPTER: the adapter shipped with the project where no runs/stage-N/final exists and the
model is its base model, said on the screen; ADAPTER=base: the base model alone."""

from __future__ import annotations

import json
from argparse import Namespace
from pathlib import Path

import pytest

from model_cards.shipped_adapter import SHIPPED_ADAPTER, load_shipped
from tests.conftest import make_dry_run
from training.cli.evaluate import choose_adapter, out_folder


def args(adapter=None, model="smollm2-135m-instruct", **more) -> Namespace:
    return Namespace(adapter=adapter, model=model, out=None, data=None, **more)


def test_no_adapter_and_no_runs_scores_the_shipped_adapter(tmp_path):
    chosen = args()
    note = choose_adapter(chosen, tmp_path / "runs")
    assert chosen.adapter == str(SHIPPED_ADAPTER)
    assert note.startswith(f"no ADAPTER given and no stage's final adapter in {tmp_path / 'runs'}/: scoring the ")
    stage = load_shipped().stage
    assert f"adapter shipped with the project, adapters/shipped/ (curriculum stage {stage})" in note
    assert "ADAPTER=base scores the base model alone" in note
    assert out_folder(chosen) == Path("runs/eval/shipped")


def test_runs_come_first_and_base_means_the_base_model_alone(tmp_path):
    (tmp_path / "runs" / "stage-2" / "final").mkdir(parents=True)
    (tmp_path / "runs" / "stage-2" / "final" / "adapter_config.json").write_text("{}")
    chosen = args()
    note = choose_adapter(chosen, tmp_path / "runs")
    assert chosen.adapter is None and note.startswith("no ADAPTER given: the base model alone")
    assert f"ADAPTER={tmp_path / 'runs'}/stage-2/final scores it" in note
    for runs in (tmp_path / "runs", tmp_path / "none"):
        chosen = args(adapter="base")
        assert choose_adapter(chosen, runs) is None and chosen.adapter is None
    chosen = args(adapter="runs/x/final")
    assert choose_adapter(chosen, tmp_path / "none") is None and chosen.adapter == "runs/x/final"


def test_another_model_gets_no_shipped_adapter(tmp_path):
    """The shipped adapter is of SmolLM2-135M-Instruct: with MODEL=tiny-random-llama, no ADAPTER is the base model."""
    chosen = args(model="tiny-random-llama")
    assert choose_adapter(chosen, tmp_path / "runs") is None and chosen.adapter is None


def test_make_eval_passes_adapter_base_through():
    assert make_dry_run("eval", "ADAPTER=base", unset=("STAGES", "ADAPTER")).split() == [
        ".venv/bin/python",
        "-m",
        "training.cli.evaluate",
        "--adapter",
        "base",
    ]


@pytest.mark.slow
def test_eval_of_the_real_model_without_an_adapter_scores_the_shipped_one(tmp_path, monkeypatch, capsys):
    """In a folder without runs/: the note on the screen and in eval.md, the adapter in eval.json, and completions
    that interleave (the base model alone writes none: 0.000 in the README's table)."""
    from training.cli.evaluate import main

    monkeypatch.chdir(tmp_path)
    code = main(["--stages", "1", "--n", "2", "--splits", "test", "--arithmetic", "false", "--out", "eval"])
    out = capsys.readouterr().out
    assert code == 0
    assert "scoring the adapter shipped with the project, adapters/shipped/" in out
    assert "scoring the adapter shipped" in (tmp_path / "eval" / "eval.md").read_text()
    results = json.loads((tmp_path / "eval" / "eval.json").read_text())
    assert results["adapter"] == str(SHIPPED_ADAPTER)
    assert [(r["label"], r["task"], r["split"]) for r in results["rows"]] == [("trained", "stage-1", "test")]
    problems = [json.loads(line) for line in (tmp_path / "eval" / "problems.jsonl").read_text().splitlines()]
    right = [p["reference_words"] if p["first_difference"] is None else p["first_difference"] for p in problems]
    assert max(right) >= 10  # target words written right before the first difference
    # and then it stops: it ends with <|im_start|>, which ended no completion before end_token_ids took every special
    # token (0 of 64 ended, NW 0.09: results/grpo/cpu-end-token)
    assert all(p["ended"] and not p["hit_token_limit"] for p in problems), problems
    assert results["rows"][0]["nw_score"] >= 0.8
