"""Interleave problem ``i`` of a split: a pure function of (corpus, seed, split, n_words, i).

Index ``i`` first picks the registers of Text A and Text B (``mix.py``: fixed weights, stratified), then the
``k``-th problem of that register pair goes through a keyed permutation of all its fragment pairs. So
problems never repeat until a register pair has used all its pairs (then a new permutation starts), any
problem can be regenerated on its own, and a run resumes from any index.
"""

from __future__ import annotations

from collections.abc import Iterator

from dataset_builders.corpus import ALL_SPLITS, Corpus
from dataset_builders.indexing import KeyedPermutation
from dataset_builders.interleave_curriculum.doubles import check_doubled_fraction, doubled_texts
from dataset_builders.interleave_curriculum.fragments import FragmentSlots
from dataset_builders.interleave_curriculum.identifiers import (
    check_identifier_fraction,
    check_long_identifier_share,
    identifier_text,
)
from dataset_builders.interleave_curriculum.mix import RegisterMix
from dataset_builders.interleave_curriculum.repeats import check_repeated_fraction, repeated_texts
from dataset_builders.interleave_curriculum.scramble import check_scrambled_fraction, scrambled_text, scrambles
from dataset_builders.interleave_curriculum.share import in_share
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from dataset_builders.prompts import interleave_prompt, interleave_target

GENERATOR_VERSION = 2  # bump when problem i of a (seed, split) changes (2: registers drawn by the mix)


def stage_of(n_words: int) -> int:
    """The curriculum stage with ``n_words`` words per fragment, 0 for a custom length."""
    return next((stage for stage, words in STAGE_WORDS.items() if words == n_words), 0)


def problem_id(n_words: int, split: str, seed: int, index: int) -> str:
    """The stable id of a problem, e.g. ``50w-test-seed0-0000012``."""
    return f"{n_words}w-{split}-seed{seed}-{index:07d}"


class InterleaveProblems:
    """The problems of one split of the curriculum for one fragment length and seed.

    ``register_weights`` overrides weights of ``mix.REGISTER_WEIGHTS`` (integers; 0 leaves a register out). In this
    order, each share choosing its problems independently (a key of its own): ``doubled_fraction`` of the problems (0:
    none) have words of their texts copied so that the target holds identical adjacent words (``doubles.py``), then
    ``repeated_fraction`` of them (0: none) have a phrase of their texts copied over other words of both, so that it
    repeats within a text and across the two (``repeats.py``), then ``identifier_fraction`` of them (0: none) have
    some of each text's words replaced by synthetic identifiers (``identifiers.py``; ``long_identifier_share`` of those
    identifiers long ones, of 3 or 4 components; 0: none), then ``scrambled_fraction`` of them (0: none) have each
    text's words shuffled (``scramble.py``), before the prompt and target are built from the texts. Doubling comes
    first, so its pairs are of the texts' own words; a problem also chosen by repeats may have a word of a pair
    overwritten by the phrase, one also chosen by identifiers may have a word of a pair or of a copy replaced, and one
    also scrambled has its pairs and copies moved apart.
    """

    def __init__(
        self,
        corpus: Corpus,
        split: str,
        n_words: int,
        seed: int = 0,
        register_weights: dict[str, int] | None = None,
        scrambled_fraction: float = 0.0,
        identifier_fraction: float = 0.0,
        long_identifier_share: float = 0.0,
        doubled_fraction: float = 0.0,
        repeated_fraction: float = 0.0,
    ):
        if split not in ALL_SPLITS:
            raise ValueError(f"unknown split {split!r}; expected one of {ALL_SPLITS}")
        check_scrambled_fraction(scrambled_fraction)
        check_identifier_fraction(identifier_fraction)
        check_long_identifier_share(long_identifier_share)
        check_doubled_fraction(doubled_fraction)
        check_repeated_fraction(repeated_fraction)
        self.split, self.n_words, self.seed = split, n_words, seed
        self.scrambled_fraction = float(scrambled_fraction)
        self.identifier_fraction = float(identifier_fraction)
        self.long_identifier_share = float(long_identifier_share)
        self.doubled_fraction = float(doubled_fraction)
        self.repeated_fraction = float(repeated_fraction)
        self.stage = stage_of(n_words)
        by_register: dict = {}
        for passage in corpus.split(split, min_words=n_words):
            by_register.setdefault(passage.register, []).append(passage)
        slots = {register: FragmentSlots(passages, n_words) for register, passages in by_register.items()}
        self._key = f"interleave-curriculum/v{GENERATOR_VERSION}/seed={seed}/split={split}/n_words={n_words}"
        self.mix = RegisterMix(slots, self._key + "/mix", register_weights)
        if not self.mix.cells:
            works = sum(len(table.work_ids) for table in slots.values())
            raise ValueError(
                f"the {split} split has {works} work(s) with passages of >= {n_words} words; "
                "a pair needs two different works (use fewer words per fragment or a larger corpus)"
            )
        self.work_ids = sorted(w for table in slots.values() for w in table.work_ids)
        self.n_pairs = sum(cell.pairs.n_pairs for cell in self.mix.cells)
        self._permutations: dict[tuple[int, int], KeyedPermutation] = {}

    def _permutation(self, cell: int, epoch: int) -> KeyedPermutation:
        if (cell, epoch) not in self._permutations:
            c = self.mix.cells[cell]
            key = f"{self._key}/cell={c.register_a}+{c.register_b}/epoch={epoch}"
            self._permutations[(cell, epoch)] = KeyedPermutation(c.pairs.n_pairs, key)
        return self._permutations[(cell, epoch)]

    def pair_index(self, index: int) -> tuple[int, int]:
        """(cell number, fragment pair of that cell) that problem ``index`` uses."""
        cell, k = self.mix.locate(index)
        epoch, position = divmod(k, self.mix.cells[cell].pairs.n_pairs)
        return cell, self._permutation(cell, epoch)(position)

    def scrambled(self, index: int) -> bool:
        """Whether problem ``index``'s texts have their words shuffled (a row does not say: a column would change
        every row of the published data)."""
        return scrambles(self._key + "/scramble", index, self.scrambled_fraction)

    def identified(self, index: int) -> bool:
        """Whether problem ``index``'s texts have words replaced by synthetic identifiers (a choice of its own key, so
        independent of ``scrambled``; a row does not say, as for scrambling)."""
        return in_share(self._key + "/identifiers", index, self.identifier_fraction)

    def doubled(self, index: int) -> bool:
        """Whether problem ``index``'s texts have words copied so that its target holds identical adjacent words (a
        choice of its own key, so independent of ``identified`` and ``scrambled``; a row does not say, as for
        scrambling)."""
        return in_share(self._key + "/doubles", index, self.doubled_fraction)

    def repeated(self, index: int) -> bool:
        """Whether problem ``index``'s texts have a phrase of theirs copied over other words of both, so that it
        repeats (a choice of its own key, so independent of ``doubled``, ``identified`` and ``scrambled``; a row does
        not say, as for scrambling)."""
        return in_share(self._key + "/repeats", index, self.repeated_fraction)

    def __getitem__(self, index: int) -> dict:
        cell, pair = self.pair_index(index)
        fragment_a, fragment_b = self.mix.cells[cell].pairs.pair(pair)
        text_a, text_b = fragment_a.text, fragment_b.text
        if self.doubled(index):  # first: pairs of the texts' own words (identifiers and scrambling act on them after)
            text_a, text_b = doubled_texts(text_a, text_b, f"{self._key}/doubles/index={index}")
        if self.repeated(index):  # then: a phrase of the texts as they are now, copied over other words of both
            text_a, text_b = repeated_texts(text_a, text_b, f"{self._key}/repeats/index={index}")
        if self.identified(index):  # before scrambling: a scrambled problem's identifiers are built from prose
            key = f"{self._key}/identifiers/index={index}"
            long_share = self.long_identifier_share
            text_a = identifier_text(text_a, key + "/text=a", long_share)
            text_b = identifier_text(text_b, key + "/text=b", long_share)
        if self.scrambled(index):
            key = f"{self._key}/scramble/index={index}"
            text_a, text_b = scrambled_text(text_a, key + "/text=a"), scrambled_text(text_b, key + "/text=b")
        return {
            "id": problem_id(self.n_words, self.split, self.seed, index),
            "stage": self.stage,
            "n_words": self.n_words,
            "text_a": text_a,
            "text_b": text_b,
            "target": interleave_target(text_a, text_b),
            "prompt": interleave_prompt(text_a, text_b),
            "source_a": fragment_a.passage.id,
            "source_b": fragment_b.passage.id,
            "register_a": fragment_a.passage.register,
            "register_b": fragment_b.passage.register,
        }

    def iter_range(self, start: int, stop: int) -> Iterator[dict]:
        """Problems ``start .. stop - 1`` in order."""
        for index in range(start, stop):
            yield self[index]
