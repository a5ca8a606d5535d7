"""The register mix: which registers Text A and Text B of problem ``i`` come from, with fixed weights.

Text A's register and Text B's register are drawn independently, register ``r`` with weight
``REGISTER_WEIGHTS[r]``, so the ordered pair ``(ra, rb)`` (a *cell*) has weight ``w[ra] * w[rb]``. The draw
is stratified, not random: indices are taken in cycles of ``W = sum of the cell weights``, and within each
cycle a keyed permutation of ``range(W)`` gives every cell exactly its weight's number of problems. So the
shares hold exactly over every ``W`` consecutive problems, and the ``k``-th problem of a cell is a pure
function of the index (the cell then picks its ``k``-th fragment pair). A cell with no pair of fragments at a
length (a register with one work, or none long enough) is left out and the others keep their weights.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from dataset_builders.indexing import KeyedPermutation
from dataset_builders.interleave_curriculum.fragments import FragmentPairs, FragmentSlots

# Equal weights: each register gives a fifth of the texts of train, validation and test, however many words it
# has (the speeches are a third of the training words, the plays a seventh). A register not named here weighs 1.
REGISTER_WEIGHTS = {"speech": 1, "fiction": 1, "dialogue": 1, "reference": 1, "numeric": 1, "technical": 1}
DEFAULT_WEIGHT = 1


class BadRegisterWeights(ValueError):
    """A register-weights spec that is not ``register=weight`` pairs of known registers and positive integers."""


def check_register_weights(weights: dict[str, int]) -> None:
    """A ValueError unless ``weights`` maps registers to integers >= 0 (0 leaves the register out)."""
    if not isinstance(weights, dict):
        raise ValueError(f"register weights must be a dict of register -> weight, got {weights!r}")
    for register, weight in weights.items():
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            raise ValueError(f"register weight of {register!r} must be an integer >= 0, got {weight!r}")


def parse_register_weights(spec: str) -> dict[str, int]:
    """``"numeric=2,speech=3"`` -> ``{"numeric": 2, "speech": 3}``: registers of ``REGISTER_WEIGHTS``, weights
    positive whole numbers (a register not named keeps its weight)."""
    known = ", ".join(REGISTER_WEIGHTS)
    weights: dict[str, int] = {}
    for part in str(spec).replace(" ", "").split(","):
        register, equals, weight = part.partition("=")
        if not equals:
            raise BadRegisterWeights(f"{spec!r}: expected register=weight pairs such as numeric=2,speech=3")
        if register not in REGISTER_WEIGHTS:
            raise BadRegisterWeights(f"{spec!r}: no register {register!r}; registers are {known}")
        if not re.fullmatch(r"[0-9]+", weight) or int(weight) < 1:
            raise BadRegisterWeights(
                f"{spec!r}: the weight of {register} must be a positive whole number, not {weight!r}"
            )
        if register in weights:
            raise BadRegisterWeights(f"{spec!r}: {register} is named twice")
        weights[register] = int(weight)
    return weights


@dataclass(frozen=True)
class Cell:
    """Text A from ``register_a``, Text B from ``register_b``: ``weight`` problems of every cycle, from ``start`` on."""

    register_a: str
    register_b: str
    weight: int
    start: int
    pairs: FragmentPairs


class RegisterMix:
    """The cells of one split and length, and the stratified schedule that maps a problem index to (cell, k)."""

    def __init__(self, slots: dict[str, FragmentSlots], key: str, weights: dict[str, int] | None = None):
        weights = {**REGISTER_WEIGHTS, **(weights or {})}
        check_register_weights(weights)
        self.key = key
        self.cells: list[Cell] = []
        start = 0
        registers = sorted(r for r, table in slots.items() if table.n_slots and weights.get(r, DEFAULT_WEIGHT) > 0)
        for register_a in registers:
            for register_b in registers:
                pairs = FragmentPairs(slots[register_a], None if register_a == register_b else slots[register_b])
                if pairs.n_pairs == 0:
                    continue
                weight = weights.get(register_a, DEFAULT_WEIGHT) * weights.get(register_b, DEFAULT_WEIGHT)
                self.cells.append(Cell(register_a, register_b, weight, start, pairs))
                start += weight
        self.cycle = start
        self._starts = [cell.start for cell in self.cells]
        self._last: tuple[int, KeyedPermutation] | None = None  # consecutive indices share a cycle

    def locate(self, index: int) -> tuple[int, int]:
        """(cell number, k): problem ``index`` is the ``k``-th problem drawn from that cell."""
        if index < 0:
            raise IndexError(f"problem index must be >= 0, got {index}")
        cycle, offset = divmod(index, self.cycle)
        if self._last is None or self._last[0] != cycle:
            self._last = (cycle, KeyedPermutation(self.cycle, f"{self.key}/cycle={cycle}"))
        position = self._last[1](offset)
        number = bisect.bisect_right(self._starts, position) - 1
        cell = self.cells[number]
        return number, cycle * cell.weight + position - cell.start

    def shares(self) -> dict[str, float]:
        """The share of texts (Text A, and equally Text B) that each register gives."""
        shares: dict[str, float] = {}
        for cell in self.cells:
            shares[cell.register_a] = shares.get(cell.register_a, 0.0) + cell.weight / self.cycle
        return shares
