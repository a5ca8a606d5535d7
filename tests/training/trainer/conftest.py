"""Fixtures the trainer tests share."""

import pytest


@pytest.fixture(scope="module")
def tokenizer(tiny_model_dir):
    """The tiny test model's tokenizer (SmolLM2's)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_model_dir)
