import pytest

from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from training.completion_length import max_completion_length, tokens_per_word
from training.models import load_tokenizer


@pytest.fixture(scope="module")
def tokenizer(tiny_model_dir):
    return load_tokenizer(str(tiny_model_dir))  # the real SmolLM2 tokenizer


def test_tokens_per_word_of_english_prose_is_plausible(tokenizer, corpus):
    per_word = tokens_per_word(tokenizer, corpus, "train", sample_words=20_000)
    assert 1.05 < per_word < 1.6
    assert tokens_per_word(tokenizer, corpus, "test", sample_words=20_000) == pytest.approx(per_word, rel=0.15)


def test_max_completion_length_grows_with_the_stage():
    lengths = [max_completion_length(n, 1.2) for n in STAGE_WORDS.values()]
    assert lengths == sorted(lengths) and lengths[0] == 48  # ceil(2 * 10 * 1.2 * 1.3) + 16
    with pytest.raises(ValueError):
        tokens_per_word(None, type("EmptyCorpus", (), {"split": lambda self, s: []})(), "test")


# The register mix (issue 18) draws a fifth of the texts from the Factbook (1.94 tokens a word with this tokenizer,
# against 1.41 over the train passages that tokens_per_word samples): 2-16% of test targets now exceed the derived
# budget. The budget's derivation lives in training/ (being restructured); strict, so the fix turns this red.
@pytest.mark.xfail(strict=True, reason="budget derived from tokens per word of train passages, not of the register mix")
@pytest.mark.parametrize("stage", [1, 3, 5])
def test_the_budget_holds_held_out_targets(tokenizer, corpus, stage):
    """The derived budget fits the reference interleave of held-out problems, as the model must write it."""
    budget = max_completion_length(STAGE_WORDS[stage], tokens_per_word(tokenizer, corpus, "train"))
    problems = InterleaveProblems(corpus, "test", STAGE_WORDS[stage])
    lengths = [len(tokenizer(problems[i]["target"], add_special_tokens=False)["input_ids"]) + 1 for i in range(100)]
    assert sum(length <= budget for length in lengths) >= 99, (budget, max(lengths))
