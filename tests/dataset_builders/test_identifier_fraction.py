"""Train problems with synthetic identifiers (--identifier_fraction): the shapes and the text transform, which problems
get identifiers, the builder config field, and the default config's data unchanged byte for byte."""

import itertools
import re

import pytest

from dataset_builders.interleave_curriculum import InterleaveCurriculum
from dataset_builders.interleave_curriculum.identifiers import (
    IDENTIFIER_WORD_SHARE,
    SHAPES,
    STAND_INS,
    identifier_positions,
    identifier_text,
    identifier_word,
)
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.scramble import BadScrambledFraction
from dataset_builders.interleave_curriculum.share import BadFraction, parse_share
from dataset_builders.prompts import interleave_prompt, interleave_target
from tests.dataset_builders.made_up_builder import DIGESTS, digest, made_up_builder, split_rows
from training.core.slip_diagnostics import is_symbolic

PROBLEMS = 200
ROW_TEXTS = ("text_a", "text_b", "target", "prompt")  # what an identifier problem changes of its row


@pytest.fixture(scope="module")
def plain(corpus) -> InterleaveProblems:
    return InterleaveProblems(corpus, "train", 10)


def test_the_spec_is_a_number_from_0_to_1_and_one_error_class_for_every_share():
    assert [parse_share(spec) for spec in ("0", "0.3", " 1 ", "1e-1", 0.5, 1)] == [0, 0.3, 1, 0.1, 0.5, 1]
    for bad in ("x", "", "-0.1", "1.5", "nan", "inf", True, None, [0.5]):
        with pytest.raises(BadFraction, match="expected a number from 0 to 1"):
            parse_share(bad)
    assert BadScrambledFraction is BadFraction


def test_every_shape_makes_a_symbolic_word_without_whitespace():
    """is_symbolic (the slip diagnostics' code-like word) counts every shape, whatever its components (one letter,
    digits only) and number, with the punctuation a replaced word opened and closed with around it."""
    components = ("i", "x", "am", "ab", "1", "19", "a1", "war1990")
    for (name, shape), a, b, n in itertools.product(SHAPES.items(), components, components, (0, 7, 10, 99, 100, 999)):
        for opens, closes in (("", ""), ("(", "),"), ('"', '."'), ("—", ""), ("'", "';")):
            word = opens + shape(a, b, n) + closes
            assert is_symbolic(word), (name, word)
            assert len(word.split()) == 1, (name, word)


def test_a_word_becomes_an_identifier_of_it_and_the_next_word_with_its_punctuation():
    seen = set()
    for k in range(200):
        word = identifier_word('("Hello,', "World!", f"key-{k}")
        assert word.startswith('("') and word.endswith(",") and is_symbolic(word)
        core = word[2:-1]
        assert "hello" in core.lower() and not any(c.isspace() for c in core)
        seen.add(re.sub(r"[0-9]+", "0", re.sub(r"[a-z]+", "a", core.lower())))  # the shape: letters, digits folded
    assert len(seen) == len(SHAPES) - 2  # every shape drawn; folded, UPPER_SNAKE is snake_case, PascalCase camelCase
    stand_ins = {identifier_word("—", "«»", f"key-{k}") for k in range(50)}  # no letter or digit to build from
    assert all(is_symbolic(word) and word.startswith("—") for word in stand_ins)
    known = "|".join(sorted((*STAND_INS, "py", "v"), key=len, reverse=True))  # stand-ins and the shapes' own letters
    assert not any(re.search("[a-z]", re.sub(known, "", word.lower())) for word in stand_ins), stand_ins


def test_identifier_text_replaces_a_tenth_of_the_words_and_keeps_the_rest():
    words = [f"word{i}," if i % 7 == 0 else f"Word{i}" for i in range(2000)]
    text = "  " + " ".join(words[:1000]) + "\n" + "\t".join(words[1000:]) + " "
    changed = identifier_text(text, "key")
    assert identifier_text(text, "key") == changed != identifier_text(text, "other key")
    assert re.split(r"\S+", changed) == re.split(r"\S+", text)  # every space, tab and newline where it was
    got = changed.split()
    assert len(got) == len(words)
    replaced = [i for i, (new, old) in enumerate(zip(got, words)) if new != old]
    assert replaced == identifier_positions(len(words), "key")
    assert len(replaced) / len(words) == pytest.approx(IDENTIFIER_WORD_SHARE, abs=0.02)
    for i in replaced:
        assert is_symbolic(got[i]) and got[i].endswith(",") == words[i].endswith(",")
        assert words[i].lower().rstrip(",") in got[i].lower()  # built from the word it replaces
    # a short text still gets one identifier (the word of the lowest draw), and so does a one-word text
    for short in ("one two three", "alone"):
        for k in range(20):
            new, old = identifier_text(short, f"key-{k}").split(), short.split()
            assert len(new) == len(old) and sum(a != b for a, b in zip(new, old)) >= 1
    assert identifier_text("", "key") == "" and identifier_text("   ", "key") == "   "


def test_no_identifiers_make_the_same_data_and_cache_folder_as_before():
    default = made_up_builder()
    for none in (made_up_builder(identifier_fraction=0), made_up_builder(identifier_fraction=0.0)):
        assert none.config_id == default.config_id and none.config.identifier_fraction == 0
        for split in ("train", "validation"):
            assert digest(split_rows(none, split)) == DIGESTS[split]
    assert InterleaveCurriculum(config_name="stage-2", identifier_fraction=0).config_id == "stage-2"


def test_a_fraction_gets_a_config_id_of_its_own_and_leaves_validation_alone():
    half = made_up_builder(identifier_fraction=0.5)
    assert half.config_id != made_up_builder().config_id
    assert half.config_id != made_up_builder(scrambled_fraction=0.5).config_id
    assert made_up_builder(identifier_fraction=1).config_id == made_up_builder(identifier_fraction=1.0).config_id
    assert digest(split_rows(made_up_builder(identifier_fraction=1), "validation")) == DIGESTS["validation"]
    assert digest(split_rows(half, "train")) != DIGESTS["train"]
    for bad in (-0.1, 1.5, "0.5", True):
        with pytest.raises(ValueError, match="identifier fraction must be a number from 0 to 1"):
            made_up_builder(identifier_fraction=bad)


def test_half_of_the_train_problems_get_identifiers_in_place_of_a_tenth_of_their_words(corpus):
    """An identifier problem is the same problem (id, sources, registers) whose texts keep their word count, with about
    a tenth of their words (one at least) replaced by symbolic words and the others as they were, its prompt and
    target built from the new texts; the others are the plain problems."""
    plain = InterleaveProblems(corpus, "train", 50)
    half = InterleaveProblems(corpus, "train", 50, identifier_fraction=0.5)
    identified = replaced = words = 0
    for index in range(PROBLEMS):
        got, want = half[index], plain[index]
        assert got["target"] == interleave_target(got["text_a"], got["text_b"])
        assert got["prompt"] == interleave_prompt(got["text_a"], got["text_b"])
        if got == want:
            assert not half.identified(index)
            continue
        identified += 1
        assert half.identified(index)
        assert {k: v for k, v in got.items() if k not in ROW_TEXTS} == {
            k: v for k, v in want.items() if k not in ROW_TEXTS
        }
        for text in ("text_a", "text_b"):
            new, old = got[text].split(), want[text].split()
            assert len(new) == len(old) == 50
            changed = [word for word, before in zip(new, old) if word != before]
            assert changed and all(is_symbolic(word) for word in changed), changed
            replaced, words = replaced + len(changed), words + len(new)
    assert PROBLEMS * 0.4 <= identified <= PROBLEMS * 0.6
    assert replaced / words == pytest.approx(IDENTIFIER_WORD_SHARE, abs=0.02)


def test_the_same_problem_every_time_and_a_smaller_fraction_a_subset(corpus, plain):
    every = InterleaveProblems(corpus, "train", 10, identifier_fraction=1)
    first = [every[i] for i in range(50)]
    for got, want in zip(first, (plain[i] for i in range(50))):
        assert got["text_a"] != want["text_a"] and got["text_b"] != want["text_b"]
    again = InterleaveProblems(corpus, "train", 10, identifier_fraction=1)
    assert [again[i] for i in (37, 3, 37)] == [first[37], first[3], first[37]]  # alone, in any order, twice
    some = InterleaveProblems(corpus, "train", 10, identifier_fraction=0.3)
    assert 0 < sum(some.identified(i) for i in range(50)) < 50
    assert all(some[i] == (first[i] if some.identified(i) else plain[i]) for i in range(50))
    other_seed = InterleaveProblems(corpus, "train", 10, seed=1, identifier_fraction=0.5)
    half = InterleaveProblems(corpus, "train", 10, identifier_fraction=0.5)
    assert [other_seed.identified(i) for i in range(50)] != [half.identified(i) for i in range(50)]


def test_with_a_scrambled_fraction_both_apply_identifiers_first_and_chosen_apart(corpus, plain):
    """Identifiers and scrambling choose their problems with keys of their own (about a quarter get both at 0.5); a
    problem with both has the words of its identifier problem, shuffled."""
    both = InterleaveProblems(corpus, "train", 10, scrambled_fraction=0.5, identifier_fraction=0.5)
    identified = InterleaveProblems(corpus, "train", 10, identifier_fraction=0.5)
    scrambled = InterleaveProblems(corpus, "train", 10, scrambled_fraction=0.5)
    choices = [(both.identified(i), both.scrambled(i)) for i in range(PROBLEMS)]
    assert [i for i, _ in choices] == [identified.identified(i) for i in range(PROBLEMS)]
    assert [s for _, s in choices] == [scrambled.scrambled(i) for i in range(PROBLEMS)]
    assert PROBLEMS * 0.15 <= choices.count((True, True)) <= PROBLEMS * 0.35
    for index, (has_identifiers, is_scrambled) in enumerate(choices):
        got = both[index]
        if not is_scrambled:
            assert got == (identified[index] if has_identifiers else plain[index])
            continue
        words_of = identified[index] if has_identifiers else plain[index]
        for text in ("text_a", "text_b"):
            assert sorted(got[text].split()) == sorted(words_of[text].split())
        assert got["target"] == interleave_target(got["text_a"], got["text_b"])
