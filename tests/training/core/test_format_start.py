"""run_format_start: the supervised recipe a stage names trains a fresh adapter once; a rerun reuses it; mistakes
stop with a message."""

import pytest

from training.core.arguments import RECIPES_DIR, RecipeError
from training.core.format_start import format_start_recipe, run_format_start


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


def test_a_format_start_names_a_recipe(tmp_path):
    assert format_start_recipe("sft-format-start") == RECIPES_DIR / "sft-format-start.yaml"
    with pytest.raises(RecipeError, match="format_start 'no-such-recipe': no recipe"):
        format_start_recipe("no-such-recipe")
    with pytest.raises(RecipeError, match="no recipe"):
        format_start_recipe(str(tmp_path / "missing.yaml"))
