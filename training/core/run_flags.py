"""The settings a run needs on TRL's config: filled where the user left them unset, a stop where the user's conflict.

A flag counts as set when the recipe (with its bases and model preset) or the command line names it
(``RunArguments.named``), whatever its value, so a user's explicit default is respected too.
"""

from __future__ import annotations

from training.core.arguments import RecipeError


def settle(config, named, name: str, needed, why: str) -> None:
    """``config.<name>`` = ``needed``: filled when unset; a RecipeError when the user set another value."""
    if name in named:
        if getattr(config, name) != needed:
            raise RecipeError(
                f"--{name} {getattr(config, name)!r} conflicts with this run, which needs {needed!r}: "
                f"{why}. Drop it from the recipe or the command line."
            )
        return
    setattr(config, name, needed)


def settle_grpo_flags(run_args, grpo_args, task) -> None:
    """Fill or check what a GRPO run of ``task`` needs on its ``GRPOConfig`` (before any model is loaded)."""
    named = run_args.named
    settle(
        grpo_args,
        named,
        "shuffle_dataset",
        False,
        "its problems are already a keyed permutation, and their order is the run's data position",
    )
    settle(
        grpo_args,
        named,
        "ignore_data_skip",
        True,
        "a resumed run restarts the problem stream at its saved data position instead of skipping batches",
    )
    settle(
        grpo_args,
        named,
        "save_total_limit",
        None,
        "the checkpoint policy (training.callbacks.checkpoints) decides which checkpoints to keep",
    )
    if "reward_weights" not in named:
        grpo_args.reward_weights = list(task.reward_weights)
    elif len(grpo_args.reward_weights) != len(task.reward_funcs):
        raise RecipeError(
            f"--reward_weights has {len(grpo_args.reward_weights)} weights for the task's "
            f"{len(task.reward_funcs)} reward functions "
            f"({', '.join(f.__name__ for f in task.reward_funcs)})"
        )
    if {"max_completion_length", "derive_max_completion_length"} <= named and run_args.derive_max_completion_length:
        raise RecipeError(
            "--max_completion_length and --derive_max_completion_length true both say how long a "
            "completion may be: keep one"
        )
    if run_args.negative_boost_cap and run_args.negative_boost_cap < 1:
        raise RecipeError(
            f"--negative_boost_cap {run_args.negative_boost_cap}: the boost's cap is at least 1 (0 turns it off)"
        )
    check_weight_average_decay(run_args.weight_average_decay)
    if run_args.weight_average_start < 0 or (run_args.weight_average_start and not run_args.weight_average_decay):
        raise RecipeError(
            f"--weight_average_start {run_args.weight_average_start}: the step the weight average begins at, 0 or "
            "more, and only with --weight_average_decay above 0"
        )
    if run_args.cut_word_credit and not run_args.word_credit:
        raise RecipeError("--cut_word_credit changes what per-word credit charges: it needs --word_credit above 0")
    if run_args.keep_word_signal_groups and not run_args.word_credit:
        raise RecipeError(
            "--keep_word_signal_groups keeps the groups that per-word credit learns from: it needs "
            "--word_credit above 0"
        )


def completion_length_source(run_args, grpo_args, task, tokenizer) -> str:
    """Fill ``max_completion_length`` with the task's budget where the user left it unset; say where it came from."""
    if "max_completion_length" in run_args.named:
        return "as set"
    if not run_args.derive_max_completion_length:
        return "TRL's default"
    grpo_args.max_completion_length = task.completion_budget(tokenizer)
    return "the task's budget"


def check_weight_average_decay(decay: float) -> None:
    """``--weight_average_decay`` of a GRPO run or a supervised one: 0 (off) or a share below 1."""
    if not 0.0 <= decay < 1.0:
        raise RecipeError(
            f"--weight_average_decay {decay}: the average keeps this share of itself per step, so it is below 1 "
            "(0.98 averages over ~50 steps; 0 turns it off)"
        )


def parse_profile_steps(spec: str | None) -> tuple[int, int] | None:
    """(first, last) optimizer step of ``--profile_steps A-B`` (1 <= A <= B); None when unset or empty; a RecipeError
    otherwise, raised as the arguments are read (training.callbacks.profile_steps profiles them)."""
    if spec in (None, ""):
        return None
    first, sep, last = str(spec).partition("-")
    if not (sep and first.strip().isdigit() and last.strip().isdigit()) or not 1 <= int(first) <= int(last):
        raise RecipeError(
            f"--profile_steps {spec!r}: give the optimizer steps to profile as A-B, e.g. 40-50 (1 <= A <= B)"
        )
    return int(first), int(last)
