"""Run arguments: a YAML recipe (plus an optional model preset) and CLI overrides, parsed by TRL's ``TrlParser``.

Precedence, lowest first: dataclass defaults, the model preset (``training/recipes/models/<name>.yaml``),
the recipe (``--config training/recipes/<recipe>.yaml``), then command-line flags. Without a GPU the
bf16 settings of a recipe or preset are turned off and gradient checkpointing on, so the same recipe
runs on CPU.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dataset_builders.interleave_curriculum import STAGE_WORDS

logger = logging.getLogger(__name__)

RECIPES_DIR = Path(__file__).resolve().parent / "recipes"
MODEL_PRESETS_DIR = RECIPES_DIR / "models"
TASKS = ("interleave", "arithmetic")


class RecipeError(ValueError):
    """A recipe, preset or flag that cannot describe a run; the message says what to change."""


@dataclass
class RunArguments:
    """What a run trains on and the project's policies around TRL's GRPO step (checkpoints, logs, collapse)."""

    task: str = field(default="interleave", metadata={"help": "interleave (a curriculum stage) or arithmetic (the positive control)"})
    stage: int | None = field(default=None, metadata={"help": "curriculum stage 1-6 (interleave task)"})
    arithmetic_config: str = field(default="3x2", metadata={"help": "arithmetic digits config, e.g. 3x2"})
    model_preset: str | None = field(default=None, metadata={"help": "a file name under training/recipes/models/ (without .yaml)"})
    init_adapter: str | None = field(default=None, metadata={
        "help": "LoRA adapter to start from: a folder, 'base' for a fresh adapter, or unset: the previous stage's final adapter"})
    reward_funcs: list[str] | None = field(default=None, metadata={
        "help": "dotted import paths of reward functions that replace the task's rewards (my_pkg.rewards.my_reward)"})
    resume: bool = field(default=False, metadata={"help": "continue this run from its latest complete checkpoint"})
    data_seed_problems: int = field(default=0, metadata={"help": "seed of the training problems (problem i = f(seed, i))"})
    derive_max_completion_length: bool = field(default=True, metadata={
        "help": "set max_completion_length from the stage: tokens per word x 2 x words x 1.3 + 16"})
    fast_generation: bool = field(default=False, metadata={
        "help": "sample rollouts with training.graph_sampler (merged adapter copy, static cache, CUDA graph) "
                "instead of TRL's generate"})
    fast_generation_compile: bool = field(default=False, metadata={
        "help": "also run the fast sampler's decode step through torch.compile (each new batch/cache shape "
                "compiles once)"})
    reward_save_threshold: float = field(default=0.3, metadata={"help": "also save when the windowed reward beats its best and this"})
    dynamic_sampling_rounds: int = field(default=2, metadata={
        "help": "times per step to replace prompts whose group has zero reward variance with fresh ones (0: off)"})
    collapse_zero_std_fraction: float = field(default=0.9, metadata={"help": "a step counts as collapsed at this zero-variance group fraction"})
    collapse_warn_after: int = field(default=5, metadata={"help": "collapsed steps in a row before a warning"})
    collapse_stop_after: int = field(default=20, metadata={"help": "collapsed steps in a row before the run stops (0: never)"})
    sample_outputs_steps: int = field(default=10, metadata={"help": "write the step's best and worst completion every N steps"})
    results_dir: str | None = field(default=None, metadata={"help": "where metrics, summary and plots go (default results/<run>)"})
    promotion_bar: float | None = field(default=None, metadata={
        "help": "stop the stage once its validation NW score (greedy) reaches this (curriculum promotion)"})
    promotion_every: int = field(default=20, metadata={"help": "steps between validation checks for promotion"})
    promotion_problems: int = field(default=64, metadata={"help": "validation problems per promotion check"})
    max_train_minutes: float | None = field(default=None, metadata={
        "help": "stop (saving a checkpoint) after this many minutes of training; RESUME=1 continues"})
    word_credit: float = field(default=0.0, metadata={
        "help": "weight of per-word advantages (training.word_credit: each token scored by its word's alignment) "
                "mixed with GRPO's sequence advantage; 0: sequence only, 1: per word only"})
    nonfinite_probe_dir: str | None = field(default=None, metadata={
        "help": "diagnostic: replay steps with non-finite gradients and write reports here (training.nonfinite_probe)"})

    def __post_init__(self):
        if self.task not in TASKS:
            raise RecipeError(f"task must be one of {TASKS}, got {self.task!r}")
        if self.task == "interleave" and self.stage not in STAGE_WORDS:
            raise RecipeError(f"the interleave task needs stage 1-6 (--stage N), got {self.stage!r}")


def read_yaml(path: Path) -> dict:
    """A YAML mapping from ``path``, or a RecipeError that names the file."""
    try:
        loaded = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise RecipeError(f"cannot read {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise RecipeError(f"{path} is not valid YAML: {exc}") from exc
    if not isinstance(loaded, dict):
        raise RecipeError(f"{path} must hold a YAML mapping of argument: value")
    return loaded


def model_preset_path(name: str) -> Path:
    """The preset file of ``name``; a RecipeError lists the presets when there is none."""
    path = MODEL_PRESETS_DIR / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in MODEL_PRESETS_DIR.glob("*.yaml"))
        raise RecipeError(f"no model preset {name!r}; presets: {', '.join(known)}")
    return path


def _flag_value(argv: list[str], flag: str) -> str | None:
    """The value of ``--flag X`` or ``--flag=X`` in argv, if given."""
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def _pop_flag(argv: list[str], flag: str) -> str | None:
    """Remove ``--flag X`` / ``--flag=X`` from argv (in place) and return X."""
    value = _flag_value(argv, flag)
    if value is not None:
        index = next(i for i, a in enumerate(argv) if a == flag or a.startswith(flag + "="))
        del argv[index:index + (1 if "=" in argv[index] else 2)]
    return value


def merged_config(argv: list[str]) -> tuple[dict, list[str]]:
    """(preset values updated by recipe values, the remaining argv) for the parser's defaults.

    ``--config`` is taken out of argv; ``--model X`` becomes ``--model_preset X`` when a preset of that name
    exists, else ``--model_name_or_path X``.
    """
    argv = list(argv)
    config_path = _pop_flag(argv, "--config")
    if config_path is not None and not Path(config_path).is_file():
        known = ", ".join(sorted(str(p.relative_to(RECIPES_DIR.parent.parent)) for p in RECIPES_DIR.glob("*.yaml")))
        raise RecipeError(f"no recipe {config_path}; recipes: {known}")
    recipe = read_yaml(Path(config_path)) if config_path is not None else {}
    model = _pop_flag(argv, "--model")  # shorthand: a preset name, else a model name, folder or Hub id
    if model is not None:
        argv += ["--model_preset" if (MODEL_PRESETS_DIR / f"{model}.yaml").is_file() else "--model_name_or_path", model]
    preset_name = _flag_value(argv, "--model_preset") or recipe.get("model_preset")
    values = read_yaml(model_preset_path(preset_name)) if preset_name else {}
    values.update(recipe)
    for key, value in values.pop("env", {}).items():
        os.environ.setdefault(key, str(value))
    return values, argv


def cpu_only_overrides(values: dict, cuda: bool) -> dict:
    """Without CUDA: float32 (TrainingArguments refuses bf16/fp16 on CPU) and gradient checkpointing.

    A recipe's step (64 completions of a ~220-token prompt + completion) keeps ~20 GB of float32
    activations for the backward pass without checkpointing; with it, a few GB.
    """
    if cuda:
        return values
    dropped = [k for k in ("bf16", "fp16", "bf16_full_eval") if values.get(k)]
    logger.info("no GPU: training in float32 on CPU with gradient checkpointing%s",
                f" (ignoring {', '.join(dropped)} from the recipe)" if dropped else "")
    return {**values, **{k: False for k in ("bf16", "fp16", "bf16_full_eval")}, "use_cpu": True,
            "gradient_checkpointing": True}


def parse_recipe(dataclass_types: tuple, argv: list[str] | None = None) -> tuple:
    """Instances of ``dataclass_types`` from a recipe, its model preset and the command line (TRL's TrlParser)."""
    import sys

    import torch
    from trl import TrlParser

    argv = list(sys.argv[1:] if argv is None else argv)
    values, argv = merged_config(argv)
    values = cpu_only_overrides(values, torch.cuda.is_available())
    parser = TrlParser(dataclass_types)
    unknown = parser.set_defaults_with_config(**values)
    if unknown:
        raise RecipeError(f"unknown recipe keys: {' '.join(unknown)}")
    try:
        return tuple(parser.parse_args_into_dataclasses(argv))
    except ValueError as exc:
        raise RecipeError(str(exc)) from exc


def parse_run_arguments(argv: list[str] | None = None):
    """(RunArguments, GRPOConfig, ModelConfig) of a GRPO run."""
    from trl import GRPOConfig, ModelConfig

    return parse_recipe((RunArguments, GRPOConfig, ModelConfig), argv)
