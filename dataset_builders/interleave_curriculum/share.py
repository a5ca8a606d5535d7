"""A share of train problems: the one check, parser and keyed choice behind the train-draw levers that change some
problems' texts (``scramble.py``: shuffled words; ``identifiers.py``: synthetic identifiers; ``doubles.py``: identical
adjacent target words; ``repeats.py``: a phrase repeated within and across the texts), and the word split and keyed
choice of positions those that change single words share (``repeats.py`` the word split).

Item ``i`` of the items keyed ``key`` is in the share when a keyed hash of ``i`` falls below the fraction, so the items
in the share at 0.3 are among those at 0.5, and a lever with another key chooses independently. No library RNG: every
process agrees, and a problem can be regenerated on its own.
"""

from __future__ import annotations

import math
import numbers
import re

from dataset_builders.indexing import keyed_int

DRAWS = 1 << 53  # an item's hash is uniform over range(DRAWS); fraction * DRAWS is exact for a float fraction


class BadFraction(ValueError):
    """A fraction spec (a flag's string or a recipe's value) that is not a number from 0 to 1."""


def check_share(what: str, fraction) -> None:
    """A ValueError naming ``what`` (e.g. ``"scrambled fraction"``) unless ``fraction`` is a real number (not a bool)
    from 0 to 1."""
    if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real) or not 0 <= fraction <= 1:
        raise ValueError(f"the {what} must be a number from 0 to 1, got {fraction!r}")


def parse_share(spec) -> float:
    """``"0.3"`` (a flag) or ``0.3`` (a recipe's number) -> 0.3; anything but a number from 0 to 1 is a
    ``BadFraction``."""
    try:
        fraction = math.nan if isinstance(spec, bool) else float(spec)  # a recipe's true is no number
    except (TypeError, ValueError):
        fraction = math.nan
    if not 0 <= fraction <= 1:  # nan too
        raise BadFraction(f"{spec!r}: expected a number from 0 to 1 (the share of train problems), e.g. 0.3")
    return fraction


def share_draw(key: str, index: int) -> int:
    """Item ``index``'s keyed hash, uniform over ``range(DRAWS)``."""
    return keyed_int(f"{key}/index={index}", DRAWS)


def in_share(key: str, index: int, fraction: float) -> bool:
    """Whether item ``index`` of the items keyed ``key`` is in the share ``fraction`` of them."""
    return fraction > 0 and share_draw(key, index) < fraction * DRAWS


def share_positions(count: int, key: str, share: float) -> list[int]:
    """The positions, of ``count``, in the share ``share`` of the items keyed ``key``, or the one with the lowest
    draw when none is (so that a text chosen for a lever holds one change at least)."""
    draws = [share_draw(key, i) for i in range(count)]
    chosen = [i for i, draw in enumerate(draws) if draw < share * DRAWS]
    return chosen or ([min(range(count), key=draws.__getitem__)] if count else [])


def word_pieces(text: str) -> tuple[list[str], list[int]]:
    """``text`` split so that its words can be changed in place: the pieces (words at even places, the whitespace
    between them at odd ones; an empty piece where the text opens or closes with space) and the places of the words."""
    pieces = re.split(r"(\s+)", text)
    return pieces, [p for p in range(0, len(pieces), 2) if pieces[p]]
