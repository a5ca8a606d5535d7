"""The arithmetic positive control: a * b, answer only, with scoring and TRL rewards next to the generator."""

from dataset_builders.arithmetic.builder import Arithmetic, ArithmeticConfig
from dataset_builders.arithmetic.problems import ArithmeticProblems, problem_id
from dataset_builders.arithmetic.rewards import (
    ARITHMETIC_REWARDS,
    arithmetic_exact_reward,
    arithmetic_format_reward,
    arithmetic_partial_reward,
)
from dataset_builders.arithmetic.scoring import (
    ArithmeticScore,
    digit_closeness,
    extract_answer,
    is_digits_only,
    partial_credit,
    relative_closeness,
    score_completion,
)
from dataset_builders.arithmetic.streaming import arithmetic_dataset, arithmetic_stream

__all__ = [
    "ARITHMETIC_REWARDS",
    "Arithmetic",
    "ArithmeticConfig",
    "ArithmeticProblems",
    "ArithmeticScore",
    "arithmetic_dataset",
    "arithmetic_exact_reward",
    "arithmetic_format_reward",
    "arithmetic_partial_reward",
    "arithmetic_stream",
    "digit_closeness",
    "extract_answer",
    "is_digits_only",
    "partial_credit",
    "problem_id",
    "relative_closeness",
    "score_completion",
]
