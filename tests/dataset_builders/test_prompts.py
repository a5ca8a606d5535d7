"""The one prompt template and the one interleave target."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dataset_builders.prompts import (
    arithmetic_prompt,
    completion_text,
    interleave_prompt,
    interleave_target,
    interleave_words,
)

WORD = st.text(alphabet="abcdefghij,.", min_size=1, max_size=6)


def test_equal_lengths_alternate_a_first():
    assert interleave_target("a1 a2 a3", "b1 b2 b3") == "a1 b1 a2 b2 a3 b3"
    assert interleave_target(["a1", "a2"], ["b1", "b2"]) == "a1 b1 a2 b2"


def test_the_longer_text_goes_on_alone():
    assert interleave_target("a1 a2 a3 a4", "b1") == "a1 b1 a2 a3 a4"
    assert interleave_target("a1", "b1 b2 b3") == "a1 b1 b2 b3"
    assert interleave_target("", "b1 b2") == "b1 b2"
    assert interleave_target([], []) == ""


def test_whitespace_of_a_string_text_is_normalised():
    assert interleave_target("a1\n\na2  a3", " b1\tb2 ") == "a1 b1 a2 b2 a3"


@given(st.lists(WORD, max_size=30), st.lists(WORD, max_size=30))
def test_interleave_keeps_every_word_in_order(a, b):
    out = interleave_words(a, b)
    assert len(out) == len(a) + len(b)
    common = min(len(a), len(b))
    assert out[0 : 2 * common : 2] == a[:common] and out[1 : 2 * common : 2] == b[:common]
    assert out[2 * common :] == a[common:] + b[common:]
    assert interleave_target(a, b) == " ".join(out)


def test_interleave_prompt_is_one_user_message_with_the_framing_and_both_texts():
    messages = interleave_prompt("alpha beta", "gamma delta")
    assert [m["role"] for m in messages] == ["user"]
    content = messages[0]["content"]
    assert "two processes in parallel" in content and "Do this all in one turn" in content
    assert "single spaces" in content
    assert content.index("Text A:\nalpha beta") < content.index("Text B:\ngamma delta")


def test_arithmetic_prompt_asks_for_digits_only():
    messages = arithmetic_prompt(123, 45)
    assert [m["role"] for m in messages] == ["user"]
    content = messages[0]["content"]
    assert "123 * 45" in content and "digits only" in content and "no working" in content


def test_completion_text_of_message_lists():
    assert completion_text("a b") == "a b"
    assert completion_text([{"role": "assistant", "content": "a b"}, {"role": "assistant", "content": "c"}]) == "a b\nc"
    assert completion_text([{"role": "assistant", "content": [{"type": "text", "text": "a"}]}]) == "a"
    assert completion_text([{"role": "tool", "content": "x"}, {"role": "assistant", "content": None}]) == ""


def test_completion_text_reads_strings_and_messages():
    assert completion_text("42") == "42"
    assert completion_text([{"role": "assistant", "content": "42"}]) == "42"
    parts = [{"type": "text", "text": "4"}, {"type": "text", "text": "2"}]
    assert completion_text([{"role": "assistant", "content": parts}]) == "42"


def test_a_completion_ends_at_the_eos_the_declared_ids_or_any_special_token():
    from types import SimpleNamespace

    from dataset_builders.prompts import end_token_ids

    for declared, special, expected in (
        (2, [], [0, 2]),
        ([2, 0], None, [0, 2]),
        (None, [], [0]),
        ([0], [5, 1, 0], [0, 1, 5]),  # the tokenizer's special tokens, say a chat turn's opening marker
    ):
        tokenizer = SimpleNamespace(eos_token_id=0, all_special_ids=special)
        model = SimpleNamespace(generation_config=SimpleNamespace(eos_token_id=declared))
        assert end_token_ids(model, tokenizer) == expected


@pytest.mark.slow
def test_the_embedded_tokenizer_ends_a_completion_at_each_chat_marker():
    """SmolLM2's <|im_start|>, <|im_end|> and <|endoftext|> all end a completion, whatever the tokenizer's eos is (the
    shipped adapter, trained where eos was <|im_start|>, ends with it)."""
    from transformers import AutoTokenizer

    from base_models.models import embedded_model_dir
    from dataset_builders.prompts import end_token_ids

    tokenizer = AutoTokenizer.from_pretrained(embedded_model_dir())
    ids = {tokenizer.convert_tokens_to_ids(t) for t in ("<|im_start|>", "<|im_end|>", "<|endoftext|>")}
    assert ids <= set(end_token_ids(None, tokenizer))
