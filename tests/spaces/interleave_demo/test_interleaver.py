"""The demo's model: the training prompt, the token budget, stopping a cancelled generation, adapters that do not
fit."""

import math
import time

import pytest
from interleaver import AdapterUnusable, Interleaver
from model_sources import Adapter

from dataset_builders.prompts import interleave_prompt

from .conftest import make_adapter


@pytest.fixture(scope="module")
def interleaver(tiny_model_dir):
    return Interleaver(str(tiny_model_dir), device="cpu")


def test_prompt_is_the_training_chat_prompt(interleaver):
    ids = interleaver.prompt_ids("a b", "c d")["input_ids"][0].tolist()
    expected = interleaver.tokenizer.apply_chat_template(
        interleave_prompt("a b", "c d"), add_generation_prompt=True, tokenize=True, return_dict=True
    )["input_ids"]
    assert ids == list(expected)
    assert "Text A:\na b\n\nText B:\nc d" in interleaver.tokenizer.decode(ids)


def test_token_budget_is_the_target_plus_a_margin(interleaver):
    """The project's one budget formula: the target's tokens x 1.3, plus 16 for the end token and overshoot."""
    target = "It Fellow-Citizens is of a the truth Senate"
    n_tokens = len(interleaver.tokenizer(" " + target, add_special_tokens=False)["input_ids"])
    assert n_tokens > len(target.split())  # words cost more than one token each
    assert interleaver.max_new_tokens(target) == math.ceil(n_tokens * 1.3) + 16


def test_closing_the_stream_stops_the_generation(interleaver):
    started = time.monotonic()
    chunks = list(interleaver.stream("a b", "c d", None, max_new_tokens=300))
    full = time.monotonic() - started
    assert len(chunks) > 100  # the tiny model does not stop early: all 300 tokens were made

    started = time.monotonic()
    stream = interleaver.stream("a b", "c d", None, max_new_tokens=300)
    next(stream)
    stream.close()  # what a cancelled request does: the worker stops at the next token and frees the model
    assert time.monotonic() - started < full / 3
    assert interleaver._lock.acquire(blocking=False)
    interleaver._lock.release()


def test_an_adapter_for_another_model_is_refused_with_a_message(interleaver, tmp_path):
    from transformers import LlamaConfig, LlamaForCausalLM

    other = tmp_path / "other-model"
    LlamaForCausalLM(
        LlamaConfig(
            vocab_size=interleaver.tokenizer.vocab_size + 100,
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            num_key_value_heads=1,
        )
    ).save_pretrained(other)
    folder = make_adapter(other, tmp_path / "stage-5", seed=0)
    with pytest.raises(AdapterUnusable, match=r"the stage 5 adapter \(.*stage-5\) does not load onto the base model"):
        next(interleaver.stream("a b", "c d", Adapter(5, str(folder)), max_new_tokens=4))
    assert interleaver._lock.acquire(blocking=False)  # a failed load leaves the model usable
    interleaver._lock.release()
    assert next(interleaver.stream("a b", "c d", None, max_new_tokens=4)) is not None
