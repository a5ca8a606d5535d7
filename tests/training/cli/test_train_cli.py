"""The make targets as a user types them (outputs redirected to a temporary folder)."""

import json

import pytest

from tests.conftest import run_cli
from tests.in_process import make_command
from training.callbacks.completion_log import read_completion_log


def _quick(tmp_path, *extra: str) -> str:
    return (
        "TRAIN_ARGS=--max_steps 1 --per_device_train_batch_size 4 --num_generations 2 "
        f"--output_dir {tmp_path}/run --results_dir {tmp_path}/results " + " ".join(extra)
    )


def test_make_train_stage_trains_with_trackio_by_default(tiny_model_dir, tmp_path):
    proc = run_cli(
        "make",
        "-s",
        "train-stage",
        "N=3",
        "MODEL=tiny-random-llama",
        _quick(tmp_path, "--max_completion_length 8 --derive_max_completion_length false --supervised_help none"),
        "INIT_ADAPTER=base",
        env={"TRACKIO_DIR": str(tmp_path / "trackio")},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "run run: stage-3, 1 steps, from a fresh LoRA adapter" in proc.stdout
    assert (tmp_path / "run" / "final" / "adapter_config.json").is_file()
    assert list((tmp_path / "trackio").glob("*.db")), "trackio (the default report_to) logged nothing"
    record = next(read_completion_log(tmp_path / "run" / "completions.jsonl.gz"))
    assert record["id"].startswith("50w-train-")


@pytest.mark.parametrize("recipe, digits", [(None, "3x2"), ("arithmetic-2x2", "2x2")])
def test_make_train_arithmetic(tiny_model_dir, tmp_path, recipe, digits, in_process):
    """The 3x2 control by default; RECIPE=arithmetic-2x2 is item 4's 2x2 control (its recipe, its task). The default
    runs make itself; RECIPE=arithmetic-2x2 runs the command make would (``make -n``) in the test's process."""
    variables = ["MODEL=tiny-random-llama", _quick(tmp_path, "--report_to none")]
    if recipe:
        proc = in_process(*make_command("train-arithmetic", f"RECIPE={recipe}", *variables))
    else:
        proc = run_cli("make", "-s", "train-arithmetic", *variables)
    assert proc.returncode == 0, proc.stderr[-3000:]
    record = next(read_completion_log(tmp_path / "run" / "completions.jsonl.gz"))
    assert record["id"].startswith(f"{digits}-train-") and isinstance(record["reference"], int)
    assert set(record["rewards"]) == {
        "arithmetic_exact_reward",
        "arithmetic_partial_reward",
        "arithmetic_format_reward",
    }


def test_unknown_stage_lists_the_recipes(in_process):
    """make's command for N=9 (``make -n``), run in the test's process."""
    proc = in_process(*make_command("train-stage", "N=9"))
    assert proc.returncode != 0
    hint = "(the curriculum's stages are 1 to 6: make train-stage N=1 .. N=6); recipes: "
    assert f"no recipe training/recipes/stage-9.yaml {hint}" in proc.stderr
    assert all(f"training/recipes/{name}.yaml" in proc.stderr for name in ("arithmetic", "stage-1", "stage-6"))
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.long  # a minute of one core: the real model's step on CPU (make test-all)
def test_make_train_stage_1_with_the_embedded_default(tmp_path):
    """The README's first command with the real SmolLM2-135M-Instruct: its format start (2 steps here), then one short
    GRPO step on CPU (without dynamic sampling's extra rounds: a weak model's equal rewards would triple the
    generation)."""
    from training.core.arguments import RECIPES_DIR

    recipe = tmp_path / "short-format-start.yaml"
    recipe.write_text(f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: 2\nper_device_train_batch_size: 4\n")
    extra = f"--report_to none --dynamic_sampling_rounds 0 --format_start {recipe}"
    proc = run_cli("make", "-s", "train-stage", "N=1", _quick(tmp_path, extra), timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "format start done in" in proc.stdout
    assert "model smollm2-135m-instruct, completions up to" in proc.stdout
    summary = json.loads((tmp_path / "results" / "summary.json").read_text())
    assert summary["global_step"] == 1 and summary["grpo"]["max_completion_length"] > 30
    assert summary["format_start"]["steps"] == 2
    records = list(read_completion_log(tmp_path / "run" / "completions.jsonl.gz"))
    assert len([r for r in records if r["round"] == 0]) == 4
    assert all(0.0 <= r["rewards"]["interleave_strict_reward"] <= 1.0 for r in records)
