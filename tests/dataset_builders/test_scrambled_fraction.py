"""Scrambled train problems (--scrambled_fraction): the spec parser, which problems are scrambled and how, the builder
config field, and the default config's data unchanged byte for byte."""

import pytest

from dataset_builders.interleave_curriculum import InterleaveCurriculum
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.scramble import BadScrambledFraction, parse_scrambled_fraction
from dataset_builders.prompts import interleave_prompt, interleave_target
from tests.dataset_builders.made_up_builder import DIGESTS, digest, made_up_builder, split_rows

PROBLEMS = 200


@pytest.fixture(scope="module")
def plain(corpus) -> InterleaveProblems:
    return InterleaveProblems(corpus, "train", 10)


def test_the_spec_is_a_number_from_0_to_1():
    assert [parse_scrambled_fraction(spec) for spec in ("0", "0.3", " 1 ", "1e-1", 0.5, 1)] == [0, 0.3, 1, 0.1, 0.5, 1]
    for bad in ("x", "", "-0.1", "1.5", "nan", "inf", True, None, [0.5]):
        with pytest.raises(BadScrambledFraction, match="expected a number from 0 to 1"):
            parse_scrambled_fraction(bad)


def test_no_scrambling_makes_the_same_data_and_cache_folder_as_before():
    default = made_up_builder()
    for none in (made_up_builder(scrambled_fraction=0), made_up_builder(scrambled_fraction=0.0)):
        assert none.config_id == default.config_id and none.config.scrambled_fraction == 0
        for split in ("train", "validation"):
            assert digest(split_rows(none, split)) == DIGESTS[split]
    assert InterleaveCurriculum(config_name="stage-2", scrambled_fraction=0).config_id == "stage-2"


def test_a_fraction_gets_a_config_id_of_its_own_and_leaves_validation_alone():
    half = made_up_builder(scrambled_fraction=0.5)
    assert half.config_id != made_up_builder().config_id
    assert made_up_builder(scrambled_fraction=1).config_id == made_up_builder(scrambled_fraction=1.0).config_id
    assert digest(split_rows(made_up_builder(scrambled_fraction=1), "validation")) == DIGESTS["validation"]
    assert digest(split_rows(half, "train")) != DIGESTS["train"]
    for bad in (-0.1, 1.5, "0.5", True):
        with pytest.raises(ValueError, match="scrambled fraction must be a number from 0 to 1"):
            made_up_builder(scrambled_fraction=bad)


def test_half_of_the_train_problems_have_their_texts_words_shuffled(corpus, plain):
    """A scrambled problem is the same problem (id, sources, registers) with each text's words in another order, its
    prompt and target built from the shuffled texts; the others are the plain problems."""
    half = InterleaveProblems(corpus, "train", 10, scrambled_fraction=0.5)
    scrambled = 0
    for index in range(PROBLEMS):
        got, want = half[index], plain[index]
        assert got["target"] == interleave_target(got["text_a"], got["text_b"])
        assert got["prompt"] == interleave_prompt(got["text_a"], got["text_b"])
        if got == want:
            assert not half.scrambled(index)
            continue
        scrambled += 1
        assert half.scrambled(index)
        assert {k: v for k, v in got.items() if k not in ("text_a", "text_b", "target", "prompt")} == {
            k: v for k, v in want.items() if k not in ("text_a", "text_b", "target", "prompt")
        }
        for text in ("text_a", "text_b"):  # each text: the same words (punctuation on them) in another order
            assert sorted(got[text].split()) == sorted(want[text].split()) and got[text] != want[text]
        assert got["target"] != want["target"] and sorted(got["target"].split()) == sorted(want["target"].split())
    assert PROBLEMS * 0.4 <= scrambled <= PROBLEMS * 0.6


def test_every_problem_at_1_and_the_same_problem_every_time(corpus, plain):
    every = InterleaveProblems(corpus, "train", 10, scrambled_fraction=1)
    first = [every[i] for i in range(50)]
    for got, want in zip(first, (plain[i] for i in range(50))):
        assert got["text_a"] != want["text_a"] and got["text_b"] != want["text_b"]
    again = InterleaveProblems(corpus, "train", 10, scrambled_fraction=1)
    assert [again[i] for i in (37, 3, 37)] == [first[37], first[3], first[37]]  # alone, in any order, twice
    # a smaller fraction scrambles some of the same problems, the same way
    some = InterleaveProblems(corpus, "train", 10, scrambled_fraction=0.3)
    assert 0 < sum(some.scrambled(i) for i in range(50)) < 50
    assert all(some[i] == first[i] for i in range(50) if some.scrambled(i))
    other_seed = InterleaveProblems(corpus, "train", 10, seed=1, scrambled_fraction=0.5)
    half = InterleaveProblems(corpus, "train", 10, scrambled_fraction=0.5)
    assert [other_seed.scrambled(i) for i in range(50)] != [half.scrambled(i) for i in range(50)]
