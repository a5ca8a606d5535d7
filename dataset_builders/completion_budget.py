"""The one completion budget: how many tokens a completion may run, for training, evaluation, cards and the Space.

``completion_budget`` is plain arithmetic with no project import at run time, so the demo Space vendors this file.
``tokens_per_word`` measures a tokenizer on corpus text; an interleave task calls it for its expected length.
"""

from __future__ import annotations

import math

MARGIN = 1.3  # room above the expected length: prose varies in tokens per word (1 in 256 targets needed more)
SLACK = 16  # tokens for the end token and a little overshoot


def completion_budget(expected_tokens: float, longest_reference_tokens: int = 0) -> int:
    """Tokens to let a completion run: the expected length x 1.3, at least the longest known reference, + 16."""
    return max(math.ceil(expected_tokens * MARGIN), longest_reference_tokens) + SLACK


def tokens_per_word(tokenizer, corpus, split: str = "train", sample_words: int = 50_000) -> float:
    """Mean tokens per whitespace word over ~``sample_words`` words spread evenly over a ``Corpus`` split's passages.

    Words are tokenized as they appear in an interleave: joined by single spaces, without special tokens.
    """
    passages = corpus.split(split)
    per_passage = 200
    stride = max(1, len(passages) * per_passage // sample_words)
    words = [w for p in passages[::stride] for w in p.text.split()[:per_passage]][:sample_words]
    if not words:
        raise ValueError(f"the {split} split of the corpus has no words to measure")
    chunk = 1000  # tokenize in chunks: one huge string is slow and may exceed model_max_length warnings
    tokens = sum(
        len(tokenizer(" ".join(words[i : i + chunk]), add_special_tokens=False)["input_ids"])
        for i in range(0, len(words), chunk)
    )
    return tokens / len(words)
