"""make eval: stage parsing, what the Makefile passes on, base vs adapter in and out of register, DATA=..., bad input
and issue 20's early failures.

The runs that score a model call ``main`` in the test's process (imports, the corpus and the train-target budget are
paid once), with an adapter that ends every completion at once (short runs, and visibly the adapter's). The make
target's plumbing is checked with ``make -n``; two runs go through make in a fresh process and stop before scoring (bad
DATA, a missing adapter), and a Hub dataset id is read in a fresh process, where HF_ENDPOINT takes effect."""

import json
import os
import subprocess

import pytest

from dataset_builders.interleave_curriculum import curriculum_dataset
from model_cards.eval_results import EvalResults
from tests.conftest import REPO_ROOT, make_dry_run
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


def _ending_adapter(tiny_model_dir, folder):
    """An adapter after which the tiny model ends every completion at once, where the base model runs to the budget:
    its embedding LoRA adds one large direction to every token and, once more, to the end token (whose tied embedding
    is zero), so the end token wins each first step. The trained run is then short and visibly the adapter's."""
    import torch
    from peft import LoraConfig, get_peft_model

    from base_models.models import load_model

    model, tokenizer = load_model(str(tiny_model_dir), device="cpu")
    end = tokenizer.eos_token_id  # the tiny model's eos, whose tied embedding is zero
    direction = model.get_input_embeddings().weight[3].detach()  # any token's: a direction of the embedding space
    adapted = get_peft_model(
        model, LoraConfig(r=2, target_modules=["embed_tokens", "q_proj", "v_proj"], task_type="CAUSAL_LM")
    )
    embedding = adapted.base_model.model.model.embed_tokens
    lora_a, lora_b = embedding.lora_embedding_A["default"], embedding.lora_embedding_B["default"]
    with torch.no_grad():
        lora_a.zero_()
        lora_a[0].fill_(1.0)  # rank 0: every token
        lora_a[1, end] = 1.0  # rank 1: the end token only
        lora_b.copy_((50 * direction / direction.norm() / embedding.scaling["default"])[:, None].expand(-1, 2))
    adapted.save_pretrained(folder)
    return folder


def _make_eval(*variables: str, env: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "eval", "MODEL=tiny-random-llama", *variables],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def _evaluate(*args: str) -> int:
    """``python -m training.cli.evaluate --model tiny-random-llama ARGS``, in this process."""
    from training.cli.evaluate import main

    return main(["--model", "tiny-random-llama", *args])


def _make_eval_command(*variables: str) -> str:
    """The command ``make eval VARIABLES`` runs (``make -n``), with STAGES neither in the environment nor given."""
    planned = make_dry_run("eval", *variables, unset=("STAGES",))
    return " ".join(line for line in planned.splitlines() if "training.cli.evaluate" in line)


def test_make_eval_passes_stages_only_when_given():
    """STAGES=1-6 was always passed, so the CPU defaults could not choose fewer stages (minutes, not hours)."""
    command = _make_eval_command()
    assert "-m training.cli.evaluate" in command and "--stages" not in command and "--model" not in command
    assert '--stages "2"' in _make_eval_command("STAGES=2")
    command = _make_eval_command(
        "MODEL=tiny-random-llama", "ADAPTER=runs/x/final", "DATA=my texts", "EVAL_ARGS=--n 2 --seed 3"
    )
    assert command.split() == [
        ".venv/bin/python",
        "-m",
        "training.cli.evaluate",
        "--model",
        "tiny-random-llama",
        "--adapter",
        "runs/x/final",
        "--data",
        '"my',
        'texts"',
        "--n",
        "2",
        "--seed",
        "3",
    ]


def _records(out) -> list[dict]:
    return [json.loads(line) for line in (out / "problems.jsonl").read_text().splitlines()]


def test_eval_scores_base_and_adapter_in_and_out_of_register(tiny_model_dir, tmp_path):
    adapter = _ending_adapter(tiny_model_dir, tmp_path / "runs" / "stage-1" / "final")
    out = tmp_path / "eval"
    assert (
        _evaluate(
            "--adapter",
            str(adapter),
            "--stages",
            "1",
            "--n",
            "4",
            "--batch_size",
            "4",
            "--samples",
            "1",
            "--baseline",
            "true",
            "--out",
            str(out),
        )
        == 0
    )
    results = EvalResults.load(out / "eval.json")
    sets = {("stage-1", "test"), ("stage-1", "out_of_register"), ("arithmetic", "test")}  # no held-out arithmetic
    assert {(r.label, r.task, r.split) for r in results.rows} == {
        (label, *s) for label in ("baseline", "trained") for s in sets
    }
    assert all(r.n == 4 for r in results.rows) and results.data is None
    assert results.adapter == str(adapter) and results.device == "cpu"
    table = (out / "eval.md").read_text()
    assert (
        table.index("## test split")
        < table.index("## out_of_register split")
        < table.index("## In register vs out of register")
        < table.index("## Slips")
    )
    assert table.count("| stage-1 | 10 | 4 |") == 2 and "| trained | out_of_register | stage-1 | 4 |" in table
    assert (out / "eval.png").stat().st_size > 10_000 and (out / "slips.png").stat().st_size > 10_000
    samples = (out / "samples.md").read_text()  # one problem per task, split and label, with its reference
    assert samples.count("## stage-1, ") == 4 and samples.count("## arithmetic, ") == 2
    test_problem = curriculum_dataset("test", stage=1, size=1)[0]
    held_out_problem = curriculum_dataset("out_of_register", stage=1, size=1)[0]
    assert test_problem["target"] in samples and held_out_problem["target"] in samples
    assert "Text A:" in samples and ", NW " in samples and ", partial credit " in samples
    records = _records(out)
    assert len(records) == 2 * 3 * 4 and {r["index"] for r in records} == {0, 1, 2, 3}
    for row in results.rows:  # the per-problem records average to the table's numbers
        mine = [r for r in records if (r["label"], r["task"], r["split"]) == (row.label, row.task, row.split)]
        assert sum(r["exact"] for r in mine) / 4 == row.exact_match
        assert sum(r["score"] for r in mine) / 4 == pytest.approx(row.score, abs=1e-5)
    held_out = [r for r in records if r["split"] == "out_of_register"]
    assert {r["register_a"] for r in held_out} == {r["register_b"] for r in held_out} == {"technical"}
    assert "technical" not in {r.get("register_a") for r in records if r["split"] == "test"}
    stage = [r for r in records if r["task"] == "stage-1"]
    assert all(
        r["first_slip_stream"] in ("A", "B", None) and "repeated_phrase" in r and r["completion_tokens"] > 0
        for r in stage
    )
    assert all(r["hit_token_limit"] == (not r["ended"]) for r in records)
    trained = [r for r in records if r["label"] == "trained"]  # the adapter was applied, the base model left as is
    assert all(r["ended"] and r["completion_tokens"] == 1 for r in trained)
    assert not any(r["ended"] for r in records if r["label"] == "baseline")
    assert all("completion" not in r for r in records)  # texts only with --completions
    diagnostics = json.loads((out / "diagnostics.json").read_text())
    groups = {(g["label"], g["split"], g["task"]): g for g in diagnostics["groups"]}
    assert set(groups) == {(r.label, r.split, r.task) for r in results.rows}
    for label, limit_runs in (("baseline", 4), ("trained", 0)):
        slipped = groups[(label, "out_of_register", "stage-1")]
        assert (
            slipped["token_limit"]["runs"]
            == limit_runs
            == sum(r["hit_token_limit"] for r in held_out if r["label"] == label)
        )
        assert sum(b["words"] for b in slipped["slip_rate_by_position"]) == 4 * 20  # 4 problems x 20 target words
    assert groups[("trained", "test", "stage-1")]["first_slip"]["stream"]["A"] == 4  # an empty completion: A1 slips
    derailed = groups[("trained", "test", "stage-1")]["derailed"]  # every target word slipped: all 4 derailed
    assert (derailed["problems"], derailed["score_lost"]) == (4, derailed["score_lost_by_derailed"])
    assert "first_slip" not in groups[("trained", "test", "arithmetic")]  # no streams to slip


def test_the_train_split_is_scored_as_a_grpo_run_draws_it_and_gives_continuation_cuts(tiny_model_dir, tmp_path):
    """--splits train: the first N train problems, the ones a GRPO run starts on, so that its problems.jsonl places
    continuation cuts (--continuation_cuts) at the adapter's own slips."""
    from dataset_builders import tasks
    from dataset_builders.interleave_curriculum.continuation import slip_cuts

    adapter = _ending_adapter(tiny_model_dir, tmp_path / "runs" / "stage-1" / "final")
    out = tmp_path / "eval"
    argv = ["--adapter", str(adapter), "--stages", "1", "--n", "3", "--splits", "train", "--arithmetic", "false"]
    assert _evaluate(*argv, "--baseline", "false", "--out", str(out)) == 0
    records = _records(out)
    drawn = [row["id"] for row in tasks.get("stage-1").train_stream(0).take(3)]
    assert [r["id"] for r in records] == drawn and {r["split"] for r in records} == {"train"}
    assert all(r["first_slip"] == 0 for r in records)  # the adapter ends at once: A1 slips
    assert slip_cuts(out, "stage-1") == dict.fromkeys(drawn, 0)  # 4 words before word 0: the start


def test_eval_data_scores_a_folder_of_texts_with_cpu_defaults(tiny_model_dir, tmp_path, monkeypatch, capsys):
    """DATA=folder: problems from the user's files; on CPU the defaults (8 problems, the adapter only) are said."""
    import torch

    from tests.dataset_builders.test_user_texts import SENTENCES

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # the CPU defaults, on any machine
    adapter = _ending_adapter(tiny_model_dir, tmp_path / "runs" / "stage-1" / "final")
    folder = tmp_path / "my texts"
    for name, text in SENTENCES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    out = tmp_path / "eval"
    assert (
        _evaluate(
            "--adapter", str(adapter), "--stages", "1", "--data", str(folder), "--batch_size", "16", "--out", str(out)
        )
        == 0
    )
    assert "CPU defaults: 8 problems per task and split, the adapter only" in capsys.readouterr().out
    results = EvalResults.load(out / "eval.json")
    assert [(r.task, r.split, r.n, r.label) for r in results.rows] == [("stage-1", "data", 8, "trained")]
    assert results.data == {"source": str(folder), "kind": "folder", "texts": 3, "seed": 0}
    table = (out / "eval.md").read_text()
    assert f"Data: `{folder}` (folder, 3 texts" in table and "- CPU defaults: 8 problems" in table
    records = _records(out)
    assert len(records) == 8 and {r["source_a"].split("@")[0] for r in records} <= set(SENTENCES)
    assert all(r["source_a"].split("@")[0] != r["source_b"].split("@")[0] for r in records)
    assert all(r["ended"] and r["completion_tokens"] == 1 for r in records)  # the adapter's completions
    assert (out / "slips.png").is_file() and (out / "eval.png").is_file()


def test_make_eval_data_with_bad_input_says_what_is_wrong(tmp_path):
    (tmp_path / "pairs.jsonl").write_text('{"text_a": "only a few words", "text_b": "and a few more"}\n')
    proc = _make_eval("STAGES=1", f"DATA={tmp_path / 'pairs.jsonl'}", f"EVAL_ARGS=--out {tmp_path / 'eval'}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"error: DATA: {tmp_path / 'pairs.jsonl'} line 1: text_a has 4 words, stage 1 needs 10" in proc.stderr


READ_HUB_TEXTS = """
import json, sys
from dataset_builders.interleave_curriculum.user_texts import read_user_texts
texts = read_user_texts(sys.argv[1], "body")
print(json.dumps({"data": texts.describe(0), "problems": texts.problems(10, 2)}))
"""


def test_data_reads_a_hub_dataset_by_id(tmp_path):
    """DATA=owner/name through a Hub endpoint (the local hub served by olah, as the publishing tests do), in a fresh
    process, where HF_ENDPOINT takes effect. What the CLI does with the texts is the folder test's; that --data and
    --data_column reach this reader, the next test's."""
    import datasets

    from publishing.local_hub import LocalHub
    from publishing.olah_server import LocalHubServer
    from tests.conftest import run_cli
    from tests.dataset_builders.test_user_texts import SENTENCES

    repo = tmp_path / "repo"
    datasets.Dataset.from_dict({"body": list(SENTENCES.values())}).to_parquet(str(repo / "data" / "test.parquet"))
    (repo / "README.md").write_text("---\nlicense: mit\n---\n")  # olah answers 401 for an absent card, not 404
    LocalHub(tmp_path / "hub").publish_folder(repo, "alice/my-texts", "dataset")
    with LocalHubServer(tmp_path / "hub") as server:
        proc = run_cli(
            "-c",
            READ_HUB_TEXTS,
            "alice/my-texts",
            env={"HF_ENDPOINT": server.endpoint, "HF_HUB_OFFLINE": "0", "HF_HOME": str(tmp_path / "hf")},
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    read = json.loads(proc.stdout.strip().splitlines()[-1])
    assert read["data"] == {
        "source": "alice/my-texts",
        "kind": "dataset",
        "split": "test",
        "column": "body",
        "texts": 3,
        "seed": 0,
    }
    assert len(read["problems"]) == 2 and {p["register_a"] for p in read["problems"]} == {"data"}
    assert {p["source_a"].split("@")[0] for p in read["problems"]} <= {"row 0", "row 1", "row 2"}


def test_eval_passes_the_data_column_and_split_to_the_reader(tmp_path, capsys):
    """--data_column and --data_split reach the dataset reader: a column or split the dataset lacks is named, before a
    model is loaded."""
    import datasets

    from tests.dataset_builders.test_user_texts import SENTENCES

    folder = tmp_path / "my-dataset"
    datasets.Dataset.from_dict({"body": list(SENTENCES.values())}).to_parquet(str(folder / "data" / "test.parquet"))
    out = tmp_path / "eval"
    assert _evaluate("--stages", "1", "--data", str(folder), "--data_column", "title", "--out", str(out)) == 2
    assert "error: DATA: dataset" in (err := capsys.readouterr().err) and "no column 'title'; its columns: body" in err
    assert _evaluate("--stages", "1", "--data", str(folder), "--data_split", "train", "--out", str(out)) == 2
    assert "no split 'train'; its splits: test" in capsys.readouterr().err and not out.exists()


def test_make_eval_without_an_adapter_folder_says_what_to_do(tmp_path):
    proc = subprocess.run(
        ["make", "--no-print-directory", "eval", f"ADAPTER={tmp_path}/missing"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and "make train-stage" in proc.stderr and "Traceback" not in proc.stderr


def _other_base_model(tiny_model_dir, folder):
    """A model of another shape (hidden size 32, not 64) with the same tokenizer: an adapter of the tiny model does not
    fit it."""
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=16,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
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

    assert (
        main(
            [
                "--model",
                str(tmp_path),
                "--stages",
                "1",
                "--arithmetic",
                "false",
                "--n",
                "1",
                "--out",
                str(tmp_path / "eval"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not a model folder" in err


def test_an_adapter_of_another_base_model_fails_before_the_baseline_is_scored(tiny_model_dir, tmp_path, capsys):
    """The baseline was scored first (minutes on a GPU), then loading the adapter failed with a size mismatch."""
    from training.cli.evaluate import main

    adapter = _adapter(tiny_model_dir, tmp_path / "runs" / "stage-1" / "final")
    other = _other_base_model(tiny_model_dir, tmp_path / "other-model")
    code = main(
        [
            "--model",
            str(other),
            "--adapter",
            str(adapter),
            "--baseline",
            "true",
            "--stages",
            "1",
            "--arithmetic",
            "false",
            "--n",
            "1",
            "--out",
            str(tmp_path / "eval"),
        ]
    )
    captured = capsys.readouterr()
    assert code == 2 and "does not fit the model" in captured.err and "tiny-random-llama" in captured.err
    assert "baseline stage-1" not in captured.out + captured.err and not (tmp_path / "eval").exists()


def test_cpu_defaults_are_small_and_said(tmp_path):
    """On CPU the defaults were the GPU's (6 stages x 256 problems, base model and adapter: hours)."""
    from argparse import Namespace

    from training.cli.evaluate import CPU_PROBLEMS, CPU_STAGES, GPU_PROBLEMS, GPU_STAGES, device_defaults

    args = Namespace(stages=None, n=None, baseline=None, adapter="runs/stage-1/final")
    notes = device_defaults(args, cuda=False)
    assert (args.stages, args.n, args.baseline) == (CPU_STAGES, CPU_PROBLEMS, "false")
    assert CPU_PROBLEMS <= 16 and max(parse_stages(CPU_STAGES)) <= 3
    assert notes == [
        f"CPU defaults: stages {CPU_STAGES}, {CPU_PROBLEMS} problems per task and split, the adapter "
        f"only, so that the run takes minutes, not hours. The full evaluation, the GPU defaults, is "
        f"STAGES={GPU_STAGES} `--n {GPU_PROBLEMS} --baseline true` (hours on CPU); give any of them to "
        "choose"
    ]
    args = Namespace(stages=None, n=None, baseline=None, adapter="runs/stage-1/final")
    assert device_defaults(args, cuda=True) == [] and (args.stages, args.n, args.baseline) == ("1-6", 256, "true")
    args = Namespace(stages="2", n=3, baseline="true", adapter="runs/stage-1/final")  # what the user gives stays
    assert device_defaults(args, cuda=False) == [] and (args.stages, args.n, args.baseline) == ("2", 3, "true")


def test_an_arithmetic_variant_is_scored_by_name(tiny_model_dir, tmp_path, capsys):
    """--arithmetic arithmetic-2x2: the positive control's easier variant (issue 17, item 4), in the same tables."""
    out = tmp_path / "eval"
    assert _evaluate("--stages", "", "--arithmetic", "arithmetic-2x2", "--n", "2", "--out", str(out)) == 0
    rows = json.loads((out / "eval.json").read_text())["rows"]
    assert {row["task"] for row in rows} == {"arithmetic-2x2"}
    for bad in ("arith", "arithmetic-0x2", "stage-1"):
        with pytest.raises(SystemExit) as stop:
            _evaluate("--stages", "", "--arithmetic", bad)
        assert stop.value.code == 2 and "true, false or arithmetic-AxB" in capsys.readouterr().err
