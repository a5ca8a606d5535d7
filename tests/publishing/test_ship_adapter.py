"""`make ship-adapter` (python -m publishing.ship_adapter): a run's final adapter becomes a shipped folder, in
bfloat16, with its summary, plots, merged eval, provenance and card; bad input stops with a message and leaves the
folder as it was."""

from __future__ import annotations

import json
import subprocess

import pytest

from model_cards.eval_results import EvalResults, EvalRow
from model_cards.shipped_adapter import load_shipped
from publishing.ship_adapter import main
from tests.conftest import REPO_ROOT, make_dry_run
from tests.publishing.stage_run import make_stage_run, write_eval

ADAPTER = "/gpu/runs/stage-1/final"


@pytest.fixture(scope="module")
def run_root(tmp_path_factory, tiny_model_dir):
    root = tmp_path_factory.mktemp("ship")
    make_stage_run(root, tiny_model_dir, stage=1)
    write_eval(root / "eval" / "test" / "eval.json", ADAPTER, "2026-11-22T10:00:00")
    EvalResults(
        model="tiny-random-llama",
        adapter=ADAPTER,
        generated_at="2026-11-22T11:00:00",
        device="NVIDIA H100",
        rows=[EvalRow("stage-1", 10, "out_of_register", 128, 0.75, 0.5, "trained")],
    ).save(root / "eval" / "oor" / "eval.json")
    return root


def head() -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True).stdout.strip()


def ship_args(run_root, out, *, adapter=None, out_of_register=True) -> list[str]:
    """The flags of a ship from the tiny run's folders (or from an adapter folder instead of its run)."""
    args = ["--adapter", str(adapter)] if adapter else ["--run", str(run_root / "runs" / "stage-1")]
    args += ["--results", str(run_root / "results" / "stage-1")]
    args += ["--eval_file", str(run_root / "eval" / "test" / "eval.json")]
    if out_of_register:
        args += ["--eval-file", str(run_root / "eval" / "oor" / "eval.json")]  # the hyphenated spelling too
    args += ["--commit", "HEAD", "--command", "make train-stage N=1", "--base_model", "local/tiny-random-llama"]
    return [*args, "--out", str(out)]


def ship(run_root, out, *extra: str) -> int:
    return main([*ship_args(run_root, out), *extra])


def tensors(path):
    from safetensors.torch import load_file

    return load_file(str(path))


def test_a_run_becomes_a_shipped_folder(run_root, tmp_path, capsys):
    import torch

    out = tmp_path / "shipped"
    assert ship(run_root, out, "--note", "Only a test.") == 0
    assert f"shipped adapter: {out}/" in capsys.readouterr().out
    shipped = load_shipped(out)
    provenance = shipped.provenance
    assert (shipped.stage, shipped.task, shipped.base_model) == (1, "stage-1", "local/tiny-random-llama")
    assert provenance["git_commit"] == head() and provenance["recipe"] == "training/recipes/stage-1.yaml"
    assert provenance["commands"] == ["make train-stage N=1"]
    assert provenance["conversion"]["from"] == "float32" and provenance["conversion"]["to"] == "bfloat16"
    assert provenance["training_minutes"] == round(754.2 / 60, 1)  # make_stage_run's wall_seconds

    original = tensors(run_root / "runs" / "stage-1" / "final" / "adapter_model.safetensors")
    converted = tensors(out / "adapter_model.safetensors")
    assert original.keys() == converted.keys() and {t.dtype for t in original.values()} == {torch.float32}
    assert all(
        converted[k].dtype == torch.bfloat16 and torch.equal(converted[k], v.bfloat16()) for k, v in original.items()
    )
    config = json.loads((out / "adapter_config.json").read_text())
    assert config["base_model_name_or_path"] == "local/tiny-random-llama"
    assert not (out / "training_args.bin").exists() and not (out / "tokenizer_config.json").exists()

    scores = shipped.eval_results()
    assert scores.generated_at == "2026-11-22T11:00:00"  # the newer of the two
    assert {(r.label, r.task, r.split) for r in scores.rows} == {
        ("trained", "stage-1", "test"),
        ("baseline", "stage-1", "test"),
        ("trained", "arithmetic", "test"),
        ("trained", "stage-1", "out_of_register"),
    }
    assert shipped.summary() == json.loads((run_root / "results" / "stage-1" / "summary.json").read_text())
    assert shipped.plots() and "plots/reward.png" in shipped.plots()
    card = (out / "README.md").read_text()
    assert "HUB_USER/interleave-grpo-" in card and "model-index" in card and "Only a test." in card
    assert "| commands | `make train-stage N=1` |" in card and provenance["git_commit"] in card


def test_rebuilding_from_the_shipped_folder_keeps_its_weights(run_root, tmp_path):
    out = tmp_path / "shipped"
    assert ship(run_root, out) == 0
    weights = (out / "adapter_model.safetensors").read_bytes()
    rebuilt = ship_args(run_root, out, adapter=out, out_of_register=False)
    assert main(rebuilt) == 2  # bfloat16 already: from what?
    assert main([*rebuilt, "--converted_from", "float32"]) == 0
    assert (out / "adapter_model.safetensors").read_bytes() == weights
    assert load_shipped(out).provenance["conversion"]["from"] == "float32"
    assert not list(tmp_path.glob(".shipped.*"))  # no leftovers of the swap


def test_the_card_alone_is_rendered_again(run_root, tmp_path):
    out = tmp_path / "shipped"
    assert ship(run_root, out) == 0
    card = (out / "README.md").read_text()
    (out / "README.md").write_text("stale")
    assert main(["--card_only", "--out", str(out)]) == 0
    assert (out / "README.md").read_text() == card


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"--commit": "0000000"}, "is not a commit of this repository"),
        ({"--commit": None}, "say which commit the run was trained at: COMMIT=<sha>"),
        ({"--command": None}, 'say how the run was made: COMMAND="..."'),
        ({"--recipe": "training/recipes/no-such.yaml"}, "the recipe training/recipes/no-such.yaml is not in commit"),
        ({"--converted_from": "float16"}, "--converted_from float16, but"),
        ({"--run": "/no/such/run"}, "no adapter at /no/such/run/final"),
    ],
)
def test_bad_input_stops_with_a_message_and_leaves_the_folder(run_root, tmp_path, capsys, change, message):
    out = tmp_path / "shipped"
    assert ship(run_root, out) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    args = ship_args(run_root, out, out_of_register=False)
    for flag, value in change.items():
        if flag in args:
            at = args.index(flag)
            del args[at : at + 2]
        if value is not None:
            args += [flag, value]
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_eval_files_must_be_of_one_adapter_with_no_row_twice(run_root, tmp_path, capsys):
    other = tmp_path / "other" / "eval.json"
    write_eval(other, "/elsewhere/stage-1/final", "2026-11-22T12:00:00")
    assert ship(run_root, tmp_path / "a", "--eval_file", str(other)) == 2
    assert "differ in adapter" in capsys.readouterr().err
    again = tmp_path / "again" / "eval.json"
    write_eval(again, ADAPTER, "2026-11-22T12:00:00")
    assert ship(run_root, tmp_path / "b", "--eval_file", str(again)) == 2
    assert "trained stage-1 test is in more than one eval file" in capsys.readouterr().err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_folder_of_other_files_is_not_replaced(run_root, tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert ship(run_root, out) == 2
    assert "holds notes.txt, which a shipped adapter folder does not" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_folder_over_the_size_limit_is_not_shipped(run_root, tmp_path, capsys, monkeypatch):
    import publishing.ship_adapter

    out = tmp_path / "shipped"
    assert ship(run_root, out) == 0
    before = (out / "adapter_model.safetensors").read_bytes()
    monkeypatch.setattr(publishing.ship_adapter, "SIZE_LIMIT_BYTES", 1000)
    assert ship(run_root, out, "--note", "too big") == 2
    err = capsys.readouterr().err
    assert "error: the shipped folder would hold" in err and "MB, over the" in err
    assert (out / "adapter_model.safetensors").read_bytes() == before and "too big" not in (
        out / "README.md"
    ).read_text()
    assert not list(tmp_path.glob(".shipped.*"))


def test_make_ship_adapter_passes_run_commit_and_command():
    variables = ["RUN=runs/stage-6", "COMMIT=abc1234", "COMMAND=make curriculum", "SHIP_ARGS=--note 'Final stage.'"]
    command = " ".join(
        make_dry_run("ship-adapter", *variables, unset=("RUN", "COMMIT", "COMMAND", "SHIP_ARGS")).split()
    )
    assert command == (
        ".venv/bin/python -m publishing.ship_adapter --run runs/stage-6 --commit abc1234 "
        "--command \"make curriculum\" --note 'Final stage.'"
    )
