"""Run arguments: a YAML recipe (plus an optional model preset) and CLI overrides, parsed by TRL's ``TrlParser``.

Precedence, lowest first: dataclass defaults, the model preset (``training/recipes/models/<name>.yaml``),
the recipe's bases (``base: bases/grpo.yaml``, a path relative to the recipe; a base may name its own), the recipe
(``--config training/recipes/<recipe>.yaml``), then command-line flags. Without a GPU the
bf16 settings of a recipe or preset are turned off and gradient checkpointing on, so the same recipe
runs on CPU.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dataset_builders import tasks
from dataset_builders.interleave_curriculum.continuation import SLIP_LEAD_WORDS

logger = logging.getLogger(__name__)

TRAINING_DIR = Path(__file__).resolve().parents[1]
RECIPES_DIR = TRAINING_DIR / "recipes"
MODEL_PRESETS_DIR = RECIPES_DIR / "models"


class RecipeError(ValueError):
    """A recipe, preset or flag that cannot describe a run; the message says what to change."""


REGISTER_WEIGHTS_HELP = (
    "interleave tasks: reweight the registers the train problems' texts are drawn from, e.g. numeric=2,reference=2 "
    "(positive whole numbers over dataset_builders/interleave_curriculum/mix.py's REGISTER_WEIGHTS, 1 each; a "
    "register not named keeps its weight; one with no train text, such as the held-out technical, is an error); "
    "validation, test and out_of_register keep the fixed mix, so scores stay comparable; unset: the fixed mix"
)


def parse_register_weights(spec: str) -> dict[str, int]:
    """``--register_weights``: ``mix.parse_register_weights``, its mistakes as a ``RecipeError``."""
    from dataset_builders.interleave_curriculum.mix import BadRegisterWeights
    from dataset_builders.interleave_curriculum.mix import parse_register_weights as parse

    try:
        return parse(spec)
    except BadRegisterWeights as exc:
        raise RecipeError(f"--register_weights {exc}") from None


SCRAMBLED_FRACTION_HELP = (
    "interleave tasks: the share (0 to 1) of train problems whose two texts have their words shuffled before the "
    "prompt and target are built, so that a word can only be copied, not guessed from the words before it "
    "(dataset_builders/interleave_curriculum/scramble.py; every train length and dynamic sampling's problems too); "
    "validation, test and out_of_register keep their texts in order; unset or 0: none"
)


IDENTIFIER_FRACTION_HELP = (
    "interleave tasks: the share (0 to 1) of train problems in whose two texts about a tenth of the words are "
    "replaced by synthetic identifiers built from the text's own words (snake_case, camelCase, dotted names, calls, "
    "paths, options, ...: dataset_builders/interleave_curriculum/identifiers.py), so that the model practises copying "
    "code-like strings; applied before --scrambled_fraction, chosen independently of it; every train length and "
    "dynamic sampling's problems too; validation, test and out_of_register keep their texts as written; unset or 0: "
    "none"
)
LONG_IDENTIFIER_SHARE_HELP = (
    "interleave tasks, with --identifier_fraction > 0: the share (0 to 1) of the synthetic identifiers that are long "
    "ones of 3 or 4 components built from the replaced word and the two or three words after it (a.b.c.Dd(), "
    "AAA_404_BBB, a/b/c.py, --a-b-c=d, ...: LONG_SHAPES in dataset_builders/interleave_curriculum/identifiers.py), "
    "where the held-out technical text's slips fall most often per word; the others keep the shapes of two words; "
    "validation, test and out_of_register keep their texts as written; unset or 0: none (the identifiers of before, "
    "byte for byte)"
)
DOUBLED_FRACTION_HELP = (
    "interleave tasks: the share (0 to 1) of train problems in which, at about a tenth of the positions (one at "
    "least), a word is copied from one text to the other so that the target holds two identical adjacent words (B's "
    "word i := A's word i, or A's word i+1 := B's word i: '... the the ...'; "
    "dataset_builders/interleave_curriculum/doubles.py), where the stage-1 GRPO adapter writes the word once; applied "
    "before --identifier_fraction and --scrambled_fraction, chosen independently of them; every train length and "
    "dynamic sampling's problems too; validation, test and out_of_register keep their texts as written; unset or 0: "
    "none (the train problems of before, byte for byte)"
)
REPEATED_FRACTION_HELP = (  # argparse formats help texts with %: a percent sign is written %%
    "interleave tasks: the share (0 to 1) of train problems in which a phrase of 2 to 4 words of one text is copied "
    "over other words of both texts, as written, until its copies cover about 15%% of their words, so that the phrase "
    "repeats within a text and across the two and the model must keep its place by position, not by the words before "
    "it (dataset_builders/interleave_curriculum/repeats.py), where the stage-6 adapter derails out of register (47%% "
    "of its first slips where the two words before occur again in the text); applied after --doubled_fraction and "
    "before --identifier_fraction and --scrambled_fraction, chosen independently of them; every train length and "
    "dynamic sampling's problems too; validation, test and out_of_register keep their texts as written; unset or 0: "
    "none (the train problems of before, byte for byte)"
)
# the train-draw shares parse_fraction reads
FRACTION_FLAGS = ("scrambled_fraction", "identifier_fraction", "doubled_fraction", "repeated_fraction")


def parse_fraction(flag: str, spec) -> float:
    """``--scrambled_fraction``, ``--identifier_fraction``, ``--doubled_fraction`` or ``--repeated_fraction``
    (``flag``; a flag's string or a recipe's number; unset: 0): ``share.parse_share``, its mistakes as a
    ``RecipeError`` that names the flag."""
    from dataset_builders.interleave_curriculum.share import BadFraction, parse_share

    if spec is None:
        return 0.0
    try:
        return parse_share(spec)
    except BadFraction as exc:
        raise RecipeError(f"--{flag} {exc}") from None


def parse_long_identifier_share(args) -> float:
    """``args.long_identifier_share`` (a flag's string or a recipe's number; unset: 0) as a number from 0 to 1; a
    ``RecipeError`` for anything else, or for a share above 0 without ``--identifier_fraction`` above 0 (there would be
    no identifiers to make long). ``args``: GRPO's ``RunArguments`` or the warm start's arguments."""
    from dataset_builders.interleave_curriculum.share import BadFraction, parse_share

    spec = args.long_identifier_share
    if spec is None:
        return 0.0
    try:
        share = parse_share(spec)
    except BadFraction:
        raise RecipeError(
            f"--long_identifier_share {spec!r}: expected a number from 0 to 1 (the share of the synthetic identifiers "
            "that are long), e.g. 0.5"
        ) from None
    if share and not parse_fraction("identifier_fraction", args.identifier_fraction):
        raise RecipeError(
            f"--long_identifier_share {share:g} makes that share of the synthetic identifiers long, and there are none "
            "without --identifier_fraction: give --identifier_fraction > 0 too (e.g. 0.5), or leave "
            "--long_identifier_share unset"
        )
    return share


@dataclass
class RunArguments:
    """What a run trains on and the project's policies around TRL's GRPO step (checkpoints, logs, collapse).

    ``named`` (set by ``parse_recipe``): the arguments the recipe or the command line set.
    """

    named = frozenset()  # not a field: what parse_recipe saw the user set

    task: str | None = field(
        default=None,
        metadata={"help": "what to train on: stage-1 ... stage-6 (curriculum), words-N, arithmetic or arithmetic-AxB"},
    )
    train_words: str | None = field(
        default=None,
        metadata={
            "help": "interleave tasks: train on problems of these words per text, taking turns (counts and ranges, "
            "e.g. 4-25: every batch mixes lengths, the shorter ones replaying earlier stages); validation, promotion "
            "and evaluation stay at the task's length; unset: the task's length only"
        },
    )
    register_weights: str | None = field(
        default=None,
        metadata={"help": REGISTER_WEIGHTS_HELP},
    )
    # strings, parsed by parse_fraction, so that --scrambled_fraction x is a RecipeError, not argparse's exit
    scrambled_fraction: str | None = field(default=None, metadata={"help": SCRAMBLED_FRACTION_HELP})
    identifier_fraction: str | None = field(default=None, metadata={"help": IDENTIFIER_FRACTION_HELP})
    long_identifier_share: str | None = field(default=None, metadata={"help": LONG_IDENTIFIER_SHARE_HELP})
    doubled_fraction: str | None = field(default=None, metadata={"help": DOUBLED_FRACTION_HELP})
    repeated_fraction: str | None = field(default=None, metadata={"help": REPEATED_FRACTION_HELP})
    continuation_words: int = field(
        default=0,
        metadata={
            "help": "interleave tasks, GRPO: train on continuation problems (dataset_builders/interleave_curriculum/"
            "continuation.py): the start of the correct answer given, cut at a random word, and only the next N words "
            "sampled and scored, so a step costs about as much at 500 words as at 10; validation, promotion and "
            "evaluation stay whole problems; needs --word_credit 0; 0: off"
        },
    )
    continuation_cuts: str | None = field(
        default=None,
        metadata={
            "help": "with --continuation_words: a problems.jsonl of the start adapter on the train split (python -m "
            "training.cli.evaluate --splits train ...); each train problem it lists with a slip is cut "
            f"{SLIP_LEAD_WORDS} words before the adapter's first slip instead of at a random word, so the window holds "
            "the place where it went wrong"
        },
    )
    continuation_slips_only: bool = field(
        default=False,
        metadata={
            "help": "with --continuation_cuts: train only on the problems whose windows it cuts at a slip, in turn and "
            "over again, instead of on every train problem (a window the adapter already gets right mostly leaves "
            "its group without reward variance)"
        },
    )
    model_preset: str | None = field(
        default=None, metadata={"help": "a file name under training/recipes/models/ (without .yaml)"}
    )
    init_adapter: str | None = field(
        default=None,
        metadata={
            "help": "LoRA adapter to start from: a folder, 'base' for a fresh adapter, or unset: the previous stage's "
            "final adapter"
        },
    )
    format_start: str | None = field(
        default=None,
        metadata={
            "help": "a supervised recipe (training/recipes/NAME.yaml) that trains a fresh adapter before GRPO: the "
            "stage's own bounded help (training/core/format_start.py); skipped when --init_adapter is given or the "
            "run resumes; none: off (a fresh adapter goes straight to GRPO)"
        },
    )
    supervised_help: str | None = field(
        default=None,
        metadata={
            "help": "a supervised recipe (training/recipes/NAME.yaml, with a max_train_minutes guard) that continues "
            "the stage's start adapter (the previous stage's final one, or --init_adapter) before GRPO: a later "
            "stage's own bounded help, reported in summary.json (training/core/format_start.py); skipped on resume; "
            "or several, comma-separated (a,b: b continues a's final adapter, in supervised-help-2/), each with its "
            "guard; none: off"
        },
    )
    reward_funcs: list[str] | None = field(
        default=None,
        metadata={
            "help": "dotted import paths of reward functions that replace the task's rewards (my_pkg.rewards.my_reward)"
        },
    )
    resume: bool = field(default=False, metadata={"help": "continue this run from its latest complete checkpoint"})
    data_seed_problems: int = field(
        default=0, metadata={"help": "seed of the training problems (problem i = f(seed, i))"}
    )
    derive_max_completion_length: bool = field(
        default=True,
        metadata={
            "help": "where max_completion_length is unset, use the task's completion budget (stages: tokens per word "
            "x 2 x words x 1.3 + 16); false: TRL's default"
        },
    )
    fast_generation: bool = field(
        default=False,
        metadata={
            "help": "sample rollouts with training.trainer.graph_sampler (merged adapter copy, static cache, CUDA "
            "graph) instead of TRL's generate"
        },
    )
    fast_generation_compile: bool = field(
        default=False,
        metadata={
            "help": "also run the fast sampler's decode step through torch.compile (each new batch/cache shape "
            "compiles once)"
        },
    )
    reward_save_threshold: float = field(
        default=0.3, metadata={"help": "also save when the windowed reward beats its best and this"}
    )
    dynamic_sampling_rounds: int = field(
        default=2,
        metadata={
            "help": "times per step to replace prompts whose group has zero reward variance with fresh ones (0: off)"
        },
    )
    collapse_zero_std_fraction: float = field(
        default=0.9, metadata={"help": "a step counts as collapsed at this zero-variance group fraction"}
    )
    collapse_warn_after: int = field(default=5, metadata={"help": "collapsed steps in a row before a warning"})
    collapse_stop_after: int = field(
        default=20, metadata={"help": "collapsed steps in a row before the run stops (0: never)"}
    )
    sample_outputs_steps: int = field(
        default=10, metadata={"help": "write the step's best and worst completion every N steps"}
    )
    results_dir: str | None = field(
        default=None,
        metadata={
            "help": "where metrics, summary and plots go (default <output_dir>/results; results/ holds only curated "
            "copies)"
        },
    )
    promotion_bar: float | None = field(
        default=None,
        metadata={
            "help": "stop the stage once its validation NW score (greedy) reaches this (curriculum promotion; 0: at "
            "the first check)"
        },
    )
    promotion_every: int = field(default=20, metadata={"help": "steps between validation checks for promotion"})
    promotion_problems: int = field(default=64, metadata={"help": "validation problems per promotion check"})
    promotion_first_problem: int = field(
        default=512,
        metadata={
            "help": "the index of the first validation problem a promotion check scores (default 512: past the 256 "
            "that `make eval` and the recipe comparisons score and the arithmetic control's 512, so a stage is not "
            "stopped on the problems that then report it)"
        },
    )
    allow_untested_trl: bool = field(
        default=False,
        metadata={
            "help": "run on a TRL version other than the tested one (training.core.trl_version), at your own risk"
        },
    )
    max_train_minutes: float | None = field(
        default=None,
        metadata={"help": "stop (saving a checkpoint) after this many minutes of training; RESUME=1 continues"},
    )
    word_credit: float = field(
        default=0.0,
        metadata={
            "help": "weight of per-word advantages (training.trainer.word_credit: each token scored by its word's "
            "alignment; for arithmetic each digit is a unit) "
            "mixed with GRPO's sequence advantage; 0: sequence only, 1: per word only"
        },
    )
    cut_word_credit: bool = field(
        default=False,
        metadata={
            "help": "with --word_credit: a word cut short (a target word's beginning: 30,0 for 30,000) charges its "
            "score to the token that ended it, which otherwise scores by the next word (training.trainer.word_credit)"
        },
    )
    keep_word_signal_groups: bool = field(
        default=False,
        metadata={
            "help": "with --word_credit: dynamic sampling keeps equal-reward groups whose words score unequally (a "
            "repeated slip), which per-word credit still learns from; off: it swaps every equal-reward group"
        },
    )
    negative_boost_cap: float = field(
        default=0.0,
        metadata={
            "help": "multiply each negative token advantage by min(CAP, 1 / (1 - p)), p the policy's probability of "
            "the token, so that a slip the policy is sure of is pushed down as hard as an unsure one "
            "(training.trainer.confident_negatives); 0: off, else at least 1"
        },
    )
    shared_prompt_loss: bool = field(
        default=False,
        metadata={
            "help": "GRPO's loss pass computes each group's prompt once, its completions on top of the prompt's keys "
            "and values, instead of prompt + completion for every completion (training/trainer/shared_prompt.py; the "
            "same log-probabilities and gradients); for long prompts and short completions (continuation windows); "
            "the pass runs without activation checkpointing"
        },
    )
    weight_average_decay: float = field(
        default=0.0,
        metadata={
            "help": "ship an exponential moving average of the trained weights (training.callbacks.weight_average): "
            "decay per optimizer step, e.g. 0.98 (~50 steps); final/ is the average, final-raw/ the last weights, "
            "and promotion checks score the average; 0: off"
        },
    )
    weight_average_start: int = field(
        default=0,
        metadata={
            "help": "with --weight_average_decay: the step the average begins at (before it, it is the weights: an "
            "average over steps where the run still climbs lags it)"
        },
    )
    progress_after_seconds: float = field(
        default=5.0,
        metadata={
            "help": "show a step's rollout progress (a bar over its token steps) and the start of its update once the "
            "step has run this long (0: every step)"
        },
    )
    nonfinite_probe_dir: str | None = field(
        default=None,
        metadata={
            "help": "diagnostic: replay steps with non-finite gradients and write reports here "
            "(training.callbacks.nonfinite_probe)"
        },
    )

    def __post_init__(self):
        if self.task is None:
            raise RecipeError(f"name a task (--task NAME, or task: in the recipe): {', '.join(tasks.names())}, ...")
        try:
            tasks.get(self.task)
        except tasks.UnknownTask as exc:
            raise RecipeError(str(exc)) from None
        if self.register_weights:
            parse_register_weights(self.register_weights)  # a typo stops the run now, not after loading
        # each share parsed once: a typo stops the run now, and the shares set are named below
        shares = [f"--{flag}" for flag in FRACTION_FLAGS if parse_fraction(flag, getattr(self, flag))]
        parse_long_identifier_share(self)  # a long share only changes identifiers, which --identifier_fraction makes
        if self.continuation_slips_only and not self.continuation_cuts:
            raise RecipeError(
                "--continuation_slips_only trains on the problems --continuation_cuts names: give --continuation_cuts"
            )
        if self.continuation_cuts and shares:
            raise RecipeError(
                f"--continuation_cuts places cuts at slips on the plain train problems, and {' and '.join(shares)} "
                "changes their texts: give one or the other"
            )
        if self.continuation_cuts and not self.continuation_words:
            raise RecipeError(
                "--continuation_cuts places the cuts of continuation problems: give --continuation_words N"
            )
        if self.continuation_words and (self.word_credit or self.keep_word_signal_groups):
            raise RecipeError(
                "--continuation_words needs --word_credit 0 and --keep_word_signal_groups false: per-word credit "
                "scores a whole completion against its target, and a continuation is scored on a window of it"
            )


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


def read_recipe(path: Path, _within: tuple[Path, ...] = ()) -> dict:
    """A recipe's values over those of its ``base:`` recipe (recursively; ``env`` mappings merge key by key)."""
    values = read_yaml(path)
    base = values.pop("base", None)
    if base is None:
        return values
    base_path = (path.parent / str(base)).resolve()
    if base_path in (*_within, path.resolve()):
        raise RecipeError(f"{path}: its base recipes form a loop through {base_path}")
    if not base_path.is_file():
        raise RecipeError(f"{path}: no base recipe {base} (a path relative to {path.parent})")
    merged = read_recipe(base_path, (*_within, path.resolve()))
    env = {**merged.get("env", {}), **values.pop("env", {})}
    merged.update(values, **({"env": env} if env else {}))
    return merged


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
        del argv[index : index + (1 if "=" in argv[index] else 2)]
    return value


def missing_recipe_message(config_path: str) -> str:
    """What to say for a --config that is no file: a stage past the curriculum's (``make train-stage N=7``) gets the
    stages there are, a mistyped name the closest recipes, then every recipe."""
    recipes = sorted(RECIPES_DIR.glob("*.yaml"))
    known = ", ".join(str(p.relative_to(TRAINING_DIR.parent)) for p in recipes)
    stem = Path(config_path).stem
    stages = sorted(int(p.stem.split("-")[1]) for p in recipes if re.fullmatch(r"stage-\d+", p.stem))
    if re.fullmatch(r"stage-\d*", stem) and stages:
        first, last = stages[0], stages[-1]
        hint = f" (the curriculum's stages are {first} to {last}: make train-stage N={first} .. N={last})"
    else:
        close = difflib.get_close_matches(stem, [p.stem for p in recipes], n=3, cutoff=0.6)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return f"no recipe {config_path}{hint}; recipes: {known}"


def merged_config(argv: list[str]) -> tuple[dict, list[str]]:
    """(preset values updated by recipe values, the remaining argv) for the parser's defaults.

    ``--config`` is taken out of argv; ``--model X`` becomes ``--model_preset X`` when a preset of that name
    exists, else ``--model_name_or_path X``.
    """
    argv = list(argv)
    config_path = _pop_flag(argv, "--config")
    if config_path is not None and not Path(config_path).is_file():
        raise RecipeError(missing_recipe_message(config_path))
    recipe = read_recipe(Path(config_path)) if config_path is not None else {}
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
    logger.info(
        "no GPU: training in float32 on CPU with gradient checkpointing%s",
        f" (ignoring {', '.join(dropped)} from the recipe)" if dropped else "",
    )
    return {
        **values,
        **{k: False for k in ("bf16", "fp16", "bf16_full_eval")},
        "use_cpu": True,
        "gradient_checkpointing": True,
    }


def flags_named(argv: list[str]) -> set[str]:
    """The arguments a command line sets: ``--x 1``, ``--x=1`` and ``--no_x`` (a boolean set to false) name ``x``."""
    named = set()
    for arg in argv:
        if arg.startswith("--") and len(arg) > 2:
            name = arg[2:].split("=", 1)[0]
            named.add(name)
            if name.startswith("no_"):
                named.add(name[3:])
    return named


def parse_recipe(dataclass_types: tuple, argv: list[str] | None = None) -> tuple:
    """Instances of ``dataclass_types`` from a recipe, its model preset and the command line (TRL's TrlParser).

    The first instance gets ``named``: the arguments the preset, the recipe (with its bases) or a flag set, so a
    run can tell a value the user chose from a dataclass default (``training.core.run_flags``).
    """
    import sys

    import torch
    from trl import TrlParser

    argv = list(sys.argv[1:] if argv is None else argv)
    values, argv = merged_config(argv)
    named = frozenset(set(values) | flags_named(argv))  # before the CPU fallbacks, which are not the user's
    values = cpu_only_overrides(values, torch.cuda.is_available())
    parser = TrlParser(dataclass_types)
    unknown = parser.set_defaults_with_config(**values)
    if unknown:
        raise RecipeError(f"unknown recipe keys: {' '.join(unknown)}")
    try:
        parsed = tuple(parser.parse_args_into_dataclasses(argv))
    except ValueError as exc:
        raise RecipeError(str(exc)) from exc
    from training.core.argument_checks import check_numbers

    check_numbers(*parsed)  # --max_steps -5, --learning_rate -1: one message now, not a traceback after loading
    parsed[0].named = named
    return parsed


def parse_run_arguments(argv: list[str] | None = None):
    """(RunArguments, GRPOConfig, ModelConfig) of a GRPO run."""
    from trl import GRPOConfig, ModelConfig

    return parse_recipe((RunArguments, GRPOConfig, ModelConfig), argv)
