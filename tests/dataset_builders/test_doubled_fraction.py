"""Train problems with doubled words (--doubled_fraction): the text transform (a pair of identical adjacent target
words at keyed positions, word counts and whitespace kept), which problems get it, its order before identifiers and
scrambling, the builder config field, and the data of doubled fraction 0 unchanged byte for byte (digests taken
before doubled words existed)."""

import hashlib
import json
import math
import re

import pytest

from dataset_builders import tasks
from dataset_builders.interleave_curriculum import InterleaveCurriculum
from dataset_builders.interleave_curriculum.doubles import (
    COPY_A,
    COPY_B,
    DOUBLED_POSITION_SHARE,
    check_doubled_fraction,
    doubled_choice,
    doubled_positions,
    doubled_texts,
)
from dataset_builders.interleave_curriculum.identifiers import identifier_text
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.scramble import scrambled_text
from dataset_builders.prompts import interleave_prompt, interleave_target
from tests.dataset_builders.made_up_builder import DIGESTS, digest, made_up_builder, split_rows

PROBLEMS = 200
ROW_TEXTS = ("text_a", "text_b", "target", "prompt")  # what a doubled problem changes of its row
# sha256 of the JSON (sort_keys, ensure_ascii=False) of the first ``count`` train problems, InterleaveProblems(corpus,
# "train", n_words, **draw), written by the code of 90e620f, before doubled words existed: (n_words, draw, count) ->
# digest. The long runs (1,000 and 300 problems) catch a change that touches only a few problems at fraction 0.
HALF_IDENTIFIERS = (("identifier_fraction", 0.5),)
AND_SCRAMBLED = (("identifier_fraction", 0.5), ("scrambled_fraction", 0.5))
BEFORE = {
    (10, (), 30): "f4285980f102cc66ff577f34d8f1ff0a95ed577684f20d4d2c0551f83dee063e",
    (10, HALF_IDENTIFIERS, 30): "739c85701116bb0396bb62cce302412e77db0ab480dc64950c778c14180f27c7",
    (10, AND_SCRAMBLED, 30): "8bfc5ecf6680335288a0b35ec3ca9717f5a8a392dcf701d2b1d1fa125e4b899d",
    (50, (), 30): "8a6f1feff45cfc05c279e71c037f7e64c7867b926f8d5ed412d9503154c0e4ee",
    (50, HALF_IDENTIFIERS, 30): "75f2ea4c9d69f8b742bb21c77a62101b87105abd5e6a7d4cef92b4e33f92cebd",
    (50, AND_SCRAMBLED, 30): "16dde11427e8a199ad611203e54802f3784f41673c033ab64310a89009a02227",
    (10, (), 1000): "1c162cd5e2e5e5c2d1b1531ef018316c7fe65ab8ba39023400eb8b4808b8990a",
    (10, HALF_IDENTIFIERS, 1000): "964f36498d438982110113d1f6108d6118fd3834271a6eaec09de902ed5a1f3a",
    (50, (), 300): "75c9c9d633b41cd7bfd9544a61c4fd2de65c440696e644a757ee1e75a6f650e6",
    (50, HALF_IDENTIFIERS, 300): "d42729936ea7434ce268ec86c2a46deb6475f1f179e193844a6f6a6d5edb2a07",
}


def rows_digest(rows) -> str:
    return hashlib.sha256(json.dumps(list(rows), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def pairs_at(target: str, position: int, choice: str) -> bool:
    """Whether the target words of ``position`` (equal-length texts: A's word i is target word 2i, B's 2i+1) hold the
    pair of ``choice``: ``a_i a_i`` (words 2i, 2i+1) or ``b_i b_i`` (words 2i+1, 2i+2)."""
    words = target.split()
    first = 2 * position + (choice == COPY_B)
    return words[first] == words[first + 1]


def adjacent_pairs(target: str) -> int:
    words = target.split()
    return sum(a == b for a, b in zip(words, words[1:]))


@pytest.mark.parametrize("n_words, draw, count", list(BEFORE), ids=[f"{n}w-{dict(d)}-{c}" for n, d, c in BEFORE])
def test_doubled_fraction_0_makes_the_train_problems_of_before_byte_for_byte(corpus, n_words, draw, count):
    """The committed recipes' problems depend on it: unset, 0 or 0.0, the first train problems are those written
    before doubled words existed, with identifiers and scrambling too; and a doubled fraction changes them."""
    for zero in ({}, {"doubled_fraction": 0}, {"doubled_fraction": 0.0}):
        problems = InterleaveProblems(corpus, "train", n_words, **dict(draw), **zero)
        assert rows_digest(problems[i] for i in range(count)) == BEFORE[(n_words, draw, count)], zero
        assert not any(problems.doubled(i) for i in range(count))
    doubled = InterleaveProblems(corpus, "train", n_words, **dict(draw), doubled_fraction=0.5)
    assert rows_digest(doubled[i] for i in range(count)) != BEFORE[(n_words, draw, count)]


def test_a_tasks_doubled_fraction_0_keeps_its_train_problems_of_before():
    stage = tasks.get("stage-1").with_identifier_fraction(0.5)
    for task in (stage, stage.with_doubled_fraction(0), stage.with_doubled_fraction(0.0)):
        assert task.doubled_fraction == 0
        assert rows_digest(task.problem("train", i) for i in range(30)) == BEFORE[(10, HALF_IDENTIFIERS, 30)]


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


def test_the_share_of_doubled_problems_the_same_every_time_and_a_smaller_fraction_a_subset(corpus):
    plain = InterleaveProblems(corpus, "train", 10)
    every = InterleaveProblems(corpus, "train", 10, doubled_fraction=1)
    some = InterleaveProblems(corpus, "train", 10, doubled_fraction=0.3)
    half = InterleaveProblems(corpus, "train", 10, doubled_fraction=0.5)
    chosen = [i for i in range(500) if some.doubled(i)]
    assert 0.2 * 500 <= len(chosen) <= 0.4 * 500
    assert set(chosen) < {i for i in range(500) if half.doubled(i)}
    for index in range(100):
        assert some[index] == (every[index] if some.doubled(index) else plain[index])
    again = InterleaveProblems(corpus, "train", 10, doubled_fraction=0.3)
    assert [again[i] for i in (37, 3, 37)] == [some[37], some[3], some[37]]  # alone, in any order, twice
    other_seed = InterleaveProblems(corpus, "train", 10, seed=1, doubled_fraction=0.3)
    assert [other_seed.doubled(i) for i in range(100)] != [some.doubled(i) for i in range(100)]


def test_doubling_comes_first_then_identifiers_then_scrambling_each_chosen_apart(corpus):
    """Each share chooses its problems with a key of its own; a problem with several has its doubled texts given
    identifiers, then shuffled."""
    draw = {"doubled_fraction": 0.5, "identifier_fraction": 0.5, "scrambled_fraction": 0.5}
    every = InterleaveProblems(corpus, "train", 10, **draw)
    doubled = InterleaveProblems(corpus, "train", 10, doubled_fraction=0.5)
    identified = InterleaveProblems(corpus, "train", 10, identifier_fraction=0.5)
    scrambled = InterleaveProblems(corpus, "train", 10, scrambled_fraction=0.5)
    plain = InterleaveProblems(corpus, "train", 10)
    choices = [(every.doubled(i), every.identified(i), every.scrambled(i)) for i in range(PROBLEMS)]
    assert [c[0] for c in choices] == [doubled.doubled(i) for i in range(PROBLEMS)]
    assert [c[1] for c in choices] == [identified.identified(i) for i in range(PROBLEMS)]
    assert [c[2] for c in choices] == [scrambled.scrambled(i) for i in range(PROBLEMS)]
    assert PROBLEMS * 0.05 <= choices.count((True, True, True)) <= PROBLEMS * 0.2
    assert PROBLEMS * 0.15 <= sum(d and not i for d, i, _ in choices) <= PROBLEMS * 0.35
    for index, (is_doubled, has_identifiers, is_scrambled) in enumerate(choices):
        got = every[index]
        text_a, text_b = doubled[index]["text_a"], doubled[index]["text_b"]  # doubled or plain
        if has_identifiers:
            key = f"{every._key}/identifiers/index={index}"
            text_a, text_b = identifier_text(text_a, key + "/text=a"), identifier_text(text_b, key + "/text=b")
        if is_scrambled:
            key = f"{every._key}/scramble/index={index}"
            text_a, text_b = scrambled_text(text_a, key + "/text=a"), scrambled_text(text_b, key + "/text=b")
        assert (got["text_a"], got["text_b"]) == (text_a, text_b), index
        if not (is_doubled or has_identifiers or is_scrambled):
            assert got == plain[index]


def test_no_doubled_words_make_the_same_data_and_cache_folder_as_before():
    default = made_up_builder()
    for none in (made_up_builder(doubled_fraction=0), made_up_builder(doubled_fraction=0.0)):
        assert none.config_id == default.config_id and none.config.doubled_fraction == 0
        for split in ("train", "validation"):
            assert digest(split_rows(none, split)) == DIGESTS[split]
    half = made_up_builder(identifier_fraction=0.5)
    assert made_up_builder(identifier_fraction=0.5, doubled_fraction=0).config_id == half.config_id
    assert made_up_builder(identifier_fraction=0.5, doubled_fraction=0).config_id == "words-3-1199f0660b1a46ac"
    assert InterleaveCurriculum(config_name="stage-2", doubled_fraction=0).config_id == "stage-2"


def test_a_doubled_fraction_gets_a_config_id_of_its_own_and_leaves_validation_alone():
    half = made_up_builder(doubled_fraction=0.5)
    assert half.config_id != made_up_builder().config_id and half.config.doubled_fraction == 0.5
    assert half.config_id != made_up_builder(identifier_fraction=0.5).config_id
    assert half.config_id != made_up_builder(scrambled_fraction=0.5).config_id
    assert made_up_builder(doubled_fraction=1).config_id == made_up_builder(doubled_fraction=1.0).config_id
    every = made_up_builder(doubled_fraction=1)
    assert digest(split_rows(every, "validation")) == DIGESTS["validation"]
    assert every.problems("validation").doubled_fraction == 0 and every.problems("train").doubled_fraction == 1
    assert digest(split_rows(half, "train")) != DIGESTS["train"]
    for bad in (-0.1, 1.5, "0.5", True):
        with pytest.raises(ValueError, match="doubled fraction must be a number from 0 to 1"):
            made_up_builder(doubled_fraction=bad)
