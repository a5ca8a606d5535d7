"""What a run trains on: the problem stream, fresh problems for resampling, the rewards and the scored column.

A task reads problems by index (problem i = f(seed, i)), so a run's data position is one integer and a
resumed run continues from it. Resampled prompts (dynamic sampling) come from a separate index range
of the same train split, far beyond anything a run draws in order.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import datasets

from dataset_builders.arithmetic import ARITHMETIC_REWARDS, arithmetic_stream
from dataset_builders.interleave_curriculum import curriculum_stream, stage_words
from training.arguments import RecipeError
from dataset_builders.interleave_curriculum.rewards import INTERLEAVE_REWARD_WEIGHTS, INTERLEAVE_REWARDS

RESAMPLE_START = 5_000_000  # first index of the resampling range (a run draws problems 0, 1, 2, ... in order)
ARITHMETIC_REWARD_WEIGHTS = (1.0, 0.5, 0.25)  # exact, partial credit, digits-only format


@dataclass
class Task:
    """One training task: how to read problem ``i`` onward, its rewards and what a completion is scored against."""

    name: str
    stream: Callable[[int], datasets.IterableDataset]  # start index -> train problems from there on
    reward_funcs: tuple
    reward_weights: tuple[float, ...]
    reference_column: str  # the column a completion is compared with in logs ("target" or "answer")
    n_words: int | None = None  # words per fragment (interleave only)

    def train_stream(self, start_index: int = 0) -> datasets.IterableDataset:
        """Train problems ``start_index, start_index + 1, ...``."""
        return self.stream(start_index)

    def resample_problems(self, position: int = 0) -> Iterator[dict]:
        """Fresh problems for dynamic sampling, from the resampling range, starting ``position`` into it."""
        return iter(self.stream(RESAMPLE_START + position))


def interleave_task(stage: int, seed: int = 0) -> Task:
    """Curriculum stage ``stage``: interleave two fragments of the stage's word count."""
    return Task(name=f"stage-{stage}", stream=lambda start: curriculum_stream(stage=stage, seed=seed, start_index=start),
                reward_funcs=INTERLEAVE_REWARDS, reward_weights=INTERLEAVE_REWARD_WEIGHTS,
                reference_column="target", n_words=stage_words(stage))


def arithmetic_task(config: str = "3x2", seed: int = 0) -> Task:
    """The positive control: multiply two numbers, answer only."""
    return Task(name=f"arithmetic-{config}", stream=lambda start: arithmetic_stream(config, seed=seed, start_index=start),
                reward_funcs=ARITHMETIC_REWARDS, reward_weights=ARITHMETIC_REWARD_WEIGHTS, reference_column="answer")


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


def task_for(run_args) -> Task:
    """The task a run's arguments name; ``reward_funcs`` (dotted paths), if given, replace its rewards."""
    if run_args.task == "arithmetic":
        task = arithmetic_task(run_args.arithmetic_config, run_args.data_seed_problems)
    else:
        task = interleave_task(run_args.stage, run_args.data_seed_problems)
    if run_args.reward_funcs:
        task.reward_funcs = tuple(import_reward(name) for name in run_args.reward_funcs)
        task.reward_weights = (1.0,) * len(task.reward_funcs)
    return task
