"""Long synthetic identifiers (--long_identifier_share): the long shapes and their components, the share of a text's
identifiers that are long, the texts of long share 0 unchanged byte for byte (a snapshot taken before long identifiers
existed), and the share threaded through the problems, the builder config and the task."""

import itertools
import json
import math
import re
import string
from itertools import islice
from pathlib import Path

import pytest

from dataset_builders import tasks
from dataset_builders.interleave_curriculum.identifiers import (
    IDENTIFIER_CHARACTERS,
    LONG_COMPONENTS,
    LONG_SHAPES,
    check_long_identifier_share,
    edges,
    identifier_positions,
    identifier_text,
    long_identifier_word,
)
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.prompts import interleave_prompt, interleave_target
from tests.dataset_builders.made_up_builder import DIGESTS, digest, made_up_builder, split_rows
from training.core.slip_diagnostics import is_symbolic

# identifier_text(text, key) for 200 (text, key) pairs, written by the code of e95347b, before long identifiers
SNAPSHOT = Path(__file__).parent / "fixtures" / "identifier_text_snapshot.json"
# made_up_builder(**config) of identifier configs before long identifiers: (config id, sha256 of the train rows)
IDENTIFIER_CONFIGS = {
    (("identifier_fraction", 0.5),): (
        "words-3-1199f0660b1a46ac",
        "8342e81a0287225aaf50d3f9d1dedbe4af03c9e1598df9f3decff59784e051b2",
    ),
    (("identifier_fraction", 1), ("scrambled_fraction", 0.5)): (
        "words-3-45486c3eaa51c729",
        "0e4a58bab65136a555436c488e9fd6af12321e78cf1704e405a93033c250fa4f",
    ),
}
ALLOWED = frozenset(string.ascii_letters + string.digits + "._/:()-=")  # what a long shape writes
SHAPE_LETTERS = {"module_path": ["py"]}  # components a shape writes of its own (the file suffix), not of the words
CAMEL_OR_ALNUM = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")  # a run of letters split at camelCase boundaries
WORDS = ["alpha", "beta", "gamma", "delta", "omega"]  # letters only, several each: components split apart cleanly


def components(identifier: str) -> list[str]:
    """``identifier``'s components, lower-cased: split on what is not a letter or digit and at camelCase boundaries
    (``AAA_404_BBB``: aaa, 404, bbb; ``AaaBbbCcc``: aaa, bbb, ccc), as the slip analysis counts them."""
    return [part.lower() for run in re.split(r"[^A-Za-z0-9]+", identifier) for part in CAMEL_OR_ALNUM.findall(run)]


def letter_word(i: int) -> str:
    """A distinct word of letters only for each ``i`` (base 26), two letters at least: ``ba``, ``ca``, ..."""
    letters = ""
    while True:
        i, r = divmod(i, 26)
        letters += string.ascii_lowercase[r]
        if not i:
            return "w" + letters


def test_long_share_0_writes_the_snapshot_byte_for_byte():
    """The committed recipes' identifier problems depend on it: with long share 0 (the default, 0 or 0.0) every text
    is the one identifier_text wrote before long identifiers existed."""
    cases = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert len(cases) == 200 and sum(c["text"] != c["expected"] for c in cases) > 150  # most texts get identifiers
    for case in cases:
        for got in (
            identifier_text(case["text"], case["key"]),
            identifier_text(case["text"], case["key"], 0),
            identifier_text(case["text"], case["key"], 0.0),
        ):
            assert got == case["expected"], case
    # and long share 1 changes them (the snapshot's texts are not beyond the new code's reach)
    changed = sum(identifier_text(c["text"], c["key"], 1.0) != c["expected"] for c in cases)
    assert changed > 150


@pytest.mark.parametrize("config", list(IDENTIFIER_CONFIGS), ids=["half", "all-and-scrambled"])
def test_a_builder_without_long_identifiers_makes_the_data_and_cache_folder_of_before(config):
    config_id, train = IDENTIFIER_CONFIGS[config]
    for share in ({}, {"long_identifier_share": 0}, {"long_identifier_share": 0.0}):
        builder = made_up_builder(**dict(config), **share)
        assert builder.config_id == config_id and builder.config.long_identifier_share == 0
        assert digest(split_rows(builder, "train")) == train


@pytest.mark.parametrize("count", LONG_COMPONENTS)
def test_every_long_shape_keeps_its_components_in_order_and_writes_code_characters(count):
    """Each long shape writes its 3 or 4 components (the number in a word's place where it takes one) in order, of
    letters, digits and ``. _ / : ( ) - =`` only; is_symbolic counts it, whatever its components."""
    parts = WORDS[:count]
    for name, shape in LONG_SHAPES.items():
        for n in (0, 7, 404, 999):
            identifier = shape(parts, n)
            assert set(identifier) <= ALLOWED, (name, identifier)
            got = [c for c in components(identifier) if c not in SHAPE_LETTERS.get(name, [])]
            want = [*parts[:-2], str(n), parts[-1]] if name == "UPPER_SNAKE_number" else parts
            assert got == want, (name, identifier)
            assert len(got) == count
    odd = ("i", "x", "am", "1", "19", "a1", "war1990")  # one letter, digits only, letters and digits
    for (name, shape), combination in itertools.product(LONG_SHAPES.items(), itertools.product(odd, repeat=count)):
        for opens, closes in (("", ""), ("(", "),"), ('"', '."'), ("'", "';")):
            word = opens + shape(list(combination), 42) + closes
            assert is_symbolic(word) and len(word.split()) == 1, (name, word)


def built_from(identifier: str, words: list[str]) -> bool:
    """Whether ``identifier`` (its punctuation stripped) has 3 or 4 components, those of the first of ``words`` in
    order (the shape's own ``py`` left out), the one before the last of them a number in place of its word where the
    shape puts one."""
    got = [c for c in components(identifier) if c != "py"]
    want = words[: len(got)]
    return len(got) in LONG_COMPONENTS and all(
        c == w or (c.isdigit() and j == len(got) - 2) for j, (c, w) in enumerate(zip(got, want, strict=True))
    )


def test_a_long_identifier_is_built_from_the_word_and_the_next_two_or_three_with_its_punctuation():
    """Every long shape and both component counts are drawn, keyed; the word's punctuation stays around it."""
    by_identifier = {
        shape(WORDS[:count], n): (name, count)
        for (name, shape), count, n in itertools.product(LONG_SHAPES.items(), LONG_COMPONENTS, range(1000))
    }
    seen = set()
    for k in range(600):
        word = long_identifier_word('("Alpha,', ["Beta!", "GAMMA", "delta"], f"key-{k}")
        assert word == long_identifier_word('("Alpha,', ["Beta!", "GAMMA", "delta"], f"key-{k}")  # keyed
        assert word.startswith('("') and word.endswith(",") and is_symbolic(word)
        assert built_from(word, WORDS), word
        seen.add(by_identifier[word[2:-1]])
    assert seen == set(itertools.product(LONG_SHAPES, LONG_COMPONENTS))
    stand_ins = {long_identifier_word("—", ["«»", "...", "!"], f"key-{k}") for k in range(50)}  # no letter or digit
    assert all(is_symbolic(word) and word.startswith("—") for word in stand_ins)


def test_the_long_share_of_a_texts_identifiers_and_the_rest_as_before():
    """The same words are replaced at every long share (identifier_positions); each is long when its own keyed draw
    falls under the share (about half at 0.5, those of 0.3 among those of 0.6), else the identifier of long share 0;
    a long one has 3 or 4 components, the word's and the next words' (wrapping around at the end of the text)."""
    words = [letter_word(i) + ("," if i % 7 == 0 else "") for i in range(4000)]
    bare = [word.rstrip(",") for word in words]
    text = "  " + " ".join(words[:2000]) + "\n" + "\t".join(words[2000:]) + " "
    plain_ids = identifier_text(text, "key").split()
    positions = identifier_positions(len(words), "key")
    assert len(positions) > 300
    long_at = {}
    for share in (0.3, 0.5, 0.6, 1.0):
        changed = identifier_text(text, "key", share)
        assert changed == identifier_text(text, "key", share)  # the same every call
        assert re.split(r"\S+", changed) == re.split(r"\S+", text)  # every space, tab and newline where it was
        got = changed.split()
        assert len(got) == len(words)
        assert [i for i, (new, old) in enumerate(zip(got, words)) if new != old] == positions
        long_at[share] = [i for i in positions if got[i] != plain_ids[i]]
        for i in long_at[share]:
            assert got[i].endswith(",") == words[i].endswith(",") and is_symbolic(got[i])
            assert built_from(got[i], (bare + bare[:3])[i : i + 4]), (got[i], words[i : i + 4])
    assert long_at[1.0] == positions
    assert 0.4 <= len(long_at[0.5]) / len(positions) <= 0.6
    assert set(long_at[0.3]) < set(long_at[0.6])
    # wrapping around: the last word's identifier takes the first words
    wrapped = 0
    for k in range(40):
        last = identifier_text("alpha beta gamma delta", f"wrap-{k}", 1.0).split()[-1]
        if last != "delta":
            wrapped += 1
            assert built_from(last, ["delta", *WORDS[:3]]), last
    assert wrapped and {identifier_text("alone", f"k{k}", 1.0) for k in range(10)} <= {
        shape(["alone"] * count, n) for shape in LONG_SHAPES.values() for count in LONG_COMPONENTS for n in range(1000)
    }


def test_a_long_share_is_a_number_from_0_to_1():
    for good in (0, 0.0, 0.5, 1, 1.0):
        check_long_identifier_share(good)
    for bad in (-0.1, 1.5, "0.5", True, False, None, math.nan, [0.5]):
        with pytest.raises(ValueError, match="long identifier share must be a number from 0 to 1"):
            check_long_identifier_share(bad)
        with pytest.raises(ValueError, match="long identifier share must be a number from 0 to 1"):
            identifier_text("some words here", "key", bad)


def test_the_problems_with_long_identifiers_are_the_identifier_problems_with_longer_ones(corpus):
    """The same problems get identifiers, in the same words; with long share 1 each of them is long: another
    identifier than at long share 0, holding the word after the replaced one (the texts' word count kept, the prompt
    and target built from the new texts)."""
    short = InterleaveProblems(corpus, "train", 50, identifier_fraction=0.5)
    long = InterleaveProblems(corpus, "train", 50, identifier_fraction=0.5, long_identifier_share=1)
    plain = InterleaveProblems(corpus, "train", 50)
    identified = 0
    for index in range(100):
        assert long.identified(index) == short.identified(index)
        got, before, want = long[index], short[index], plain[index]
        if not long.identified(index):
            assert got == want
            continue
        identified += 1
        assert got["target"] == interleave_target(got["text_a"], got["text_b"])
        assert got["prompt"] == interleave_prompt(got["text_a"], got["text_b"])
        assert {k: v for k, v in got.items() if not k.startswith(("text", "target", "prompt"))} == {
            k: v for k, v in want.items() if not k.startswith(("text", "target", "prompt"))
        }
        for text in ("text_a", "text_b"):
            new, short_ids, old = got[text].split(), before[text].split(), want[text].split()
            assert len(new) == len(old) == 50
            replaced = [i for i, (a, b) in enumerate(zip(short_ids, old)) if a != b]
            assert [i for i, (a, b) in enumerate(zip(new, old)) if a != b] == replaced
            for i in replaced:
                assert new[i] != short_ids[i] and is_symbolic(new[i])
                own = "".join(c for c in old[i].lower() if c in IDENTIFIER_CHARACTERS)  # every long shape opens with it
                opens = edges(old[i])[0]
                assert not own or new[i][len(opens) :].lstrip("-").lower().startswith(own), (new[i], old[i : i + 4])
    assert 30 <= identified <= 70
    assert InterleaveProblems(corpus, "train", 50, long_identifier_share=1)[0] == plain[0]  # no identifiers: none long
    with pytest.raises(ValueError, match="long identifier share must be a number from 0 to 1"):
        InterleaveProblems(corpus, "train", 50, identifier_fraction=0.5, long_identifier_share=2)


def test_a_long_share_gets_a_config_id_of_its_own_and_leaves_validation_alone():
    identifiers = made_up_builder(identifier_fraction=1)
    long = made_up_builder(identifier_fraction=1, long_identifier_share=0.5)
    assert long.config_id != identifiers.config_id and long.config.long_identifier_share == 0.5
    assert long.config_id == made_up_builder(identifier_fraction=1.0, long_identifier_share=0.5).config_id
    assert long.config_id != made_up_builder(identifier_fraction=1, long_identifier_share=1).config_id
    assert digest(split_rows(long, "validation")) == DIGESTS["validation"]
    assert digest(split_rows(long, "train")) != digest(split_rows(identifiers, "train"))
    # without identifiers a long share changes no text: the default config and cache folder
    alone = made_up_builder(long_identifier_share=0.5)
    assert alone.config_id == made_up_builder().config_id and digest(split_rows(alone, "train")) == DIGESTS["train"]
    for bad in (-0.1, 1.5, "0.5", True):
        with pytest.raises(ValueError, match="long identifier share must be a number from 0 to 1"):
            made_up_builder(identifier_fraction=1, long_identifier_share=bad)


def _long_identifiers(rows, short_rows) -> list[bool]:
    """Whether each row is its row with short identifiers (the same id, the same replaced words) with every
    identifier another, of 3 or 4 components."""
    out = []
    for row, short in zip(rows, short_rows, strict=True):
        assert row["id"] == short["id"]
        ok = row["target"] == interleave_target(row["text_a"], row["text_b"])
        for text in ("text_a", "text_b"):
            new, old = row[text].split(), short[text].split()
            changed = [word for word, before in zip(new, old) if word != before]
            ok = ok and len(new) == len(old) and bool(changed)
            ok = ok and all(len(components(w)) - ("py" in components(w)) in LONG_COMPONENTS for w in changed)
        out.append(ok)
    return out


def test_a_tasks_long_share_reaches_every_train_problem_only():
    """--identifier_fraction 1 --long_identifier_share 1: single train problems, the train stream, dynamic
    sampling's and every train length get long identifiers where the identifier task has short ones; validation, test
    and out_of_register rows stay the plain ones; the order of the two settings does not matter."""
    stage = tasks.get("stage-1")
    identified = stage.with_identifier_fraction(1)
    identified.problem("train", 0)  # its train problems are built: the copy must draw its own
    long = identified.with_long_identifier_share(1)
    assert (identified.long_identifier_share, long.long_identifier_share) == (0.0, 1.0)
    assert long.identifier_fraction == 1.0
    short_train = [identified.problem("train", i) for i in range(8)]
    assert all(_long_identifiers([long.problem("train", i) for i in range(8)], short_train))
    assert all(_long_identifiers(islice(long.train_stream(0), 8), short_train))
    assert all(_long_identifiers(long.problems("train", size=4), short_train[:4]))
    assert all(_long_identifiers(islice(long.resample_problems(0), 8), islice(identified.resample_problems(0), 8)))
    lengths, short_lengths = long.with_train_words([4, 10]), identified.with_train_words([4, 10])
    assert all(_long_identifiers(islice(lengths.train_stream(0), 8), islice(short_lengths.train_stream(0), 8)))
    other_order = stage.with_long_identifier_share(1).with_identifier_fraction(1)
    assert [other_order.problem("train", i) for i in range(8)] == [long.problem("train", i) for i in range(8)]
    assert long.problems("validation", size=8).to_list() == stage.problems("validation", size=8).to_list()
    assert long.problem("test", 3) == stage.problem("test", 3)
    assert long.problem("out_of_register", 3) == stage.problem("out_of_register", 3)
    assert long._sample_key([]) != identified._sample_key([])  # the budget measures its own targets
    with pytest.raises(ValueError, match="long identifier share must be a number from 0 to 1"):
        identified.with_long_identifier_share(1.5)
    with pytest.raises(ValueError, match="a long identifier share applies to the interleave tasks"):
        tasks.get("arithmetic").with_long_identifier_share(0.5)
