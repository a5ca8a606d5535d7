"""The interleave task: problems of one fragment length, its rewards, NW scoring and its completion budget."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import datasets

from dataset_builders.completion_budget import tokens_per_word
from dataset_builders.corpus.passages import ALL_SPLITS
from dataset_builders.interleave_curriculum.builder import config_name_for
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.rewards import INTERLEAVE_REWARD_WEIGHTS, INTERLEAVE_REWARDS
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from dataset_builders.interleave_curriculum.streaming import curriculum_dataset, curriculum_stream
from dataset_builders.task import Task

DATASET_FOLDER = "interleave-curriculum"  # the published dataset (publishing.dataset_folders writes it)
_PER_WORD: dict[tuple, float] = {}  # tokens per word of each tokenizer seen (measuring takes ~1 s)


def corpus_tokens_per_word(tokenizer) -> float:
    """Mean tokens per word of ``tokenizer`` over train-split corpus text, measured once per tokenizer."""
    from dataset_builders.corpus import load_corpus

    key = (getattr(tokenizer, "name_or_path", None), len(tokenizer))
    if key not in _PER_WORD:
        _PER_WORD[key] = tokens_per_word(tokenizer, load_corpus(), "train")
    return _PER_WORD[key]


class InterleaveTask(Task):
    """Interleave two fragments of ``n_words`` words, word by word (a curriculum stage, or any length)."""

    reference_column = "target"
    score_name = "nw_score"
    score_label = "NW"
    description = "Interleaving two texts"
    dataset_folder = DATASET_FOLDER
    held_out_splits = tuple(split for split in ALL_SPLITS if split != "train")  # out_of_register too

    def __init__(self, name: str, n_words: int, seed: int = 0):
        super().__init__(seed)
        self.name, self.words = name, n_words
        self.curriculum_stage = next((s for s, w in STAGE_WORDS.items() if w == n_words), None)
        before = self.curriculum_stage - 1 if self.curriculum_stage else 0
        self.previous = f"stage-{before}" if before in STAGE_WORDS else None
        self.dataset_config = config_name_for(n_words)
        self.dataset_title = f"Interleave curriculum {self.dataset_config}"
        self.order = (0, n_words)
        self.reward_funcs, self.reward_weights = INTERLEAVE_REWARDS, INTERLEAVE_REWARD_WEIGHTS

    @cached_property
    def _train_problems(self) -> InterleaveProblems:
        from dataset_builders.corpus import load_corpus

        return InterleaveProblems(load_corpus(), "train", self.words, self.seed)

    def stream(self, start_index: int) -> datasets.IterableDataset:
        return curriculum_stream(n_words=self.words, seed=self.seed, start_index=start_index)

    def problems(self, split: str, size: int | None = None) -> datasets.Dataset:
        return curriculum_dataset(split, n_words=self.words, seed=self.seed, size=size)

    def problem(self, split: str, index: int) -> dict:
        if split == "train":
            return self._train_problems[index]
        from dataset_builders.corpus import load_corpus

        return InterleaveProblems(load_corpus(), split, self.words, self.seed)[index]

    def stream_lengths(self, row: dict) -> tuple[int, int]:
        """The words of Text A and of Text B: the target alternates between them while both last."""
        return len(row["text_a"].split()), len(row["text_b"].split())

    def expected_tokens(self, tokenizer) -> float:
        """Two fragments of ``n_words`` words at the tokenizer's mean tokens per word of corpus prose."""
        return 2 * self.words * corpus_tokens_per_word(tokenizer)

    def _scores(self, completions: Sequence[str], references: Sequence[str]) -> list[tuple[float, bool]]:
        from metrics.needleman_wunsch.nw_alignment import nw_scores

        scores = nw_scores(list(completions), list(references))
        return [(score, c.split() == r.split()) for score, c, r in zip(scores, completions, references, strict=True)]
