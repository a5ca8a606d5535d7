"""Scrambled problems: texts whose words are shuffled, so that a word can only be copied, not guessed from the ones
before it (against leaning on the language model's prior of familiar prose, which a held-out register defeats).

Which problems are scrambled and how is a pure function of the problem's key and index: problem ``i`` is scrambled
when a keyed hash of ``i`` falls below the fraction (so the problems scrambled at 0.3 are among those scrambled at
0.5), and each of its two texts is reordered by a keyed permutation of its whitespace-split words (punctuation stays
on its word). No library RNG: every process agrees, and a problem can be regenerated on its own.
"""

from __future__ import annotations

import math
import numbers

from dataset_builders.indexing import KeyedPermutation, keyed_int

DRAWS = 1 << 53  # a problem's hash is uniform over range(DRAWS); fraction * DRAWS is exact for a float fraction


class BadScrambledFraction(ValueError):
    """A scrambled-fraction spec that is not a number from 0 to 1."""


def check_scrambled_fraction(fraction) -> None:
    """A ValueError unless ``fraction`` is a real number (not a bool) from 0 to 1."""
    if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real) or not 0 <= fraction <= 1:
        raise ValueError(f"the scrambled fraction must be a number from 0 to 1, got {fraction!r}")


def parse_scrambled_fraction(spec) -> float:
    """``"0.3"`` (a flag) or ``0.3`` (a recipe's number) -> 0.3; anything but a number from 0 to 1 is an error."""
    try:
        fraction = math.nan if isinstance(spec, bool) else float(spec)  # a recipe's true is no number
    except (TypeError, ValueError):
        fraction = math.nan
    if not 0 <= fraction <= 1:  # nan too
        raise BadScrambledFraction(f"{spec!r}: expected a number from 0 to 1 (the share of train problems), e.g. 0.3")
    return fraction


def scrambles(key: str, index: int, fraction: float) -> bool:
    """Whether problem ``index`` of the problems keyed ``key`` is scrambled, at ``fraction`` of them."""
    return fraction > 0 and keyed_int(f"{key}/index={index}", DRAWS) < fraction * DRAWS


def scrambled_text(text: str, key: str) -> str:
    """The words of ``text`` (split on whitespace) in the order of the keyed permutation ``key``, joined by spaces."""
    words = text.split()
    if not words:
        return text
    order = KeyedPermutation(len(words), key)
    return " ".join(words[order(i)] for i in range(len(words)))
