"""Interleave problem ``i`` of a split: a pure function of (corpus, seed, split, n_words, i).

Index ``i`` goes through a keyed permutation of all fragment pairs of the split, so the first
``n_pairs`` problems of a split are all different pairs (no repeats within a run), any problem can be
regenerated on its own, and a run resumes from any index. Past ``n_pairs`` a new permutation starts.
"""

from __future__ import annotations

from collections.abc import Iterator

from dataset_builders.corpus import SPLITS, Corpus
from dataset_builders.indexing import KeyedPermutation
from dataset_builders.interleave_curriculum.fragments import FragmentPairs
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from dataset_builders.prompts import interleave_prompt, interleave_target

GENERATOR_VERSION = 1  # bump when problem i of a (seed, split) changes


def stage_of(n_words: int) -> int:
    """The curriculum stage with ``n_words`` words per fragment, 0 for a custom length."""
    return next((stage for stage, words in STAGE_WORDS.items() if words == n_words), 0)


def problem_id(n_words: int, split: str, seed: int, index: int) -> str:
    """The stable id of a problem, e.g. ``50w-test-seed0-0000012``."""
    return f"{n_words}w-{split}-seed{seed}-{index:07d}"


class InterleaveProblems:
    """The problems of one split of the curriculum for one fragment length and seed."""

    def __init__(self, corpus: Corpus, split: str, n_words: int, seed: int = 0):
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
        self.split, self.n_words, self.seed = split, n_words, seed
        self.stage = stage_of(n_words)
        self.pairs = FragmentPairs(corpus, split, n_words)
        self._permutations: dict[int, KeyedPermutation] = {}

    def _permutation(self, epoch: int) -> KeyedPermutation:
        if epoch not in self._permutations:
            key = (f"interleave-curriculum/v{GENERATOR_VERSION}/seed={self.seed}/split={self.split}"
                   f"/n_words={self.n_words}/epoch={epoch}")
            self._permutations[epoch] = KeyedPermutation(self.pairs.n_pairs, key)
        return self._permutations[epoch]

    def pair_index(self, index: int) -> int:
        """The fragment pair that problem ``index`` uses."""
        if index < 0:
            raise IndexError(f"problem index must be >= 0, got {index}")
        epoch, position = divmod(index, self.pairs.n_pairs)
        return self._permutation(epoch)(position)

    def __getitem__(self, index: int) -> dict:
        fragment_a, fragment_b = self.pairs.pair(self.pair_index(index))
        return {
            "id": problem_id(self.n_words, self.split, self.seed, index),
            "stage": self.stage,
            "n_words": self.n_words,
            "text_a": fragment_a.text,
            "text_b": fragment_b.text,
            "target": interleave_target(fragment_a.text, fragment_b.text),
            "prompt": interleave_prompt(fragment_a.text, fragment_b.text),
            "source_a": fragment_a.passage.id,
            "source_b": fragment_b.passage.id,
        }

    def iter_range(self, start: int, stop: int) -> Iterator[dict]:
        """Problems ``start .. stop - 1`` in order."""
        for index in range(start, stop):
            yield self[index]
