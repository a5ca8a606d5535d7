"""No silent overrides: a value the run derives fills a flag only where the user left it unset; a conflict stops."""

import pytest

from dataset_builders import tasks
from training.core.arguments import RECIPES_DIR, RecipeError, parse_run_arguments
from training.core.run_flags import completion_length_source, settle_grpo_flags

STAGE_1 = str(RECIPES_DIR / "stage-1.yaml")


class Tokenizer:
    """Enough of a tokenizer for the budget: ``n`` tokens per word."""

    name_or_path, n = "three-per-word", 3

    def __len__(self):
        return 100

    def __call__(self, text, add_special_tokens=False):
        if isinstance(text, list):  # a batch, as the task measures its train targets
            return {"input_ids": [[0] * (self.n * len(t.split())) for t in text]}
        return {"input_ids": [0] * (self.n * len(text.split()))}


def _settled(*flags):
    run, grpo, _ = parse_run_arguments(["--config", STAGE_1, *flags])
    settle_grpo_flags(run, grpo, tasks.get(run.task))
    return run, grpo


def test_the_parser_records_what_the_recipe_and_the_command_line_set():
    run, grpo, _ = parse_run_arguments(["--config", STAGE_1, "--save_total_limit", "3", "--no_shuffle_dataset"])
    assert {"task", "learning_rate", "lora_r", "bf16", "save_total_limit"} <= run.named  # recipe, base, preset, flags
    assert "shuffle_dataset" in run.named and grpo.shuffle_dataset is False  # --no_X sets X to false
    run, _, _ = parse_run_arguments(["--config", STAGE_1])
    assert not {"shuffle_dataset", "save_total_limit", "ignore_data_skip"} & run.named  # dataclass defaults are not


def test_unset_flags_are_filled_with_what_the_run_needs():
    _, grpo = _settled()
    assert grpo.shuffle_dataset is False and grpo.ignore_data_skip is True and grpo.save_total_limit is None
    assert grpo.reward_weights == list(tasks.get("stage-1").reward_weights)
    _, grpo = _settled("--shuffle_dataset", "false", "--reward_weights", "0.9", "0.1")  # the user's own choice stays
    assert grpo.shuffle_dataset is False and grpo.reward_weights == [0.9, 0.1]


@pytest.mark.parametrize(
    "flags, message",
    [
        (
            ["--shuffle_dataset", "true"],
            "--shuffle_dataset True conflicts with this run, which needs False: its problems",
        ),
        (["--ignore_data_skip", "false"], "--ignore_data_skip False conflicts"),
        (
            ["--save_total_limit", "2"],
            "--save_total_limit 2 conflicts with this run, which needs None: the checkpoint policy",
        ),
        (["--reward_weights", "1.0"], "--reward_weights has 1 weights for the task's 2 reward functions"),
        (["--max_completion_length", "64", "--derive_max_completion_length", "true"], "both say how long"),
    ],
)
def test_a_user_value_that_conflicts_with_the_run_stops_it(flags, message):
    with pytest.raises(RecipeError, match=message.replace("(", r"\(")):
        _settled(*flags)


def test_the_completion_budget_fills_max_completion_length_only_when_unset():
    task = tasks.get("stage-1")
    run, grpo = _settled()
    assert completion_length_source(run, grpo, task, Tokenizer()) == "the task's budget"
    assert grpo.max_completion_length == task.completion_budget(Tokenizer())
    run, grpo = _settled("--max_completion_length", "64")
    assert completion_length_source(run, grpo, task, Tokenizer()) == "as set" and grpo.max_completion_length == 64
    run, grpo = _settled("--derive_max_completion_length", "false")
    default = grpo.max_completion_length
    assert completion_length_source(run, grpo, task, Tokenizer()) == "TRL's default"
    assert grpo.max_completion_length == default
    run, grpo, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "arithmetic.yaml")])
    assert "max_completion_length" in run.named and grpo.max_completion_length == 16  # the recipe's value is kept


def test_a_conflicting_flag_stops_the_cli_before_anything_loads(in_process, no_model_load):
    proc = in_process("-m", "training.cli.train", "--config", STAGE_1, "--shuffle_dataset", "true")
    assert proc.returncode == 2 and "error: --shuffle_dataset True conflicts with this run" in proc.stderr
    assert "Traceback" not in proc.stderr
