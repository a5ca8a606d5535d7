"""make eval: stage parsing, a base vs adapter run through make, and the message for a missing adapter."""

import json
import subprocess

import pytest

from dataset_builders.interleave_curriculum import curriculum_dataset
from model_cards.eval_results import EvalResults
from tests.conftest import REPO_ROOT
from training.cli.evaluate import parse_stages


def test_stage_specs():
    assert parse_stages("1-6") == [1, 2, 3, 4, 5, 6]
    assert parse_stages("1,3") == [1, 3] and parse_stages("2") == [2]
    for bad in ("0-2", "7", "a", "1-x"):
        with pytest.raises(ValueError, match="STAGES"):
            parse_stages(bad)


def _adapter(tiny_model_dir, folder):
    from peft import LoraConfig, get_peft_model

    from base_models.models import load_model

    model, _ = load_model(str(tiny_model_dir), device="cpu")
    get_peft_model(model, LoraConfig(r=4, target_modules="all-linear", task_type="CAUSAL_LM")).save_pretrained(folder)
    return folder


def test_make_eval_scores_base_and_adapter(tiny_model_dir, tmp_path):
    adapter = _adapter(tiny_model_dir, tmp_path / "runs" / "stage-1" / "final")
    out = tmp_path / "eval"
    proc = subprocess.run(["make", "--no-print-directory", "eval", "MODEL=tiny-random-llama", f"ADAPTER={adapter}",
                           "STAGES=1", f"EVAL_ARGS=--n 4 --batch_size 4 --samples 1 --out {out}"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = EvalResults.load(out / "eval.json")
    assert {(r.label, r.task) for r in results.rows} == {(label, task) for label in ("baseline", "trained")
                                                          for task in ("stage-1", "arithmetic")}
    assert all(r.n == 4 and r.split == "test" for r in results.rows)
    assert results.adapter == str(adapter) and results.device == "cpu"
    assert "| stage-1 | 10 | 4 |" in (out / "eval.md").read_text()
    assert (out / "eval.png").stat().st_size > 10_000
    samples = (out / "samples.md").read_text()  # one problem per task and label, with the reference it is scored on
    assert samples.count("## stage-1, ") == 2 and samples.count("## arithmetic, ") == 2
    test_problem = curriculum_dataset("test", stage=1, size=1)[0]
    assert test_problem["target"] in samples and "Text A:" in samples and ", NW " in samples
    assert ", partial credit " in samples  # each task names its own score
    records = [json.loads(line) for line in (out / "problems.jsonl").read_text().splitlines()]
    assert len(records) == 2 * 2 * 4 and {r["index"] for r in records} == {0, 1, 2, 3}
    by_row = {(r.label, r.task): r for r in results.rows}
    for (label, task), row in by_row.items():  # the per-problem records average to the table's numbers
        mine = [r for r in records if r["label"] == label and r["task"] == task]
        assert sum(r["exact"] for r in mine) / 4 == row.exact_match
        assert sum(r["score"] for r in mine) / 4 == pytest.approx(row.score, abs=1e-5)
    assert all("completion" not in r for r in records)  # texts only with --completions


def test_make_eval_without_an_adapter_folder_says_what_to_do(tmp_path):
    proc = subprocess.run(["make", "--no-print-directory", "eval", f"ADAPTER={tmp_path}/missing"], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "make train-stage" in proc.stderr and "Traceback" not in proc.stderr
