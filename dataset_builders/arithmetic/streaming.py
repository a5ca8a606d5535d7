"""What training and evaluation call: a fresh-problem ``IterableDataset`` stream and a fixed held-out ``Dataset``."""

from __future__ import annotations

import datasets

from dataset_builders.arithmetic.builder import Arithmetic
from dataset_builders.indexing import size_override, split_dataset

STREAM_SIZE = 10_000_000  # problems a training stream can yield; pairs repeat only after all train pairs are used


def arithmetic_stream(
    config: str = "3x2", seed: int = 0, start_index: int = 0, num_examples: int = STREAM_SIZE, **config_kwargs
) -> datasets.IterableDataset:
    """Train problems ``start_index, start_index + 1, ...`` generated on the fly; resumable by index or state_dict."""
    builder = Arithmetic(config, seed=seed, start_index=start_index, train_size=num_examples, **config_kwargs)
    return builder.as_streaming_dataset(split="train")


def arithmetic_dataset(
    split: str, config: str = "3x2", seed: int = 0, size: int | None = None, **config_kwargs
) -> datasets.Dataset:
    """The first ``size`` problems of ``split`` (default: the config's size) as an in-memory ``Dataset``."""
    builder = Arithmetic(config, seed=seed, **{**config_kwargs, **size_override(split, size)})
    return split_dataset(builder, split)
