"""Range checks of a run's numbers, right after parsing: one RecipeError naming every bad flag, before anything loads.

Without them ``--max_steps -5`` reached transformers' "train_dataset does not implement __len__" and
``--learning_rate -1`` torch's "Invalid learning rate", both as tracebacks after the model had loaded.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from training.core.arguments import RecipeError


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def whole(minimum: int) -> tuple[Callable, str]:
    return (lambda v: _number(v) and v == int(v) and v >= minimum), f"a whole number >= {minimum}"


def at_least(minimum: float) -> tuple[Callable, str]:
    return (lambda v: _number(v) and v >= minimum), f"a number >= {minimum:g}"


def above(minimum: float) -> tuple[Callable, str]:
    return (lambda v: _number(v) and v > minimum), f"a number > {minimum:g}"


def within(low: float, high: float, low_open: bool = False) -> tuple[Callable, str]:
    return (
        (lambda v: _number(v) and (v > low if low_open else v >= low) and v <= high),
        f"a number in {'(' if low_open else '['}{low:g}, {high:g}]",
    )


# Field name -> (test, what it must be), for every parsed dataclass that has the field (TRL's GRPOConfig and SFTConfig,
# the project's RunArguments and WarmStartArguments); None means unset and is not checked.
RULES = {
    "max_steps": whole(1),  # problems are streamed: a run is max_steps long (transformers' -1 means epochs)
    "learning_rate": at_least(0),
    "per_device_train_batch_size": whole(1),
    "gradient_accumulation_steps": whole(1),
    "logging_steps": above(0),
    "save_steps": above(0),
    "warmup_steps": at_least(0),
    "max_grad_norm": at_least(0),
    "num_generations": whole(2),  # GRPO: a group's advantages need two completions at least
    "max_completion_length": whole(1),
    "max_length": whole(1),
    "temperature": above(0),  # GRPO divides the logits by it
    "beta": at_least(0),
    "promotion_bar": within(0, 1),  # 0: the first check promotes (the promotion test's random model scores 0)
    "promotion_every": whole(1),
    "promotion_problems": whole(1),
    "promotion_first_problem": whole(0),
    "max_train_minutes": above(0),
    "dynamic_sampling_rounds": whole(0),
    "collapse_zero_std_fraction": within(0, 1, low_open=True),
    "collapse_warn_after": whole(1),
    "collapse_stop_after": whole(0),
    "sample_outputs_steps": whole(1),
    "reward_save_threshold": at_least(-math.inf),
    "word_credit": within(0, 1),
    "continuation_words": whole(0),
    "data_seed_problems": whole(0),
    "problem_seed": whole(0),
    "problems": whole(1),
    "progress_after_seconds": at_least(0),
}


# Where one dataclass allows what the others do not: a GRPO stage of max_steps 0 is its supervised help alone
# (training/cli/train.py requires the help); a supervised run of 0 steps would train by epochs instead.
CLASS_RULES = {"GRPOConfig": {"max_steps": whole(0)}}


def check_numbers(*configs) -> None:
    """A RecipeError listing each field of ``configs`` outside its range in :data:`RULES` (as ``--flag value``)."""
    bad = []
    for config in configs:
        for name, (test, wanted) in (RULES | CLASS_RULES.get(type(config).__name__, {})).items():
            value = getattr(config, name, None)
            if value is not None and not test(value):
                bad.append(f"--{name} {value!r} must be {wanted}")
    if bad:
        raise RecipeError("; ".join(bad))
