"""The one completion budget: the formula, tokens per word of prose, and each task's budget on real problems."""

import pytest

from base_models.models import load_tokenizer
from dataset_builders import tasks
from dataset_builders.completion_budget import completion_budget, tokens_per_word
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS


@pytest.fixture(scope="module")
def tokenizer(tiny_model_dir):
    return load_tokenizer(str(tiny_model_dir))  # the real SmolLM2 tokenizer


def test_tokens_per_word_of_english_prose_is_plausible(tokenizer, corpus):
    per_word = tokens_per_word(tokenizer, corpus, "train", sample_words=20_000)
    assert 1.05 < per_word < 1.6
    assert tokens_per_word(tokenizer, corpus, "test", sample_words=20_000) == pytest.approx(per_word, rel=0.15)


def test_the_budget_is_the_expected_length_with_a_margin_at_least_the_longest_reference():
    assert completion_budget(2 * 10 * 1.2) == 48  # ceil(24 * 1.3) + 16
    assert completion_budget(24, longest_reference_tokens=40) == 56  # a longer known reference wins
    lengths = [completion_budget(2 * n * 1.2) for n in STAGE_WORDS.values()]
    assert lengths == sorted(lengths)
    with pytest.raises(ValueError):
        tokens_per_word(None, type("EmptyCorpus", (), {"split": lambda self, s: []})(), "test")


@pytest.mark.parametrize(("stage", "split"), [(1, "test"), (3, "test"), (5, "test"), (3, "out_of_register")])
def test_the_budget_holds_held_out_targets(tokenizer, corpus, stage, split):
    """The stage's budget (what GRPO rollouts get) fits the reference interleave of held-out problems: the register
    mix draws a fifth of the texts from the Factbook, ~1.9 tokens a word against ~1.4 for prose, so a budget from the
    prose's tokens per word left 2-16% of test targets out."""
    budget = tasks.get(f"stage-{stage}").completion_budget(tokenizer)
    problems = InterleaveProblems(corpus, split, STAGE_WORDS[stage])
    lengths = [len(tokenizer(problems[i]["target"], add_special_tokens=False)["input_ids"]) + 1 for i in range(100)]
    assert sum(length <= budget for length in lengths) >= 99, (budget, max(lengths))
    assert budget < 2 * max(lengths)  # and not wildly above what targets need


def test_the_arithmetic_budget_holds_the_longest_product(tokenizer):
    task = tasks.get("arithmetic-3x2")
    assert task.completion_budget(tokenizer) == completion_budget(5)  # 3 + 2 digits: at most 5 of them
    assert len(tokenizer(str(999 * 99), add_special_tokens=False)["input_ids"]) <= 5
