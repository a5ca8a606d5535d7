"""Train problems with doubled words (--doubled_fraction): the text transform (a pair of identical adjacent target
words at keyed positions, word counts and whitespace kept) and the problems it changes. What every such share keeps
(fraction 0 byte for byte, the choice of problems, the builder's config id and held-out splits) and the order of the
shares are in test_text_shares.py."""

import math
import re

import pytest

from dataset_builders.interleave_curriculum.doubles import (
    COPY_A,
    COPY_B,
    DOUBLED_POSITION_SHARE,
    check_doubled_fraction,
    doubled_choice,
    doubled_positions,
    doubled_texts,
)
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.prompts import interleave_prompt, interleave_target

PROBLEMS = 200
ROW_TEXTS = ("text_a", "text_b", "target", "prompt")  # what a doubled problem changes of its row


def pairs_at(target: str, position: int, choice: str) -> bool:
    """Whether the target words of ``position`` (equal-length texts: A's word i is target word 2i, B's 2i+1) hold the
    pair of ``choice``: ``a_i a_i`` (words 2i, 2i+1) or ``b_i b_i`` (words 2i+1, 2i+2)."""
    words = target.split()
    first = 2 * position + (choice == COPY_B)
    return words[first] == words[first + 1]


def adjacent_pairs(target: str) -> int:
    words = target.split()
    return sum(a == b for a, b in zip(words, words[1:]))


def test_doubled_texts_pair_a_tenth_of_the_positions_and_keep_the_rest():
    """Each chosen position holds its pair, the word copied exactly as written (punctuation too); no other word
    changes; both texts keep their word count and every space, tab and newline; both choices are drawn."""
    a = [f"A{i}," if i % 7 == 0 else f"a{i}" for i in range(2000)]
    b = [f'"B{i}"' if i % 5 == 0 else f"b{i}" for i in range(2000)]
    text_a = "  " + " ".join(a[:1000]) + "\n" + "\t".join(a[1000:]) + " "
    text_b = "\n".join(b[:500]) + "   " + " ".join(b[500:])
    new_a, new_b = doubled_texts(text_a, text_b, "key")
    assert doubled_texts(text_a, text_b, "key") == (new_a, new_b) != doubled_texts(text_a, text_b, "other key")
    assert re.split(r"\S+", new_a) == re.split(r"\S+", text_a) and re.split(r"\S+", new_b) == re.split(r"\S+", text_b)
    got_a, got_b = new_a.split(), new_b.split()
    assert len(got_a) == len(got_b) == 2000
    positions = doubled_positions(2000, "key")
    assert len(positions) / 2000 == pytest.approx(DOUBLED_POSITION_SHARE, abs=0.02)
    choices = {i: doubled_choice("key", i, 2000) for i in positions}
    assert 0.35 <= list(choices.values()).count(COPY_A) / len(choices) <= 0.65
    target = interleave_target(new_a, new_b)
    want_a, want_b = list(a), list(b)
    for i, choice in choices.items():
        assert pairs_at(target, i, choice), (i, choice)
        if choice == COPY_A:
            want_b[i] = want_a[i]
        else:
            want_a[i + 1] = want_b[i]
    assert (got_a, got_b) == (want_a, want_b)  # the copies, and no other word changed
    assert any(got_b[i].endswith(",") or got_a[i + 1].startswith('"') for i in choices)  # punctuation copied too


def test_short_and_uneven_texts():
    """A short text pair still gets one pair (the position of the lowest draw); positions stop at the shorter text;
    the last word of Text A can only be copied to Text B; empty texts stay as they are."""
    for k in range(30):
        new_a, new_b = doubled_texts("one two three", "uno dos tres", f"key-{k}")
        assert len(new_a.split()) == len(new_b.split()) == 3
        assert adjacent_pairs(interleave_target(new_a, new_b)) >= 1
        assert doubled_texts("alone", "solo", f"key-{k}") == ("alone", "alone")  # no word after A's: B takes A's
        long_a, short_b = doubled_texts("w0 w1 w2 w3 w4 w5 w6 w7", "x0 x1", f"key-{k}")
        assert long_a.split()[3:] == "w3 w4 w5 w6 w7".split()  # only positions 0 and 1 pair (w2 may take x1)
        assert all(doubled_choice(f"key-{k}", i, i + 1) == COPY_A for i in range(5))
    assert doubled_positions(0, "key") == []
    assert doubled_texts("", "some words", "key") == ("", "some words")
    assert doubled_texts("   ", "", "key") == ("   ", "")


def test_a_doubled_fraction_is_a_number_from_0_to_1(corpus):
    for good in (0, 0.0, 0.5, 1, 1.0):
        check_doubled_fraction(good)
    for bad in (-0.1, 1.5, "0.5", True, False, None, math.nan, [0.5]):
        with pytest.raises(ValueError, match="doubled fraction must be a number from 0 to 1"):
            check_doubled_fraction(bad)
    with pytest.raises(ValueError, match="doubled fraction must be a number from 0 to 1"):
        InterleaveProblems(corpus, "train", 10, doubled_fraction=2)


@pytest.mark.parametrize("n_words", [10, 50])
def test_every_doubled_problem_holds_its_pairs_at_the_chosen_positions(corpus, n_words):
    """A doubled problem is the same problem (id, sources, registers) whose texts keep their word count, its prompt
    and target built from the new texts, each chosen position's pair in the target; it holds more adjacent identical
    words than the plain problem."""
    plain = InterleaveProblems(corpus, "train", n_words)
    every = InterleaveProblems(corpus, "train", n_words, doubled_fraction=1)
    more = 0
    for index in range(PROBLEMS):
        got, want = every[index], plain[index]
        assert every.doubled(index)
        assert {k: v for k, v in got.items() if k not in ROW_TEXTS} == {
            k: v for k, v in want.items() if k not in ROW_TEXTS
        }
        assert got["target"] == interleave_target(got["text_a"], got["text_b"])
        assert got["prompt"] == interleave_prompt(got["text_a"], got["text_b"])
        assert len(got["text_a"].split()) == len(got["text_b"].split()) == n_words
        key = f"{every._key}/doubles/index={index}"
        positions = doubled_positions(n_words, key)
        assert positions
        for i in positions:
            assert pairs_at(got["target"], i, doubled_choice(key, i, n_words)), (index, i, got["target"])
        assert adjacent_pairs(got["target"]) >= adjacent_pairs(want["target"])
        more += adjacent_pairs(got["target"]) > adjacent_pairs(want["target"])
    assert more >= PROBLEMS * 0.95
