"""Completion budget of a stage: tokens per word measured on the model's tokenizer over corpus text."""

from __future__ import annotations

import math

from dataset_builders.corpus import Corpus


def tokens_per_word(tokenizer, corpus: Corpus, split: str = "train", sample_words: int = 50_000) -> float:
    """Mean tokens per whitespace word over ~``sample_words`` words spread evenly over a split's passages.

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
        len(tokenizer(" ".join(words[i:i + chunk]), add_special_tokens=False)["input_ids"])
        for i in range(0, len(words), chunk)
    )
    return tokens / len(words)


def max_completion_length(n_words: int, per_word: float, margin: float = 1.3, slack: int = 16) -> int:
    """Tokens for an interleave of two ``n_words`` fragments: 2 * n_words * per_word * margin + slack (end token)."""
    return math.ceil(2 * n_words * per_word * margin) + slack
