"""Multiplication problem ``i`` of a split: a pure function of (digits, seed, held-out reserve, split, i).

All operand pairs are numbered and put through one keyed permutation per seed. Its first positions are
reserved for the held-out splits (test, then validation), drawn before train; train walks the remaining
positions through a second permutation. Train therefore never meets a test or validation pair and never
repeats a pair until it has used all of them. When both operands have the same number of digits a pair is
unordered (``a * b`` and ``b * a`` are one pair), so a held-out product is not trained in the other order.
"""

from __future__ import annotations

import logging
from math import isqrt

from dataset_builders.indexing import KeyedPermutation, keyed_int
from dataset_builders.prompts import arithmetic_prompt

logger = logging.getLogger(__name__)

GENERATOR_VERSION = 1  # bump when problem i of a (seed, split) changes
HELD_OUT_PER_SPLIT = 1024  # positions reserved for each of test and validation: their largest size
SPLITS = ("train", "validation", "test")


def operand_range(digits: int) -> range:
    """Integers with exactly ``digits`` digits (1 digit: 1-9)."""
    if not 1 <= digits <= 18:
        raise ValueError(f"operands need 1-18 digits, got {digits}")
    return range(1 if digits == 1 else 10 ** (digits - 1), 10**digits)


def problem_id(a_digits: int, b_digits: int, split: str, seed: int, index: int) -> str:
    """The stable id of a problem, e.g. ``3x2-test-seed0-0000012``."""
    return f"{a_digits}x{b_digits}-{split}-seed{seed}-{index:07d}"


class ArithmeticProblems:
    """The problems ``a * b`` with ``a_digits``- and ``b_digits``-digit operands for one seed."""

    def __init__(
        self, a_digits: int = 3, b_digits: int = 2, seed: int = 0, held_out_per_split: int = HELD_OUT_PER_SPLIT
    ):
        self.a_digits, self.b_digits, self.seed = a_digits, b_digits, seed
        self.a_range, self.b_range = operand_range(a_digits), operand_range(b_digits)
        self.unordered = a_digits == b_digits
        n = len(self.a_range)
        self.n_pairs = n * (n + 1) // 2 if self.unordered else len(self.a_range) * len(self.b_range)
        self.held_out_per_split = held_out_per_split
        self.n_train = self.n_pairs - 2 * held_out_per_split
        if held_out_per_split < 1 or self.n_train < 1:
            raise ValueError(
                f"{a_digits}x{b_digits} digits give {self.n_pairs:,} operand pairs: too few to hold out "
                f"{held_out_per_split:,} per held-out split and still train (lower held_out_per_split)"
            )
        self._key = f"arithmetic/v{GENERATOR_VERSION}/{a_digits}x{b_digits}/seed={seed}"
        self._pairs = KeyedPermutation(self.n_pairs, self._key + "/pairs")
        self._train_orders: dict[int, KeyedPermutation] = {}

    def operands(self, pair: int) -> tuple[int, int]:
        """The operands (a, b) of pair number ``pair`` (before the permutation)."""
        if self.unordered:
            row = (isqrt(8 * pair + 1) - 1) // 2
            low, high = pair - row * (row + 1) // 2, row
            if keyed_int(f"{self._key}/order/{pair}", 2):
                low, high = high, low
            return self.a_range[low], self.b_range[high]
        a_index, b_index = divmod(pair, len(self.b_range))
        return self.a_range[a_index], self.b_range[b_index]

    def position(self, split: str, index: int) -> int:
        """The permutation position of problem ``index`` of ``split``: test and validation first, then train."""
        if index < 0:
            raise IndexError(f"problem index must be >= 0, got {index}")
        if split in ("test", "validation"):
            if index >= self.held_out_per_split:
                raise IndexError(f"{split} holds at most {self.held_out_per_split} problems (held_out_per_split)")
            return index + (0 if split == "test" else self.held_out_per_split)
        if split != "train":
            raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
        epoch, offset = divmod(index, self.n_train)
        if epoch not in self._train_orders:
            if epoch:
                logger.warning(
                    "%dx%d train problems wrap around after %d: epoch %d repeats pairs in a new order",
                    self.a_digits,
                    self.b_digits,
                    self.n_train,
                    epoch,
                )
            self._train_orders[epoch] = KeyedPermutation(self.n_train, f"{self._key}/train/epoch={epoch}")
        return 2 * self.held_out_per_split + self._train_orders[epoch](offset)

    def pair(self, split: str, index: int) -> tuple[int, int]:
        """The operands of problem ``index`` of ``split``."""
        return self.operands(self._pairs(self.position(split, index)))

    def problem(self, split: str, index: int) -> dict:
        """Problem ``index`` of ``split`` as a dataset row."""
        a, b = self.pair(split, index)
        return {
            "id": problem_id(self.a_digits, self.b_digits, split, self.seed, index),
            "a": a,
            "b": b,
            "answer": a * b,
            "prompt": arithmetic_prompt(a, b),
        }

    def held_out_pairs(self) -> set[frozenset[int] | tuple[int, int]]:
        """Every pair reserved for test and validation (as sets of operands when order does not matter)."""
        pairs = (self.operands(self._pairs(p)) for p in range(2 * self.held_out_per_split))
        return {frozenset(pr) if self.unordered else pr for pr in pairs}
