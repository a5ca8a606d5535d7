"""Train problems with a repeated phrase (--repeated_fraction): the text transform (a phrase of one text copied over
other words of both, word counts and whitespace kept), the problems it changes and the places it makes ambiguous. What
every such share keeps (fraction 0 byte for byte, the choice of problems, the builder's config id and held-out splits)
and the order of the shares are in test_text_shares.py."""

import math
import re
from collections import Counter

import pytest

from dataset_builders import tasks
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.repeats import (
    PHRASE_WORDS,
    REPEATED_WORD_SHARE,
    check_repeated_fraction,
    repeated_spans,
    repeated_texts,
)
from dataset_builders.prompts import interleave_prompt, interleave_target

PROBLEMS = 200
ROW_TEXTS = ("text_a", "text_b", "target", "prompt")  # what a repeated problem changes of its row


def words_of(n: int, prefix: str) -> list[str]:
    """``n`` distinct words, some with punctuation (so a copied phrase carries it)."""
    return [f"{prefix}{i}." if i % 7 == 0 else f'"{prefix}{i}"' if i % 11 == 0 else f"{prefix}{i}" for i in range(n)]


def spaced(words: list[str]) -> str:
    """``words`` joined by varied whitespace, opening and closing with some."""
    gaps = (" ", "  ", "\n", "\t", " \n ")
    return " " + "".join(w + gaps[i % len(gaps)] for i, w in enumerate(words))


def occurrences(phrase: list[str], texts: tuple[str, ...]) -> int:
    """How often ``phrase`` occurs as consecutive words in the texts (each text on its own)."""
    count = 0
    for text in texts:
        words = text.split()
        count += sum(words[i : i + len(phrase)] == phrase for i in range(len(words) - len(phrase) + 1))
    return count


def place_repeats_share(text: str) -> tuple[int, int]:
    """(words whose two words before occur again as a pair in the text, words): ``first_slip_words.places_repeat``,
    counted inline."""
    words = [w.lower() for w in text.split()]
    pairs = Counter(zip(words, words[1:]))
    return sum(pairs[(words[j - 2], words[j - 1])] > 1 for j in range(2, len(words))), len(words)


def test_repeated_texts_copy_one_phrase_over_other_words_of_both_and_keep_the_rest():
    """The phrase, a source text's words as written (punctuation too), stands at each copy's place; no other word
    changes; copies overlap neither each other nor the source; both texts keep their word count and every space, tab
    and newline; each text holds a copy; the copies cover about REPEATED_WORD_SHARE of the words."""
    a, b = words_of(500, "a"), words_of(500, "b")
    text_a, text_b = spaced(a), spaced(b)
    punctuated = 0
    for k in range(20):
        key = f"key-{k}"
        new_a, new_b = repeated_texts(text_a, text_b, key)
        assert re.split(r"\S+", new_a) == re.split(r"\S+", text_a)  # every space, tab and newline kept
        assert re.split(r"\S+", new_b) == re.split(r"\S+", text_b)
        source, length, start, copies = repeated_spans(key, 500, 500)
        assert length in PHRASE_WORDS
        phrase = {"a": a, "b": b}[source][start : start + length]
        punctuated += any(not w[-1].isalnum() for w in phrase)
        want = {"a": list(a), "b": list(b)}
        spans = [(source, start)]
        for text, starts in copies.items():
            assert starts, (key, text)  # a copy in each text
            for at in starts:
                want[text][at : at + length] = phrase
                spans.append((text, at))
        for i, (text, at) in enumerate(spans):  # no two spans overlap
            assert all(text != other or at + length <= o or o + length <= at for other, o in spans[i + 1 :]), key
        assert (new_a.split(), new_b.split()) == (want["a"], want["b"])  # the copies, and no other word changed
        assert occurrences(phrase, (new_a, new_b)) == len(spans) >= 3
        covered = (len(spans) - 1) * length / 1000
        assert 0.08 <= covered <= 0.25 and covered == pytest.approx(REPEATED_WORD_SHARE, abs=0.02), key
    assert punctuated  # punctuation copied too


def test_repeated_texts_are_a_pure_function_of_the_texts_and_key():
    a, b = spaced(words_of(300, "a")), spaced(words_of(200, "b"))
    got = repeated_texts(a, b, "key")
    assert repeated_texts(a, b, "key") == got != (a, b)
    others = {repeated_texts(a, b, f"other key {k}") for k in range(10)}
    assert got not in others and len(others) == 10
    sources = {repeated_spans(f"k{k}", 300, 200)[0] for k in range(40)}
    lengths = {repeated_spans(f"k{k}", 300, 200)[1] for k in range(40)}
    assert sources == {"a", "b"} and lengths == set(PHRASE_WORDS)


def test_short_uneven_and_tiny_texts():
    """Texts of fewer than 2 words stay as they are; short texts still get a copy in each text (the phrase at most the
    shorter text's length), so the phrase occurs at least twice; uneven texts keep their counts."""
    for k in range(30):
        key = f"key-{k}"
        assert repeated_texts("alone", "two words", key) == ("alone", "two words")
        assert repeated_texts("", "some words here", key) == ("", "some words here")
        assert repeated_texts("   ", "", key) == ("   ", "")
        new_a, new_b = repeated_texts("one two", "three four", key)
        assert new_a == new_b in ("one two", "three four")  # the whole phrase copied over the other text
        for text_a, text_b in (("w0 w1 w2 w3 w4 w5 w6 w7 w8 w9", "x0 x1 x2"), ("y0 y1 y2", "z0 z1 z2 z3 z4 z5 z6")):
            new_a, new_b = repeated_texts(text_a, text_b, key)
            assert (len(new_a.split()), len(new_b.split())) == (len(text_a.split()), len(text_b.split()))
            source, length, start, copies = repeated_spans(key, len(text_a.split()), len(text_b.split()))
            assert 2 <= length <= 3 and copies[{"a": "b", "b": "a"}[source]]
            phrase = {"a": text_a, "b": text_b}[source].split()[start : start + length]
            assert occurrences(phrase, (new_a, new_b)) >= 2


def test_a_repeated_fraction_is_a_number_from_0_to_1(corpus):
    for good in (0, 0.0, 0.5, 1, 1.0):
        check_repeated_fraction(good)
    for bad in (-0.1, 1.5, "0.5", True, False, None, math.nan, [0.5]):
        with pytest.raises(ValueError, match="repeated fraction must be a number from 0 to 1"):
            check_repeated_fraction(bad)
    with pytest.raises(ValueError, match="repeated fraction must be a number from 0 to 1"):
        InterleaveProblems(corpus, "train", 10, repeated_fraction=2)
    with pytest.raises(ValueError, match="repeated fraction must be a number from 0 to 1"):
        tasks.get("stage-1").with_repeated_fraction(-0.5)


@pytest.mark.parametrize("n_words", [10, 50])
def test_every_repeated_problem_holds_its_phrase_in_both_texts(corpus, n_words):
    """A repeated problem is the same problem (id, sources, registers) whose texts keep their word count, its prompt
    and target built from the new texts, its phrase in both texts and at least twice (three times where the source
    text has room for a copy beside the phrase: always at 50 words)."""
    plain = InterleaveProblems(corpus, "train", n_words)
    every = InterleaveProblems(corpus, "train", n_words, repeated_fraction=1)
    for index in range(PROBLEMS):
        got, want = every[index], plain[index]
        assert every.repeated(index)
        assert {k: v for k, v in got.items() if k not in ROW_TEXTS} == {
            k: v for k, v in want.items() if k not in ROW_TEXTS
        }
        assert got["target"] == interleave_target(got["text_a"], got["text_b"])
        assert got["prompt"] == interleave_prompt(got["text_a"], got["text_b"])
        assert len(got["text_a"].split()) == len(got["text_b"].split()) == n_words
        source, length, start, copies = repeated_spans(f"{every._key}/repeats/index={index}", n_words, n_words)
        phrase = want[f"text_{source}"].split()[start : start + length]
        other = "b" if source == "a" else "a"
        room = start >= length or n_words - start - length >= length  # a free run beside the source phrase
        assert copies[other] and bool(copies[source]) == room and (room or n_words == 10)
        assert occurrences(phrase, (got["text_a"],)) >= 1 and occurrences(phrase, (got["text_b"],)) >= 1
        assert occurrences(phrase, (got["text_a"], got["text_b"])) >= 2 + room


def test_at_500_words_repeated_problems_hold_more_places_that_repeat(corpus):
    """Where the stage-6 adapter first slips out of register: a word whose two words before occur again as a pair in
    its text (21% of the words of technical documentation, 14% on test). The transformed train problems hold more such
    places than the plain ones, about as many as technical documentation, and their copies cover about
    REPEATED_WORD_SHARE of the words."""
    plain = InterleaveProblems(corpus, "train", 500)
    every = InterleaveProblems(corpus, "train", 500, repeated_fraction=1)
    shares = {}
    for name, problems in (("plain", plain), ("repeated", every)):
        counts = [place_repeats_share(problems[i][t]) for i in range(40) for t in ("text_a", "text_b")]
        shares[name] = sum(hit for hit, _ in counts) / sum(words for _, words in counts)
    assert shares["repeated"] > shares["plain"] + 0.04, shares
    assert 0.1 <= shares["plain"] <= 0.2 and 0.17 <= shares["repeated"] <= 0.32, shares
    covered = []
    for index in range(40):
        _, length, _, copies = repeated_spans(f"{every._key}/repeats/index={index}", 500, 500)
        covered.append((len(copies["a"]) + len(copies["b"])) * length / 1000)
    assert all(0.08 <= share <= 0.25 for share in covered), covered
