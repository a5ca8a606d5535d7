"""The interleave curriculum: pairs of text fragments and their word-by-word interleave."""

from dataset_builders.interleave_curriculum.stages import STAGE_WORDS, stage_words

__all__ = ["STAGE_WORDS", "stage_words"]
