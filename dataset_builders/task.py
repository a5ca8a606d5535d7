"""A task: problems by split and index, its rewards and their weights, per-problem scoring and a completion budget.

Each task package pairs its generator with its scorer, as reasoning-gym does (``interleave_curriculum/task.py``,
``arithmetic/task.py``); ``dataset_builders.tasks.get(name)`` finds one. Training, evaluation, the warm start, the
model cards and the demo ask the task; nothing outside the task modules tests a task's name.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence

import datasets

from dataset_builders.completion_budget import completion_budget
from dataset_builders.prompts import completion_text

RESAMPLE_START = 5_000_000  # first index of the resampling range (a run draws problems 0, 1, 2, ... in order)


def taking_turns(streams: Sequence[Callable[[int], datasets.IterableDataset]], start: int, offset: int = 0):
    """One stream of problems ``start, start + 1, ...`` in which the ``streams`` take turns: position ``i`` is problem
    ``offset + i // k`` of stream ``i % k`` (k streams), so a run that resumes at ``start`` continues the same order."""
    k = len(streams)
    turns = [(start + t) % k for t in range(k)]  # the stream of position start, then the next ones
    parts = [streams[j](offset + (start + t) // k) for t, j in enumerate(turns)]
    return parts[0] if k == 1 else datasets.interleave_datasets(parts, stopping_strategy="first_exhausted")


def first_difference(completion: list[str], reference: list[str]) -> int | None:
    """Index of the first word where ``completion`` and ``reference`` differ (None: the same words)."""
    for i, (got, want) in enumerate(zip(completion, reference)):
        if got != want:
            return i
    return None if len(completion) == len(reference) else min(len(completion), len(reference))


class Task(ABC):
    """One task. Subclasses set the attributes below and implement the abstract methods."""

    name: str  # the registry name, e.g. stage-3 or arithmetic-3x2
    reference_column: str  # the dataset column a completion is compared with ("target", "answer")
    score_name: str  # the eval row field that holds the main score ("nw_score", "partial_credit")
    score_label: str  # how reports name that score ("NW", "partial credit")
    score_required = True  # whether every eval row of the task must hold the main score
    reward_funcs: tuple[Callable, ...]
    reward_weights: tuple[float, ...]
    words: int | None = None  # words per text, for interleave tasks
    curriculum_stage: int | None = None  # the curriculum stage this task is, if any
    previous: str | None = None  # the task whose final adapter a run of this one starts from by default
    description: str  # what the model does, for cards ("Interleaving two texts")
    dataset_folder: str  # the published dataset (folder and repo name) the problems come from
    dataset_config: str | None  # its config (None: the default config)
    dataset_title: str  # the dataset as a card names it
    order: tuple = ()  # where the task sorts in tables
    held_out_splits: tuple[str, ...] = ("validation", "test")  # the splits evaluation can score it on
    # what per-word credit scores one unit of: "word" (whitespace words) or "char" (each non-space character)
    credit_unit = "word"

    def __init__(self, seed: int = 0):
        self.seed = seed

    @abstractmethod
    def stream(self, start_index: int) -> datasets.IterableDataset:
        """Train problems ``start_index, start_index + 1, ...`` of this task's seed."""

    @abstractmethod
    def problems(self, split: str, size: int | None = None) -> datasets.Dataset:
        """The first ``size`` problems of ``split`` (default: the dataset config's size)."""

    @abstractmethod
    def problem(self, split: str, index: int) -> dict:
        """Problem ``index`` of ``split`` (a dataset row)."""

    @abstractmethod
    def expected_tokens(self, tokenizer) -> float:
        """The expected length of a correct completion, in ``tokenizer``'s tokens."""

    @abstractmethod
    def _scores(self, completions: Sequence[str], references: Sequence[str]) -> list[tuple[float, bool]]:
        """(score, exact) of each completion against its reference."""

    def train_stream(self, start_index: int = 0) -> datasets.IterableDataset:
        """Train problems ``start_index, start_index + 1, ...``."""
        return self.stream(start_index)

    def resample_problems(self, position: int = 0) -> Iterator[dict]:
        """Fresh problems for dynamic sampling, from the resampling range, starting ``position`` into it."""
        return iter(self.stream(RESAMPLE_START + position))

    def stream_lengths(self, row: dict) -> tuple[int, int] | None:
        """The word counts of the two texts a completion of ``row`` interleaves (None: the task has no streams)."""
        return None

    def reference(self, row: dict) -> str:
        """The text a correct completion of ``row`` is."""
        return str(row[self.reference_column])

    def supervised_row(self, row: dict) -> dict:
        """``row`` as a prompt-completion pair in TRL's conversational format (the reference as the answer)."""
        return {"prompt": row["prompt"], "completion": [{"role": "assistant", "content": self.reference(row)}]}

    def train_prompt_tokens(self, tokenizer) -> int:
        """The widest train prompt to expect, in ``tokenizer``'s tokens with the chat template (0: no estimate)."""
        return 0

    def completion_budget(self, tokenizer, references: Sequence[str] = ()) -> int:
        """Tokens a completion may run: the one budget formula on this task's expected length and ``references``."""
        longest = max((len(tokenizer(r, add_special_tokens=False)["input_ids"]) for r in references), default=0)
        return completion_budget(self.expected_tokens(tokenizer), longest)

    def score_batch(self, completions: Sequence, rows: Sequence[dict]) -> list[dict]:
        """The per-problem record of each completion: score, exact match, lengths in words, first differing word."""
        texts = [completion_text(c) for c in completions]
        references = [self.reference(row) for row in rows]
        records = []
        for text, reference, (score, exact) in zip(texts, references, self._scores(texts, references), strict=True):
            got, want = text.split(), reference.split()
            records.append(
                {
                    "score": float(score),
                    "exact": bool(exact),
                    "completion_words": len(got),
                    "reference_words": len(want),
                    "first_difference": first_difference(got, want),
                }
            )
        return records

    def score(self, completion, row: dict) -> dict:
        """The per-problem record of one completion (see ``score_batch``)."""
        return self.score_batch([completion], [row])[0]

    def with_train_words(self, words: Sequence[int]) -> Task:
        """A copy that trains on problems of ``words`` words per text (interleave tasks only)."""
        raise ValueError(f"{self.name} has no words per text to vary: train lengths apply to the interleave tasks")

    def with_register_weights(self, weights: dict[str, int]) -> Task:
        """A copy whose train problems draw their texts' registers with ``weights`` (interleave tasks only)."""
        raise ValueError(f"{self.name} draws no texts of registers: register weights apply to the interleave tasks")

    def with_scrambled_fraction(self, fraction: float) -> Task:
        """A copy whose train problems have, ``fraction`` of them, their texts' words shuffled (interleave tasks
        only)."""
        raise ValueError(f"{self.name} has no texts to scramble: a scrambled fraction applies to the interleave tasks")

    def with_identifier_fraction(self, fraction: float) -> Task:
        """A copy whose train problems have, ``fraction`` of them, synthetic identifiers in their texts (interleave
        tasks only)."""
        raise ValueError(
            f"{self.name} has no texts to put identifiers in: an identifier fraction applies to the interleave tasks"
        )

    def with_long_identifier_share(self, share: float) -> Task:
        """A copy whose train problems' identifiers are, ``share`` of them, long ones (interleave tasks only)."""
        raise ValueError(
            f"{self.name} has no texts to put identifiers in: a long identifier share applies to the interleave tasks"
        )

    def with_doubled_fraction(self, fraction: float) -> Task:
        """A copy whose train problems have, ``fraction`` of them, identical adjacent words in their targets
        (interleave tasks only)."""
        raise ValueError(
            f"{self.name} has no texts to double words in: a doubled fraction applies to the interleave tasks"
        )

    def with_repeated_fraction(self, fraction: float) -> Task:
        """A copy whose train problems have, ``fraction`` of them, a phrase repeated within and across their texts
        (interleave tasks only)."""
        raise ValueError(
            f"{self.name} has no texts to repeat a phrase in: a repeated fraction applies to the interleave tasks"
        )

    def with_continuation(self, words: int, cuts: dict[str, int] | None = None, slips_only: bool = False) -> Task:
        """A copy whose train problems are continuations scored on a window of ``words`` words, cut where ``cuts``
        says (interleave tasks only)."""
        raise ValueError(
            f"{self.name} has no interleave to continue: continuation windows apply to the interleave tasks"
        )

    def with_rewards(self, reward_funcs: Sequence[Callable], reward_weights: Sequence[float] | None = None) -> Task:
        """A copy of this task with other rewards (equal weights unless given)."""
        task = copy.copy(self)
        task.reward_funcs = tuple(reward_funcs)
        task.reward_weights = tuple(reward_weights) if reward_weights is not None else (1.0,) * len(task.reward_funcs)
        return task

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, seed={self.seed})"
