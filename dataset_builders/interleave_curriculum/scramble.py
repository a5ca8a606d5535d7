"""Scrambled problems: texts whose words are shuffled, so that a word can only be copied, not guessed from the ones
before it (against leaning on the language model's prior of familiar prose, which a held-out register defeats).

Which problems are scrambled and how is a pure function of the problem's key and index: problem ``i`` is scrambled
when it is in the keyed share of the fraction (``share.py``: the problems scrambled at 0.3 are among those scrambled
at 0.5), and each of its two texts is reordered by a keyed permutation of its whitespace-split words (punctuation
stays on its word). No library RNG: every process agrees, and a problem can be regenerated on its own.
"""

from __future__ import annotations

from dataset_builders.indexing import KeyedPermutation
from dataset_builders.interleave_curriculum.share import BadFraction, check_share, in_share, parse_share

BadScrambledFraction = BadFraction  # what parse_scrambled_fraction raises (one class for every share's spec)


def check_scrambled_fraction(fraction) -> None:
    """A ValueError unless ``fraction`` is a real number (not a bool) from 0 to 1."""
    check_share("scrambled fraction", fraction)


def parse_scrambled_fraction(spec) -> float:
    """``"0.3"`` (a flag) or ``0.3`` (a recipe's number) -> 0.3; anything but a number from 0 to 1 is an error."""
    return parse_share(spec)


def scrambles(key: str, index: int, fraction: float) -> bool:
    """Whether problem ``index`` of the problems keyed ``key`` is scrambled, at ``fraction`` of them."""
    return in_share(key, index, fraction)


def scrambled_text(text: str, key: str) -> str:
    """The words of ``text`` (split on whitespace) in the order of the keyed permutation ``key``, joined by spaces."""
    words = text.split()
    if not words:
        return text
    order = KeyedPermutation(len(words), key)
    return " ".join(words[order(i)] for i in range(len(words)))
