"""The arithmetic task: multiplication problems of one digits config, their rewards, scoring and budget."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import datasets

from dataset_builders.arithmetic.builder import Arithmetic, digits_config_name
from dataset_builders.arithmetic.rewards import ARITHMETIC_REWARD_WEIGHTS, ARITHMETIC_REWARDS
from dataset_builders.arithmetic.scoring import score_completion
from dataset_builders.arithmetic.streaming import arithmetic_dataset, arithmetic_stream
from dataset_builders.task import Task

DATASET_FOLDER = "arithmetic"  # the published dataset (publishing.dataset_folders writes it)


class ArithmeticTask(Task):
    """The positive control: multiply two numbers of a digits config (``3x2``), answer only."""

    reference_column = "answer"
    score_name = "partial_credit"
    score_label = "partial credit"
    score_required = False  # eval files written before partial credit existed have none
    description = "Multiplication"
    dataset_folder = DATASET_FOLDER
    dataset_title = "Arithmetic control"
    credit_unit = "char"  # per-word credit scores each digit of the answer

    def __init__(self, name: str, a_digits: int = 3, b_digits: int = 2, seed: int = 0):
        super().__init__(seed)
        self.name, self.config = name, digits_config_name(a_digits, b_digits)
        self.dataset_config = None if self.config == Arithmetic.DEFAULT_CONFIG_NAME else self.config
        self.digits = a_digits + b_digits  # the product has at most this many digits
        self.order = (1, a_digits, b_digits)
        self.reward_funcs, self.reward_weights = ARITHMETIC_REWARDS, ARITHMETIC_REWARD_WEIGHTS

    @cached_property
    def _builder(self) -> Arithmetic:
        return Arithmetic(self.config, seed=self.seed)

    def stream(self, start_index: int) -> datasets.IterableDataset:
        return arithmetic_stream(self.config, seed=self.seed, start_index=start_index)

    def problems(self, split: str, size: int | None = None) -> datasets.Dataset:
        return arithmetic_dataset(split, self.config, seed=self.seed, size=size)

    def problem(self, split: str, index: int) -> dict:
        return self._builder.problems.problem(split, index)

    def expected_tokens(self, tokenizer) -> float:
        """The product's digits (one token each for the tokenizers the project uses)."""
        return self.digits

    def _scores(self, completions: Sequence[str], references: Sequence[str]) -> list[tuple[float, bool]]:
        scored = [score_completion(c, int(r)) for c, r in zip(completions, references, strict=True)]
        return [(s.partial, s.exact) for s in scored]
