"""run_format_start: the supervised recipe a stage names trains a fresh adapter once; a rerun reuses it; mistakes
stop with a message."""

import pytest

from training.core.arguments import RECIPES_DIR, RecipeError
from training.core.format_start import format_start_recipe, names_recipe, run_format_start


def test_the_format_start_trains_once_then_is_reused(tiny_model_dir, tmp_path, capsys, monkeypatch):
    recipe = tmp_path / "tiny-format-start.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\n"
        "max_steps: 2\nper_device_train_batch_size: 4\nlogging_steps: 1\n"
    )
    run = tmp_path / "run"
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(RecipeError, match="runs in one process: train it first with `make warm-start"):
        run_format_start(str(recipe), "tiny-random-llama", run, "none")
    monkeypatch.delenv("WORLD_SIZE")

    adapter, record = run_format_start(str(recipe), "tiny-random-llama", run, "none")
    assert adapter == run / "format-start" / "final" and (adapter / "adapter_model.safetensors").is_file()
    assert record["steps"] == 2 and record["recipe"] == str(recipe) and record["wall_seconds"] > 0
    assert "format start done in" in capsys.readouterr().out

    monkeypatch.setenv("WORLD_SIZE", "2")  # reusing needs no training, so no single process either
    again, record_again = run_format_start(str(recipe), "tiny-random-llama", run, "none")
    assert (again, record_again) == (adapter, record)
    assert f"format start: reusing {adapter}/" in capsys.readouterr().out


def test_none_turns_a_recipes_format_start_or_help_off():
    """`--format_start none` (like `--supervised_help none`) leaves a fresh adapter to GRPO; a name is a recipe."""
    assert [names_recipe(v) for v in (None, "", "none")] == [False, False, False]
    assert names_recipe("sft-format-start") and names_recipe("my/recipe.yaml")


def test_a_format_start_names_a_recipe(tmp_path):
    assert format_start_recipe("sft-format-start") == RECIPES_DIR / "sft-format-start.yaml"
    with pytest.raises(RecipeError, match="format_start 'no-such-recipe': no recipe"):
        format_start_recipe("no-such-recipe")
    with pytest.raises(RecipeError, match="no recipe"):
        format_start_recipe(str(tmp_path / "missing.yaml"))


def test_a_stage_supervised_help_continues_its_start_and_is_bounded(tiny_model_dir, tmp_path, capsys):
    from training.core.format_start import run_supervised_help

    recipe = tmp_path / "tiny-help.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: 2\nper_device_train_batch_size: 4\n"
        "logging_steps: 1\n"
    )
    start, _ = run_format_start(str(recipe), "tiny-random-llama", tmp_path / "stage-1", "none")
    run = tmp_path / "stage-2"
    adapter, record = run_supervised_help(str(recipe), "tiny-random-llama", run, "none", start)
    assert adapter == run / "supervised-help" / "final" and (adapter / "adapter_model.safetensors").is_file()
    assert record["from"] == str(start) and record["steps"] == 2 and record["wall_seconds"] > 0
    assert f"supervised help: continuing {start}/" in capsys.readouterr().out

    again, record_again = run_supervised_help(str(recipe), "tiny-random-llama", run, "none", start)
    assert (again, record_again) == (adapter, record)
    with pytest.raises(RecipeError, match="trained from .* but this run starts from a fresh adapter"):
        run_supervised_help(str(recipe), "tiny-random-llama", run, "none", None)

    unbounded = tmp_path / "unbounded.yaml"
    unbounded.write_text(f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_train_minutes: null\n")
    with pytest.raises(RecipeError, match="sets no max_train_minutes"):
        run_supervised_help(str(unbounded), "tiny-random-llama", tmp_path / "other", "none", start)
    with pytest.raises(RecipeError, match="supervised_help 'no-such-recipe': no recipe"):
        run_supervised_help("no-such-recipe", "tiny-random-llama", tmp_path / "other", "none", start)
