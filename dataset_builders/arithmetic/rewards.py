"""Arithmetic rewards in TRL's reward signature: ``reward(prompts, completions, answer, **kwargs) -> list[float]``.

``completions`` are strings or conversational lists of messages (``[{"role": "assistant", "content": ...}]``);
the dataset's ``answer`` column arrives as a keyword argument. Scores come from :mod:`.scoring`.
"""

from __future__ import annotations

from dataset_builders.arithmetic.scoring import is_digits_only, score_completion
from dataset_builders.prompts import completion_text


def arithmetic_exact_reward(prompts, completions, answer, **kwargs) -> list[float]:
    """1.0 when the extracted answer is the product, else 0.0."""
    return [score_completion(completion_text(c), a).exact for c, a in zip(completions, answer, strict=True)]


def arithmetic_partial_reward(prompts, completions, answer, **kwargs) -> list[float]:
    """Partial credit: 1.0 exact, else the mean of digit and relative closeness; 0.0 without a number."""
    return [score_completion(completion_text(c), a).partial for c, a in zip(completions, answer, strict=True)]


def arithmetic_format_reward(prompts, completions, **kwargs) -> list[float]:
    """1.0 when the completion is digits only, as the prompt asks, else 0.0."""
    return [float(is_digits_only(completion_text(c))) for c in completions]


ARITHMETIC_REWARDS = (arithmetic_exact_reward, arithmetic_partial_reward, arithmetic_format_reward)
ARITHMETIC_REWARD_WEIGHTS = (1.0, 0.5, 0.25)  # exact, partial credit, digits-only format
