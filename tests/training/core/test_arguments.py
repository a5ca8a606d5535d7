import pytest

from training.core.arguments import RECIPES_DIR, RecipeError, merged_config, parse_run_arguments

STAGE_3 = str(RECIPES_DIR / "stage-3.yaml")


def test_recipe_preset_and_flags_in_order_of_precedence():
    run, grpo, model = parse_run_arguments(["--config", STAGE_3, "--learning_rate", "3e-5", "--lora_r", "8"])
    assert run.task == "stage-3" and grpo.output_dir == "runs/stage-3"
    assert grpo.num_generations == 8 and grpo.logging_steps == 1  # from the recipe
    assert model.model_name_or_path == "smollm2-135m-instruct" and model.lora_alpha == 64  # from the preset
    assert grpo.learning_rate == 3e-5 and model.lora_r == 8  # flags win


def test_every_recipe_parses():
    from training.cli.warm_start import parse_warm_start_arguments

    recipes = sorted(RECIPES_DIR.glob("*.yaml"))
    assert [p.stem for p in recipes] == ["arithmetic-after-warm-start", "arithmetic",
                                         *[f"stage-{n}" for n in range(1, 7)], "warm-start-500", "warm-start-500b",
                                         "warm-start-500c", "warm-start-500d", "warm-start-500e",
                                         "warm-start-arithmetic", "warm-start-long", "warm-start"]
    for path in recipes:
        parse = parse_warm_start_arguments if path.stem.startswith("warm-start") else parse_run_arguments
        _, train_args, model = parse(["--config", str(path)])
        assert train_args.output_dir == f"runs/{path.stem}" and model.use_peft


def test_model_shorthand_picks_a_preset_or_a_model():
    _, argv = merged_config(["--config", STAGE_3, "--model", "llama-3.2-3b-instruct"])
    assert argv == ["--model_preset", "llama-3.2-3b-instruct"]
    _, grpo, model = parse_run_arguments(["--config", STAGE_3, "--model", "llama-3.2-3b-instruct"])
    assert model.model_name_or_path == "meta-llama/Llama-3.2-3B-Instruct" and model.lora_r == 16
    _, _, model = parse_run_arguments(["--config", STAGE_3, "--model", "tiny-random-llama"])
    assert model.model_name_or_path == "tiny-random-llama" and model.lora_r == 32


def test_without_a_gpu_bf16_is_dropped_and_activations_are_checkpointed():
    _, grpo, _ = parse_run_arguments(["--config", STAGE_3])
    assert grpo.bf16 is False and grpo.use_cpu is True and grpo.gradient_checkpointing is True
    _, grpo, _ = parse_run_arguments(["--config", STAGE_3, "--gradient_checkpointing", "false"])
    assert grpo.gradient_checkpointing is False  # a flag still wins


@pytest.mark.parametrize("argv, message", [
    (["--config", STAGE_3, "--model_preset", "nope"], "no model preset 'nope'; presets: llama-3.2-3b-instruct"),
    (["--task", "stage-7"], "no task 'stage-7': tasks are stage-1, stage-2"),
    (["--task", "poetry"], "no task 'poetry'"),
    (["--learning_rate", "1e-5"], "name a task"),
    (["--config", "/nonexistent.yaml"], "no recipe /nonexistent.yaml; recipes: training/recipes/arithmetic-after-warm-start.yaml"),
])
def test_bad_recipes_say_what_to_change(argv, message):
    with pytest.raises(RecipeError, match=message.replace("(", r"\(")):
        parse_run_arguments(argv)


def test_unknown_recipe_keys_are_named(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("task: stage-1\nlearning_rat: 0.1\n")
    with pytest.raises(RecipeError, match="unknown recipe keys: --learning_rat 0.1"):
        parse_run_arguments(["--config", str(recipe)])
