"""What training and evaluation call: a fresh-problem ``IterableDataset`` stream and a fixed held-out ``Dataset``."""

from __future__ import annotations

import datasets

from dataset_builders.corpus import ALL_SPLITS, OUT_OF_REGISTER, OUT_OF_REGISTER_VALIDATION, Corpus
from dataset_builders.indexing import size_override, split_dataset
from dataset_builders.interleave_curriculum.builder import InterleaveCurriculum
from dataset_builders.interleave_curriculum.stages import stage_words

STREAM_SIZE = 10_000_000  # problems a training stream can yield; every one differs from the others


def curriculum_builder(
    stage: int | None = None, n_words: int | None = None, corpus: Corpus | None = None, **config_kwargs
) -> InterleaveCurriculum:
    """The builder for curriculum ``stage`` (1-6) or for ``n_words`` words per fragment."""
    if (stage is None) == (n_words is None):
        raise ValueError("give exactly one of stage and n_words")
    return InterleaveCurriculum(
        n_words=stage_words(stage) if stage is not None else n_words, corpus=corpus, **config_kwargs
    )


def curriculum_stream(
    stage: int | None = None,
    n_words: int | None = None,
    seed: int = 0,
    start_index: int = 0,
    num_examples: int = STREAM_SIZE,
    corpus: Corpus | None = None,
    register_weights: dict[str, int] | None = None,
    scrambled_fraction: float = 0.0,
    identifier_fraction: float = 0.0,
    long_identifier_share: float = 0.0,
    doubled_fraction: float = 0.0,
    repeated_fraction: float = 0.0,
) -> datasets.IterableDataset:
    """Train problems ``start_index, start_index + 1, ...`` generated on the fly; resumable by index or state_dict.

    ``register_weights`` overrides weights of the register mix (``mix.REGISTER_WEIGHTS``; None: the fixed mix);
    ``scrambled_fraction`` of the problems have their texts' words shuffled (``scramble.py``; 0: none), and
    ``identifier_fraction`` of them some words replaced by synthetic identifiers (``identifiers.py``; 0: none),
    ``long_identifier_share`` of those identifiers long ones of 3 or 4 components (0: none), ``doubled_fraction``
    of them words copied so that the target holds identical adjacent words (``doubles.py``; 0: none), and
    ``repeated_fraction`` of them a phrase copied over other words of both texts so that it repeats (``repeats.py``;
    0: none)."""
    builder = curriculum_builder(
        stage,
        n_words,
        corpus,
        seed=seed,
        start_index=start_index,
        train_size=num_examples,
        register_weights=register_weights,
        scrambled_fraction=scrambled_fraction,
        identifier_fraction=identifier_fraction,
        long_identifier_share=long_identifier_share,
        doubled_fraction=doubled_fraction,
        repeated_fraction=repeated_fraction,
    )
    return builder.as_streaming_dataset(split="train")


def curriculum_dataset(
    split: str,
    stage: int | None = None,
    n_words: int | None = None,
    seed: int = 0,
    size: int | None = None,
    corpus: Corpus | None = None,
    register_weights: dict[str, int] | None = None,
    scrambled_fraction: float = 0.0,
    identifier_fraction: float = 0.0,
    long_identifier_share: float = 0.0,
    doubled_fraction: float = 0.0,
    repeated_fraction: float = 0.0,
) -> datasets.Dataset:
    """The first ``size`` problems of ``split`` (default: the config's size) as an in-memory ``Dataset``.

    ``split`` is train, validation, test, out_of_register (texts only from the registers held out of the others) or
    out_of_register_validation (the held-out register's choice split: other documents of it).
    ``register_weights`` reweights the train split's register mix only; the other splits keep the fixed mix.
    ``scrambled_fraction`` shuffles the texts of that share of the train split's problems only, and
    ``identifier_fraction`` puts synthetic identifiers in that share of them only (``long_identifier_share`` of those
    identifiers long ones), ``doubled_fraction`` identical adjacent target words in that share of them only, and
    ``repeated_fraction`` a repeated phrase in that share of them only.
    """
    builder = curriculum_builder(
        stage,
        n_words,
        corpus,
        seed=seed,
        register_weights=register_weights,
        scrambled_fraction=scrambled_fraction,
        identifier_fraction=identifier_fraction,
        long_identifier_share=long_identifier_share,
        doubled_fraction=doubled_fraction,
        repeated_fraction=repeated_fraction,
        **size_override(split, size, ALL_SPLITS),
    )
    if split in (OUT_OF_REGISTER, OUT_OF_REGISTER_VALIDATION) and not builder.corpus.split(split):
        held_out = ", ".join(builder.corpus.held_out_registers) or "none"
        raise ValueError(
            f"the corpus has no {split} text (registers held out: {held_out}; the source of a "
            "held-out register may be missing): build it with python -m dataset_builders.corpus"
        )
    return split_dataset(builder, split)
