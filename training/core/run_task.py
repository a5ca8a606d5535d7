"""The task a run trains on: the registry's task (``dataset_builders.tasks``), with the recipe's rewards if it names
any."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from dataset_builders import tasks
from dataset_builders.interleave_curriculum.continuation import slip_cuts
from dataset_builders.task import Task
from training.core.arguments import RecipeError, parse_fraction, parse_long_identifier_share, parse_register_weights


def import_reward(dotted: str) -> Callable:
    """The reward function at a dotted import path such as ``my_pkg.rewards.my_reward``."""
    module_name, _, attribute = dotted.rpartition(".")
    try:
        function = getattr(importlib.import_module(module_name), attribute) if module_name else None
    except (ImportError, AttributeError) as exc:
        raise RecipeError(f"cannot import reward function {dotted!r}: {exc}") from exc
    if not callable(function):
        raise RecipeError(f"reward function {dotted!r} must be a dotted path to a callable")
    return function


def with_train_draw(task: Task, args) -> Task:
    """``task`` with the flags of ``args`` (GRPO's ``RunArguments`` or the warm start's arguments) on how its train
    problems are drawn: ``--register_weights`` if given, and ``--scrambled_fraction``, ``--identifier_fraction``,
    ``--long_identifier_share``, ``--doubled_fraction`` and ``--repeated_fraction`` if not 0. A ValueError (a
    RecipeError for a bad value, or for a long identifier share without an identifier fraction) where they do not
    apply."""
    if args.register_weights:
        task = task.with_register_weights(parse_register_weights(args.register_weights))
    if fraction := parse_fraction("scrambled_fraction", args.scrambled_fraction):
        task = task.with_scrambled_fraction(fraction)
    if fraction := parse_fraction("identifier_fraction", args.identifier_fraction):
        task = task.with_identifier_fraction(fraction)
    if share := parse_long_identifier_share(args):
        task = task.with_long_identifier_share(share)
    if fraction := parse_fraction("doubled_fraction", args.doubled_fraction):
        task = task.with_doubled_fraction(fraction)
    if fraction := parse_fraction("repeated_fraction", args.repeated_fraction):
        task = task.with_repeated_fraction(fraction)
    return task


def task_for(run_args) -> Task:
    """The task a run's arguments name; ``train_words``, if given, the lengths its train problems take turns over;
    ``register_weights``, if given, the register mix of its train problems; ``scrambled_fraction`` and
    ``identifier_fraction``, if not 0, the shares of its train problems with shuffled texts and with synthetic
    identifiers (``long_identifier_share``, if not 0, the share of those identifiers that are long);
    ``doubled_fraction``, if not 0, the share of its train problems whose targets hold identical adjacent words;
    ``repeated_fraction``, if not 0, the share of its train problems whose texts hold a phrase repeated in both;
    ``continuation_words``, if not 0, its train problems as continuations
    scored on that many words (cut at the start adapter's slips where ``continuation_cuts`` names its evaluation);
    ``reward_funcs`` (dotted paths), if given, replace its rewards."""
    try:
        task = tasks.get(run_args.task, run_args.data_seed_problems)
        if run_args.train_words:
            task = task.with_train_words(tasks.parse_words(run_args.train_words))
        task = with_train_draw(task, run_args)
        if run_args.continuation_words:
            cuts = slip_cuts(run_args.continuation_cuts, task.name) if run_args.continuation_cuts else None
            task = task.with_continuation(run_args.continuation_words, cuts, run_args.continuation_slips_only)
    except tasks.BadWords as exc:
        raise RecipeError(f"--train_words {exc}") from None
    except ValueError as exc:  # an unknown task, or train lengths, registers, text shares or windows where none apply
        raise RecipeError(str(exc)) from None
    if run_args.reward_funcs:
        task = task.with_rewards([import_reward(name) for name in run_args.reward_funcs])
    return task
