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


def _other_base_model(tiny_model_dir, folder):
    """A model of another shape (hidden size 32, not 64) with the same tokenizer: an adapter of the tiny model does not
    fit it."""
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, head_dim=16, tie_word_embeddings=True,
                         eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    LlamaForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_n_zero_says_what_is_wrong(capsys):
    """It said `Bad split: test` (a traceback from the dataset builder, after loading the model)."""
    from training.cli.evaluate import main

    with pytest.raises(SystemExit) as failure:
        main(["--model", "tiny-random-llama", "--stages", "1", "--n", "0"])
    assert failure.value.code == 2 and "--n must be at least 1" in capsys.readouterr().err


def test_an_unavailable_model_gets_a_message_not_a_traceback(tmp_path, capsys):
    from training.cli.evaluate import main

    assert main(["--model", str(tmp_path), "--stages", "1", "--arithmetic", "false", "--n", "1",
                 "--out", str(tmp_path / "eval")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not a model folder" in err


def test_an_adapter_of_another_base_model_fails_before_the_baseline_is_scored(tiny_model_dir, tmp_path, capsys):
    """The baseline was scored first (minutes on a GPU), then loading the adapter failed with a size mismatch."""
    from training.cli.evaluate import main

    adapter = _adapter(tiny_model_dir, tmp_path / "runs" / "stage-1" / "final")
    other = _other_base_model(tiny_model_dir, tmp_path / "other-model")
    code = main(["--model", str(other), "--adapter", str(adapter), "--baseline", "true", "--stages", "1",
                 "--arithmetic", "false", "--n", "1", "--out", str(tmp_path / "eval")])
    captured = capsys.readouterr()
    assert code == 2 and "does not fit the model" in captured.err and "tiny-random-llama" in captured.err
    assert "baseline stage-1" not in captured.out + captured.err and not (tmp_path / "eval").exists()


def test_cpu_defaults_are_small_and_said(tmp_path):
    """On CPU the defaults were the GPU's (6 stages x 256 problems, base model and adapter: hours)."""
    from argparse import Namespace

    from training.cli.evaluate import CPU_PROBLEMS, GPU_PROBLEMS, device_defaults

    args = Namespace(n=None, baseline=None, adapter="runs/stage-1/final")
    notes = device_defaults(args, cuda=False)
    assert (args.n, args.baseline) == (CPU_PROBLEMS, "false") and CPU_PROBLEMS <= 16
    assert len(notes) == 2 and all(note.startswith("CPU defaults") for note in notes)
    assert "--baseline true" in notes[1] and f"--n {GPU_PROBLEMS}" in notes[0]
    args = Namespace(n=None, baseline=None, adapter="runs/stage-1/final")
    assert device_defaults(args, cuda=True) == [] and (args.n, args.baseline) == (GPU_PROBLEMS, "true")
    args = Namespace(n=3, baseline="true", adapter="runs/stage-1/final")  # what the user gives stays
    assert device_defaults(args, cuda=False) == [] and (args.n, args.baseline) == (3, "true")
