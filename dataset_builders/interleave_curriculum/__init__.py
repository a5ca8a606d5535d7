"""The interleave curriculum: pairs of text fragments and their word-by-word interleave."""

from dataset_builders.interleave_curriculum.builder import InterleaveCurriculum, InterleaveCurriculumConfig
from dataset_builders.interleave_curriculum.mix import REGISTER_WEIGHTS, RegisterMix
from dataset_builders.interleave_curriculum.problems import InterleaveProblems, problem_id, stage_of
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS, stage_words
from dataset_builders.interleave_curriculum.streaming import curriculum_builder, curriculum_dataset, curriculum_stream

__all__ = [
    "REGISTER_WEIGHTS",
    "STAGE_WORDS",
    "InterleaveCurriculum",
    "InterleaveCurriculumConfig",
    "InterleaveProblems",
    "RegisterMix",
    "curriculum_builder",
    "curriculum_dataset",
    "curriculum_stream",
    "problem_id",
    "stage_of",
    "stage_words",
]
