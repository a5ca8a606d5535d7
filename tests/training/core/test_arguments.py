import re

import pytest

from training.core.arguments import RECIPES_DIR, RecipeError, merged_config, parse_run_arguments, read_recipe

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
    assert [p.stem for p in recipes] == [
        "arithmetic-2x2",
        "arithmetic-from-sft",
        "arithmetic",
        "sft-arithmetic",
        "sft-every-length",
        "sft-format-start",
        "sft-long-texts",
        "sft-long-weighted",
        "sft-stage-2-help-7m",
        "sft-stage-2-help-long",
        "sft-stage-2-help-scrambled",
        "sft-stage-2-help-steps",
        "sft-stage-2-help",
        "sft-stage-3-help-7m",
        "sft-stage-3-help-long",
        "sft-stage-3-help-scrambled",
        "sft-stage-3-help-steps",
        "sft-stage-4-help-7m",
        "sft-stage-4-help-long",
        "sft-stage-4-help-steps",
        "sft-stage-5-help-12m",
        "sft-stage-5-help-long-texts",
        "sft-stage-5-help-long",
        "sft-stage-6-help-8m",
        "sft-stage-6-help-identifiers",
        "sft-stage-6-help-long-texts",
        "sft-stage-6-help-long",
        *[f"stage-{n}" for n in range(1, 7)],
    ]
    for path in recipes:
        parse = parse_warm_start_arguments if path.stem.startswith("sft-") else parse_run_arguments
        _, train_args, model = parse(["--config", str(path)])
        assert train_args.output_dir == f"runs/{path.stem}" and model.use_peft


def test_stage_5_help_decays_over_its_last_152_steps():
    """Batch 45 adopted warmup-stable-decay for stage 5's help: the recipe's YAML mapping reaches the scheduler's
    keyword arguments as a dict, so its 759 steps hold 5e-4 and then decay to 0 over the last 152."""
    from transformers.trainer_utils import SchedulerType

    from training.cli.warm_start import parse_warm_start_arguments

    train_args = parse_warm_start_arguments(["--config", str(RECIPES_DIR / "sft-stage-5-help-long-texts.yaml")])[1]
    assert train_args.lr_scheduler_type == SchedulerType.WARMUP_STABLE_DECAY
    assert train_args.lr_scheduler_kwargs == {"num_decay_steps": 152}
    assert (train_args.max_steps, train_args.learning_rate) == (759, 5e-4)


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


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--config", STAGE_3, "--model_preset", "nope"], "no model preset 'nope'; presets: llama-3.2-3b-instruct"),
        (["--task", "stage-7"], "no task 'stage-7': tasks are stage-1, stage-2"),
        (["--task", "poetry"], "no task 'poetry'"),
        (["--learning_rate", "1e-5"], "name a task"),
        (
            ["--config", "/nonexistent.yaml"],
            "no recipe /nonexistent.yaml; recipes: training/recipes/arithmetic-2x2.yaml",
        ),
        (  # a mistyped name: the closest recipes first
            ["--config", "training/recipes/sft-stage-5-help-long-text.yaml"],
            "no recipe training/recipes/sft-stage-5-help-long-text.yaml (did you mean sft-stage-5-help-long-texts or ",
        ),
        (
            ["--config", "training/recipes/stage-7.yaml"],
            "no recipe training/recipes/stage-7.yaml (the curriculum's stages are 1 to 6: make train-stage N=1 .. N=6)",
        ),
    ],
)
def test_bad_recipes_say_what_to_change(argv, message):
    with pytest.raises(RecipeError, match=re.escape(message)):
        parse_run_arguments(argv)


def test_unknown_recipe_keys_are_named(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("task: stage-1\nlearning_rat: 0.1\n")
    with pytest.raises(RecipeError, match="unknown recipe keys: --learning_rat 0.1"):
        parse_run_arguments(["--config", str(recipe)])


def test_a_recipe_holds_what_differs_from_its_base(tmp_path):
    """Stage recipes name bases/interleave.yaml (itself on bases/grpo.yaml), for stages 2-3 bases/interleave-polish.yaml
    and for stages 4-6 bases/interleave-long.yaml (both on bases/interleave.yaml), and hold only what differs."""
    _, grpo_3, _ = parse_run_arguments(["--config", STAGE_3])
    _, grpo_1, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "stage-1.yaml")])
    _, grpo_6, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "stage-6.yaml")])
    assert grpo_1.learning_rate == 3e-4 and grpo_3.num_generations == grpo_6.num_generations == 8  # from the bases
    assert grpo_6.learning_rate == 3e-5 and not grpo_6.use_adaptive_entropy and grpo_3.use_adaptive_entropy
    assert grpo_3.per_device_train_batch_size == grpo_6.per_device_train_batch_size == 128  # interleave.yaml
    assert grpo_3.logging_steps == grpo_6.logging_steps == 1 and grpo_6.gradient_checkpointing  # grpo.yaml, -long
    _, arithmetic, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "arithmetic-from-sft.yaml")])
    assert arithmetic.learning_rate == 2e-5 and arithmetic.per_device_train_batch_size == 64  # grpo.yaml only
    assert (grpo_3.max_steps, grpo_6.max_steps) == (0, 0)  # each stage overrides the base's 200 (0: help alone)
    run_2, grpo_2, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "stage-2.yaml")])
    assert (grpo_2.learning_rate, run_2.weight_average_start) == (3e-5, 20) and grpo_2.use_adaptive_entropy  # -polish
    assert grpo_3.learning_rate == 3e-5  # stage 3's base is -polish too, for a user who gives it GRPO steps
    for n in range(1, 7):
        assert len((RECIPES_DIR / f"stage-{n}.yaml").read_text().splitlines()) <= 10

    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "outer.yaml").write_text("learning_rate: 0.5\nwarmup_steps: 7\nenv: {A: '1', B: '1'}\n")
    (tmp_path / "bases" / "inner.yaml").write_text("base: outer.yaml\nwarmup_steps: 8\nenv: {B: '2'}\n")
    (tmp_path / "r.yaml").write_text("base: bases/inner.yaml\ntask: stage-1\nmax_steps: 3\n")
    values = read_recipe(tmp_path / "r.yaml")
    assert (values["learning_rate"], values["warmup_steps"], values["max_steps"]) == (0.5, 8, 3)
    assert values["env"] == {"A": "1", "B": "2"} and "base" not in values
    (tmp_path / "loop.yaml").write_text("base: loop.yaml\n")
    with pytest.raises(RecipeError, match="loop"):
        merged_config(["--config", str(tmp_path / "loop.yaml")])
    (tmp_path / "orphan.yaml").write_text("base: nowhere.yaml\n")
    with pytest.raises(RecipeError, match="no base recipe nowhere.yaml"):
        merged_config(["--config", str(tmp_path / "orphan.yaml")])


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--max_steps", "-5"], "--max_steps -5 must be a whole number >= 0"),  # 0: the stage is its help alone
        (["--learning_rate", "-1"], "--learning_rate -1.0 must be a number >= 0"),
        (["--learning_rate", "nan"], "--learning_rate nan must be a number >= 0"),
        (["--temperature", "0"], "--temperature 0.0 must be a number > 0"),
        (["--save_steps", "0"], "--save_steps 0.0 must be a number > 0"),
        (["--promotion_bar", "1.5"], r"--promotion_bar 1.5 must be a number in \[0, 1\]"),
        (["--word_credit", "-0.5"], r"--word_credit -0.5 must be a number in \[0, 1\]"),
        (["--max_train_minutes", "-1"], "--max_train_minutes -1.0 must be a number > 0"),
        (["--dynamic_sampling_rounds", "-1"], "--dynamic_sampling_rounds -1 must be a whole number >= 0"),
        (["--num_generations", "1"], "at least 2 generations per prompt"),  # TRL's own check, also a RecipeError
        (["--per_device_train_batch_size", "5"], "generation_batch_size .5. must be divisible by num_generations"),
    ],
)
def test_numbers_out_of_range_are_a_recipe_error(flags, message):
    with pytest.raises(RecipeError, match=message):
        parse_run_arguments(["--config", STAGE_3, *flags])


def test_every_bad_number_is_named_in_one_message():
    with pytest.raises(RecipeError, match="--max_steps -5 must be .*; --learning_rate -1.0 must be"):
        parse_run_arguments(["--config", STAGE_3, "--max_steps", "-5", "--learning_rate", "-1"])


def test_the_warm_start_checks_its_numbers_too():
    from training.cli.warm_start import parse_warm_start_arguments

    recipe = str(RECIPES_DIR / "sft-every-length.yaml")
    with pytest.raises(RecipeError, match="--problems 0 must be a whole number >= 1; --learning_rate -1.0 must be"):
        parse_warm_start_arguments(["--config", recipe, "--learning_rate", "-1", "--problems", "0"])
    # a GRPO stage of 0 steps is its supervised help alone; a supervised run of 0 steps would train by epochs instead
    with pytest.raises(RecipeError, match="--max_steps 0 must be a whole number >= 1"):
        parse_warm_start_arguments(["--config", recipe, "--max_steps", "0"])
    assert parse_run_arguments(["--config", STAGE_3, "--max_steps", "0"])[1].max_steps == 0


def test_train_words_give_a_stage_its_train_lengths():
    from training.core.run_task import task_for

    run, _, _ = parse_run_arguments(["--config", STAGE_3, "--train_words", "4-6,50"])
    task = task_for(run)
    assert (task.name, task.words, task.train_words) == ("stage-3", 50, (4, 5, 6, 50))
    assert task_for(parse_run_arguments(["--config", STAGE_3])[0]).train_words == ()
    run, _, _ = parse_run_arguments(["--config", STAGE_3, "--train_words", "6-4"])
    with pytest.raises(RecipeError, match="--train_words '6-4': expected word counts"):
        task_for(run)
    run, _, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "arithmetic.yaml"), "--train_words", "4"])
    with pytest.raises(RecipeError, match="apply to the interleave tasks"):
        task_for(run)


def test_register_weights_reweight_a_stages_train_problems():
    from training.core.run_task import task_for

    run, _, _ = parse_run_arguments(["--config", STAGE_3, "--register_weights", "numeric=3,reference=2"])
    task = task_for(run)
    assert (task.name, task.register_weights) == ("stage-3", {"numeric": 3, "reference": 2})
    assert task_for(parse_run_arguments(["--config", STAGE_3])[0]).register_weights is None
    for spec, message in [
        ("poetry=2", "--register_weights 'poetry=2': no register 'poetry'; registers are speech, fiction, dialogue"),
        ("numeric=0", "--register_weights 'numeric=0': the weight of numeric must be a positive whole number"),
        ("numeric=1.5", "the weight of numeric must be a positive whole number, not '1.5'"),
        ("numeric", "expected register=weight pairs such as numeric=2,speech=3"),
    ]:
        with pytest.raises(RecipeError, match=message):  # at parsing, before anything loads
            parse_run_arguments(["--config", STAGE_3, "--register_weights", spec])
    run, _, _ = parse_run_arguments(["--config", STAGE_3, "--register_weights", "technical=2"])
    with pytest.raises(RecipeError, match="technical, which the corpus has no train text of"):
        task_for(run)
    run, _, _ = parse_run_arguments(
        ["--config", str(RECIPES_DIR / "arithmetic.yaml"), "--register_weights", "numeric=2"]
    )
    with pytest.raises(RecipeError, match="register weights apply to the interleave tasks"):
        task_for(run)


@pytest.mark.parametrize(
    "flag, what",
    [
        ("scrambled_fraction", "a scrambled fraction"),
        ("identifier_fraction", "an identifier fraction"),
        ("doubled_fraction", "a doubled fraction"),
        ("repeated_fraction", "a repeated fraction"),
    ],
)
def test_a_train_share_reaches_a_stages_task_and_a_bad_one_stops_parsing(tmp_path, flag, what):
    """--scrambled_fraction, --identifier_fraction, --doubled_fraction and --repeated_fraction, as a flag or a recipe
    key, set the task's share of train problems (0 and unset: none); a value that is no number from 0 to 1 is a
    RecipeError at parsing, before loading."""
    import re

    from training.core.run_task import task_for

    run, _, _ = parse_run_arguments(["--config", STAGE_3, f"--{flag}", "0.3"])
    assert (task_for(run).name, getattr(task_for(run), flag)) == ("stage-3", 0.3)
    assert getattr(task_for(parse_run_arguments(["--config", STAGE_3])[0]), flag) == 0
    assert getattr(task_for(parse_run_arguments(["--config", STAGE_3, f"--{flag}", "0"])[0]), flag) == 0
    recipe = tmp_path / "share.yaml"
    recipe.write_text(f"base: {STAGE_3}\n{flag}: 0.3\n")  # a recipe key: a YAML number
    assert getattr(task_for(parse_run_arguments(["--config", str(recipe)])[0]), flag) == 0.3
    for spec in ("-0.1", "1.5", "x", "nan", "", "2"):
        with pytest.raises(RecipeError, match=re.escape(f"--{flag} '{spec}': expected a number from 0 to 1")):
            parse_run_arguments(["--config", STAGE_3, f"--{flag}", spec])
    for value, shown in (("true", "True"), ("2", "2"), ("abc", "'abc'")):
        recipe.write_text(f"base: {STAGE_3}\n{flag}: {value}\n")
        with pytest.raises(RecipeError, match=f"--{flag} {shown}: expected a number from 0 to 1"):
            parse_run_arguments(["--config", str(recipe)])
    run, _, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "arithmetic.yaml"), f"--{flag}", "0.5"])
    with pytest.raises(RecipeError, match=f"{what} applies to the interleave tasks"):
        task_for(run)


def test_identifiers_and_scrambling_are_set_apart():
    from training.core.run_task import task_for

    task = task_for(parse_run_arguments(["--config", STAGE_3, "--identifier_fraction", "0.3"])[0])
    assert (task.identifier_fraction, task.scrambled_fraction) == (0.3, 0)
    both = ["--identifier_fraction", "0.2", "--scrambled_fraction", "0.4"]
    task = task_for(parse_run_arguments(["--config", STAGE_3, *both])[0])
    assert (task.identifier_fraction, task.scrambled_fraction) == (0.2, 0.4)


@pytest.mark.parametrize(
    "flag, other, words",
    [
        ("doubled_fraction", "identifier_fraction", "identical adjacent words"),
        ("repeated_fraction", "doubled_fraction", "repeats within a text and across the two"),
    ],
    ids=["doubled", "repeated"],
)
def test_a_text_share_is_set_apart_from_the_other_shares_and_named_by_the_continuation_cuts_check(
    tmp_path, flag, other, words
):
    """--doubled_fraction and --repeated_fraction each set the task's own share beside the others (each left as given)
    and reach its train problems; with --continuation_cuts each is named as a share that changes the plain texts, with
    another such share too; its help says what it does."""
    import re
    from dataclasses import fields

    from training.core import arguments
    from training.core.arguments import FRACTION_FLAGS, RunArguments
    from training.core.run_task import task_for

    assert flag in FRACTION_FLAGS
    task = task_for(parse_run_arguments(["--config", STAGE_3, f"--{flag}", "0.3"])[0])
    assert (getattr(task, flag), getattr(task, other), task.scrambled_fraction) == (0.3, 0, 0)
    plain = task_for(parse_run_arguments(["--config", STAGE_3])[0])
    assert getattr(plain, flag) == 0
    changed = [task.problem("train", i) != plain.problem("train", i) for i in range(100)]
    assert 0.15 <= sum(changed) / 100 <= 0.45
    every = [f"--{flag}", "0.1", f"--{other}", "0.2", "--scrambled_fraction", "0.4"]
    task = task_for(parse_run_arguments(["--config", STAGE_3, *every])[0])
    assert (getattr(task, flag), getattr(task, other), task.scrambled_fraction) == (0.1, 0.2, 0.4)
    answers = tmp_path / "answers.jsonl"
    answers.write_text("")
    windows = ["--config", STAGE_3, "--continuation_words", "12", "--continuation_cuts", str(answers)]
    with pytest.raises(RecipeError, match=re.escape(f"and --{flag} changes their texts: give one or")):
        parse_run_arguments([*windows, f"--{flag}", "0.3"])
    first, second = sorted([flag, other], key=FRACTION_FLAGS.index)
    with pytest.raises(RecipeError, match=re.escape(f"--{first} and --{second} changes their")):
        parse_run_arguments([*windows, f"--{flag}", "0.3", f"--{other}", "0.3"])
    help_text = next(f.metadata["help"] for f in fields(RunArguments) if f.name == flag)
    assert help_text == getattr(arguments, f"{flag.upper()}_HELP") and words in help_text


def test_a_long_identifier_share_reaches_the_task_with_an_identifier_fraction_only(tmp_path):
    """--long_identifier_share, as a flag or a recipe key, sets the share of the task's identifiers that are long; it
    needs --identifier_fraction above 0 (one error, at parsing and where the task is drawn), and a value that is no
    number from 0 to 1 is a RecipeError at parsing."""
    import re
    from types import SimpleNamespace

    from dataset_builders import tasks
    from training.core.run_task import task_for, with_train_draw

    both = ["--identifier_fraction", "0.5", "--long_identifier_share", "0.3"]
    task = task_for(parse_run_arguments(["--config", STAGE_3, *both])[0])
    assert (task.name, task.identifier_fraction, task.long_identifier_share) == ("stage-3", 0.5, 0.3)
    assert (
        task_for(parse_run_arguments(["--config", STAGE_3, "--identifier_fraction", "0.5"])[0]).long_identifier_share
        == 0
    )
    unset = task_for(parse_run_arguments(["--config", STAGE_3, "--long_identifier_share", "0"])[0])
    assert (unset.identifier_fraction, unset.long_identifier_share) == (0, 0)
    recipe = tmp_path / "long.yaml"
    recipe.write_text(f"base: {STAGE_3}\nidentifier_fraction: 0.5\nlong_identifier_share: 0.25\n")
    assert task_for(parse_run_arguments(["--config", str(recipe)])[0]).long_identifier_share == 0.25
    needs = (
        "--long_identifier_share 0.3 makes that share of the synthetic identifiers long, and there are none without "
    )
    for without in ([], ["--identifier_fraction", "0"]):
        with pytest.raises(
            RecipeError, match=re.escape(needs + "--identifier_fraction: give --identifier_fraction > 0")
        ):
            parse_run_arguments(["--config", STAGE_3, "--long_identifier_share", "0.3", *without])
    args = SimpleNamespace(register_weights=None, scrambled_fraction=None, identifier_fraction=None)
    with pytest.raises(RecipeError, match=re.escape(needs)):  # where the task is drawn, the same error
        with_train_draw(tasks.get("stage-3"), SimpleNamespace(**vars(args), long_identifier_share="0.3"))
    for spec in ("-0.1", "1.5", "x", "nan", ""):
        with pytest.raises(RecipeError, match=re.escape(f"--long_identifier_share '{spec}': expected a number from 0")):
            parse_run_arguments(["--config", STAGE_3, "--identifier_fraction", "0.5", "--long_identifier_share", spec])
    recipe.write_text(f"base: {STAGE_3}\nidentifier_fraction: 0.5\nlong_identifier_share: true\n")
    with pytest.raises(RecipeError, match="--long_identifier_share True: expected a number from 0 to 1"):
        parse_run_arguments(["--config", str(recipe)])


@pytest.mark.parametrize("entry", ["train", "warm_start"])
def test_help_prints_every_flag_instead_of_a_traceback(entry, capsys):
    """`python -m training.cli.train --help` (and warm_start's) prints the flags and exits 0. argparse formats each
    help text with %, so a help that says '15% of' read as a '% o' conversion and --help ended in a TypeError."""
    from training.cli.warm_start import parse_warm_start_arguments
    from training.core.arguments import parse_run_arguments

    parse = parse_run_arguments if entry == "train" else parse_warm_start_arguments
    with pytest.raises(SystemExit) as stop:
        parse(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "--repeated_fraction" in out and "15% of their words" in out
