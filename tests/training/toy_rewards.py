"""Rewards for pipeline tests: they vary between random completions, so GRPO has advantages to learn from."""

from dataset_builders.prompts import completion_text


def letter_reward(prompts, completions, **kwargs) -> list[float]:
    """Share of a completion's characters that are ASCII letters."""
    texts = [completion_text(c) for c in completions]
    return [sum(ch.isascii() and ch.isalpha() for ch in t) / max(1, len(t)) for t in texts]
