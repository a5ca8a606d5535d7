"""Per-digit credit (training.trainer.word_credit with unit="char"): the arithmetic task's answer credited digit by
digit, each non-space character a unit, aligned to the reference as words are."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_builders import tasks
from metrics.needleman_wunsch.nw_alignment import nw_alignment
from training.trainer.word_credit import (
    END,
    TokenWords,
    token_scores,
    uniform_credit_groups,
    word_credit_advantages,
    word_scores,
)

DIGITS = st.text(alphabet="0123 ", max_size=10)


@pytest.fixture(scope="module")
def token_words(tokenizer):
    return TokenWords(tokenizer)


def answer_ids(tokenizer, text: str) -> list[int]:
    return tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]


def test_the_arithmetic_task_credits_characters_and_interleave_tasks_words():
    assert tasks.get("arithmetic").credit_unit == "char"
    assert tasks.get("arithmetic-4x3").credit_unit == "char"
    assert tasks.get("stage-1").credit_unit == "word"
    assert tasks.get("words-10").credit_unit == "word"


def test_each_digit_token_is_a_unit_of_its_own(tokenizer, token_words):
    ids = answer_ids(tokenizer, "4312")
    assert [token_words.texts[t] for t in ids[:-1]] == ["4", "3", "1", "2"]  # one token per digit (SmolLM2)
    assert token_words.word_index(ids, unit="char") == [0, 1, 2, 3, END]
    assert token_words.word_index(ids) == [0, 0, 0, 0, END]  # as words: one word


def test_space_tokens_belong_to_the_next_character_and_trailing_ones_to_the_end(tokenizer, token_words):
    ids = answer_ids(tokenizer, " 43 12\n")
    texts = [token_words.texts[t] for t in ids]
    index = token_words.word_index(ids, unit="char")
    assert texts == [" ", "4", "3", " ", "1", "2", "\n", ""]
    assert index == [0, 0, 1, 2, 2, 3, END, END]


@pytest.mark.parametrize(
    "text", ["The answer is 4312.", "4,312", "  two  spaces\nand a newline ", "émigré naïve — “quoted”", ""]
)
def test_a_token_gets_the_unit_of_its_first_non_space_character(tokenizer, token_words, text):
    ids = answer_ids(tokenizer, text)
    index = token_words.word_index(ids, unit="char")
    assert token_words.text(ids) == text
    chars = [c for c in text if not c.isspace()]
    seen = [i for i in index if i != END]
    assert seen == sorted(seen) and set(seen) <= set(range(len(chars)))
    assert index[-1] == END
    position = 0  # non-space characters before the current token
    for token, unit in zip(ids, index, strict=True):
        piece = token_words.texts[token]
        own = [c for c in piece if not c.isspace()]
        if own:
            assert unit == position and chars[unit] == own[0]
        position += len(own)


@given(DIGITS, DIGITS)
@settings(max_examples=200, deadline=None)
def test_character_scores_sum_to_the_alignment_score_of_the_characters(completion, target):
    scores, end = word_scores(completion, target, unit="char")
    chars = [[c for c in text if not c.isspace()] for text in (completion, target)]
    assert len(scores) == len(chars[0])
    left_out_at_end = end < 0
    assert sum(scores) + (end if left_out_at_end else 0) == nw_alignment(*chars).score


def test_a_wrong_digit_loses_and_the_others_gain(tokenizer, token_words):
    assert word_scores("4312", "4302", unit="char") == ([1, 1, -1, 1], 1)
    assert word_scores("4312", "4302") == ([-1], 1)  # as a word: all wrong
    assert token_scores(answer_ids(tokenizer, "4312"), "4302", token_words, unit="char") == [1, 1, -1, 1, 1]
    assert word_scores("43 02", "4302", unit="char") == ([1, 1, 1, 1], 1)  # spaces are no units


def test_a_missing_digit_is_charged_to_the_next_one_or_to_the_end(tokenizer, token_words):
    assert word_scores("432", "4302", unit="char") == ([1, 1, 0], 1)  # "2" matches and pays for the left-out "0"
    assert token_scores(answer_ids(tokenizer, "432"), "4302", token_words, unit="char") == [1, 1, 0, 1]
    assert word_scores("43", "4302", unit="char") == ([1, 1], -2)  # stopped two digits early
    assert token_scores(answer_ids(tokenizer, "43"), "4302", token_words, unit="char") == [1, 1, -1]  # clamped


def test_an_extra_digit_loses(tokenizer, token_words):
    assert word_scores("43012", "4302", unit="char") == ([1, 1, 1, -1, 1], 1)
    assert token_scores(answer_ids(tokenizer, "43012"), "4302", token_words, unit="char") == [1, 1, 1, -1, 1, 1]


def padded(tokenizer, texts: list[str]) -> tuple[torch.Tensor, torch.Tensor, list[list[int]]]:
    rows = [answer_ids(tokenizer, t) for t in texts]
    width = max(map(len, rows))
    ids = torch.tensor([r + [tokenizer.pad_token_id or 0] * (width - len(r)) for r in rows])
    mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows])
    return ids, mask, rows


def test_the_digits_of_a_slipped_answer_are_credited_one_by_one(tokenizer, token_words):
    target = "4302"
    ids, mask, rows = padded(tokenizer, [target, "4312", "43"])
    chars = word_credit_advantages(ids, mask, [target] * 3, 3, token_words, unit="char")
    words = word_credit_advantages(ids, mask, [target] * 3, 3, token_words)
    assert (chars[0, : len(rows[0])] > 0).all()  # the exact answer and its end gain
    slip = chars[1, : len(rows[1])].tolist()
    assert slip[2] < 0 < min(slip[0], slip[1], slip[3], slip[4])  # only the wrong "1" loses
    assert words[1, 0] < 0  # as one word, its correct "4" loses too
    short = chars[2, : len(rows[2])].tolist()
    assert short[-1] < 0 < min(short[:-1])  # stopping two digits early loses, its two digits gain
    assert (chars[2, len(rows[2]) :] == 0).all()  # padding


def test_a_group_whose_characters_all_score_alike_carries_no_char_credit():
    target = "4302"
    # "0": the "0" matches but pays for "4" and "3" left out before it (-1), and the "2" left out after it charges the
    # end (-1); as a word it is wrong (-1) but stops right (+1)
    assert uniform_credit_groups(["0", "0", "4312", "4312"], [target] * 4, 2, unit="char") == [0]
    assert uniform_credit_groups(["0", "0", "4312", "4312"], [target] * 4, 2) == []


def test_dynamic_sampling_uses_the_trainers_credit_unit():
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    records = [{"reward": 0.0, "completion": c, "reference": "4302"} for c in ["0", "0", "4312", "4312"]]
    trainer = object.__new__(ObservedGRPOTrainer)  # only the group logic: no model
    trainer.num_generations, trainer.credit_unit = 2, "word"
    trainer.keep_word_signal_groups = True
    assert trainer._uninformative_groups(records) == []  # as words, both groups still carry credit
    trainer.credit_unit = "char"
    assert trainer._uninformative_groups(records) == [0]  # as digits, "0" scores -1 throughout


def test_the_trainer_credits_each_digit_when_its_unit_is_char(tiny_model_dir, tmp_path, tokenizer, token_words):
    from datasets import Dataset

    from tests.training.tiny_run import tiny_grpo_config
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    rows = [{"prompt": [{"role": "user", "content": f"{i} * 2"}], "answer": str(2 * i)} for i in range(2)]
    trainer = ObservedGRPOTrainer(
        model=str(tiny_model_dir),
        args=tiny_grpo_config(tmp_path),
        train_dataset=Dataset.from_list(rows),
        reward_funcs=[lambda completions, **kw: [0.0] * len(completions)],
        reference_column="answer",
        word_credit=1.0,
        credit_unit="char",
    )
    target = "4302"
    ids, mask, _ = padded(tokenizer, [target, "4312"])
    output = {"completion_ids": ids, "completion_mask": mask, "advantages": torch.zeros(2)}
    records = [{"reference": target}] * 2
    advantages = trainer._with_word_credit(output, records)["advantages"]
    expected = word_credit_advantages(ids, mask, [target] * 2, 2, token_words, unit="char")
    assert torch.allclose(advantages, expected)
    assert advantages[1, 0] > 0 > advantages[1, 2]  # the slip's correct "4" gains, its wrong "1" loses


def test_an_unknown_unit_is_an_error(tokenizer, token_words):
    with pytest.raises(ValueError, match="credit unit 'digit'"):
        word_scores("1", "1", unit="digit")
    with pytest.raises(ValueError, match="credit unit 'digit'"):
        token_words.word_index(answer_ids(tokenizer, "1"), unit="digit")
