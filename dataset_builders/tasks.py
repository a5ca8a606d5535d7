"""The task registry: ``get(name)`` gives the Task a name stands for.

Names: ``stage-1`` ... ``stage-6`` (the curriculum), ``words-N`` (interleave N words per text), ``arithmetic``
(3-digit x 2-digit) and ``arithmetic-AxB`` (A-digit x B-digit). ``mix`` gives the tasks a supervised run draws
from in turns: one per word count for the interleave family (``interleave``), else the one task.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dataset_builders.arithmetic.task import ArithmeticTask
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from dataset_builders.interleave_curriculum.task import InterleaveTask
from dataset_builders.task import Task

INTERLEAVE_FAMILY = "interleave"
_STAGE = re.compile(r"stage-(\d+)")
_WORDS = re.compile(r"words-(\d+)")
_ARITHMETIC = re.compile(r"arithmetic(?:-(\d+)x(\d+))?")


class UnknownTask(ValueError):
    """A name that stands for no task; the message lists the names there are."""


class BadWords(ValueError):
    """A words-per-text spec that is not counts and ranges such as ``4-25`` or ``4,10,25``."""


def parse_words(spec: str) -> list[int]:
    """``"4-25"`` -> [4, ..., 25]; ``"10"`` -> [10]; ``"4-6,10,500"`` -> [4, 5, 6, 10, 500]."""
    counts: set[int] = set()
    for part in str(spec).replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()) or int(first) < 1 or int(last or first) < int(first):
            raise BadWords(f"{spec!r}: expected word counts and ranges such as 4-25 or 4,10,25,50")
        counts.update(range(int(first), int(last or first) + 1))
    return sorted(counts)


def names() -> list[str]:
    """The curriculum's and the arithmetic control's task names, in table order."""
    return [f"stage-{stage}" for stage in STAGE_WORDS] + ["arithmetic"]


def get(name: str, seed: int = 0) -> Task:
    """The task ``name`` stands for, its problems drawn with ``seed``."""
    name = str(name)
    if match := _STAGE.fullmatch(name):
        if int(match[1]) in STAGE_WORDS:
            return InterleaveTask(name, STAGE_WORDS[int(match[1])], seed)
    elif match := _WORDS.fullmatch(name):
        if int(match[1]) >= 1:
            return InterleaveTask(name, int(match[1]), seed)
    elif match := _ARITHMETIC.fullmatch(name):
        digits = (int(match[1]), int(match[2])) if match[1] else (3, 2)
        if min(digits) >= 1:
            return ArithmeticTask(name, *digits, seed=seed)
    raise UnknownTask(
        f"no task {name!r}: tasks are {', '.join(names())}, words-N (N words per text) and "
        "arithmetic-AxB (A-digit x B-digit)"
    )


def mix(name: str, words: Sequence[int], seed: int = 0) -> list[Task]:
    """The tasks a supervised run mixes: ``words-N`` for each N of ``words`` for ``interleave``, else
    ``[get(name)]``."""
    if name == INTERLEAVE_FAMILY:
        return [get(f"words-{n}", seed) for n in words]
    return [get(name, seed)]


def sort_key(name: str) -> tuple:
    """Where task ``name`` goes in a table: the curriculum by length, then arithmetic."""
    return get(name).order
