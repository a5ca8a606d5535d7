"""What training and evaluation call: a fresh-problem ``IterableDataset`` stream and a fixed held-out ``Dataset``."""

from __future__ import annotations

import datasets

from dataset_builders.arithmetic.builder import Arithmetic

STREAM_SIZE = 10_000_000  # problems a training stream can yield; pairs repeat only after all train pairs are used


def arithmetic_stream(config: str = "3x2", seed: int = 0, start_index: int = 0, num_examples: int = STREAM_SIZE,
                      **config_kwargs) -> datasets.IterableDataset:
    """Train problems ``start_index, start_index + 1, ...`` generated on the fly; resumable by index or state_dict."""
    builder = Arithmetic(config, seed=seed, start_index=start_index, train_size=num_examples, **config_kwargs)
    return builder.as_streaming_dataset(split="train")


def arithmetic_dataset(split: str, config: str = "3x2", seed: int = 0, size: int | None = None,
                       **config_kwargs) -> datasets.Dataset:
    """The first ``size`` problems of ``split`` (default: the config's size) as an in-memory ``Dataset``."""
    if split not in ("train", "validation", "test"):
        raise ValueError(f"unknown split {split!r}; expected train, validation or test")
    if size is not None:
        config_kwargs[f"{split}_size"] = size
    builder = Arithmetic(config, seed=seed, **config_kwargs)
    rows = list(builder.as_streaming_dataset(split=split))
    return datasets.Dataset.from_list(rows, features=builder.info.features, split=split)
