"""What every share of train problems whose texts a transform changes (``--doubled_fraction``, doubles.py;
``--repeated_fraction``, repeats.py) must keep: at 0 the data of before byte for byte (digests taken before either
existed), its problems chosen the same every time and a smaller share a subset of a larger one, a builder config id of
its own, the held-out splits untouched; and all the shares, identifiers and scrambling too, each chosen apart and
applied in one order. Each transform's own tests (what it does to a problem's texts) are in test_doubled_fraction.py
and test_repeated_fraction.py."""

import hashlib
import json

import pytest

from dataset_builders import tasks
from dataset_builders.interleave_curriculum import InterleaveCurriculum
from dataset_builders.interleave_curriculum.doubles import doubled_texts
from dataset_builders.interleave_curriculum.identifiers import identifier_text
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.repeats import repeated_texts
from dataset_builders.interleave_curriculum.scramble import scrambled_text
from tests.dataset_builders.made_up_builder import DIGESTS, digest, made_up_builder, split_rows

PROBLEMS = 200
# (the config field and flag, the method of InterleaveProblems that says whether a problem is chosen)
SHARES = [
    pytest.param("doubled_fraction", "doubled", id="doubled"),
    pytest.param("repeated_fraction", "repeated", id="repeated"),
]
# sha256 of the JSON (sort_keys, ensure_ascii=False) of the first ``count`` train problems, InterleaveProblems(corpus,
# "train", n_words, **draw), written by the code of 90e620f, before doubled words (and repeated phrases) existed:
# (n_words, draw, count) -> digest. The long runs (1,000 and 300 problems) catch a change that touches only a few
# problems at fraction 0.
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


@pytest.mark.parametrize("field, chosen", SHARES)
@pytest.mark.parametrize("n_words, draw, count", list(BEFORE), ids=[f"{n}w-{dict(d)}-{c}" for n, d, c in BEFORE])
def test_a_share_of_0_makes_the_train_problems_of_before_byte_for_byte(corpus, field, chosen, n_words, draw, count):
    """The committed recipes' problems depend on it: unset, 0 or 0.0, the first train problems are those written
    before the share existed, with identifiers and scrambling too; and a share of 0.5 changes them."""
    for zero in ({}, {field: 0}, {field: 0.0}):
        problems = InterleaveProblems(corpus, "train", n_words, **dict(draw), **zero)
        assert rows_digest(problems[i] for i in range(count)) == BEFORE[(n_words, draw, count)], zero
        assert not any(getattr(problems, chosen)(i) for i in range(count))
    changed = InterleaveProblems(corpus, "train", n_words, **dict(draw), **{field: 0.5})
    assert rows_digest(changed[i] for i in range(count)) != BEFORE[(n_words, draw, count)]


@pytest.mark.parametrize("field, chosen", SHARES)
def test_a_tasks_share_of_0_keeps_its_train_problems_of_before(field, chosen):
    stage = tasks.get("stage-1").with_identifier_fraction(0.5)
    with_share = getattr(stage, f"with_{field}")
    for task in (stage, with_share(0), with_share(0.0)):
        assert getattr(task, field) == 0
        assert rows_digest(task.problem("train", i) for i in range(30)) == BEFORE[(10, HALF_IDENTIFIERS, 30)]
    assert [with_share(0).problem("train", i) for i in range(10)] == [stage.problem("train", i) for i in range(10)]


@pytest.mark.parametrize("field, chosen", SHARES)
def test_the_chosen_problems_are_the_same_every_time_and_a_smaller_share_a_subset(corpus, field, chosen):
    plain = InterleaveProblems(corpus, "train", 10)
    every = InterleaveProblems(corpus, "train", 10, **{field: 1})
    some = InterleaveProblems(corpus, "train", 10, **{field: 0.3})
    half = InterleaveProblems(corpus, "train", 10, **{field: 0.5})
    picks = [i for i in range(1000) if getattr(some, chosen)(i)]
    assert len(picks) / 1000 == pytest.approx(0.3, abs=0.05)
    assert set(picks) < {i for i in range(1000) if getattr(half, chosen)(i)}
    for index in range(100):
        assert some[index] == (every[index] if getattr(some, chosen)(index) else plain[index])
    again = InterleaveProblems(corpus, "train", 10, **{field: 0.3})
    assert [again[i] for i in (37, 3, 37)] == [some[37], some[3], some[37]]  # alone, in any order, twice
    other_seed = InterleaveProblems(corpus, "train", 10, seed=1, **{field: 0.3})
    assert [getattr(other_seed, chosen)(i) for i in range(100)] != [getattr(some, chosen)(i) for i in range(100)]
    task = getattr(tasks.get("stage-1"), f"with_{field}")(0.3)
    assert getattr(task, field) == 0.3
    assert sum(task.problem("train", i) != plain[i] for i in range(300)) / 300 == pytest.approx(0.3, abs=0.07)


@pytest.mark.parametrize("field, chosen", SHARES)
def test_a_share_of_0_makes_the_same_data_and_cache_folder_as_before(field, chosen):
    default = made_up_builder()
    for none in (made_up_builder(**{field: 0}), made_up_builder(**{field: 0.0})):
        assert none.config_id == default.config_id and getattr(none.config, field) == 0
        for split in ("train", "validation"):
            assert digest(split_rows(none, split)) == DIGESTS[split]
    half = made_up_builder(identifier_fraction=0.5)
    assert made_up_builder(identifier_fraction=0.5, **{field: 0}).config_id == half.config_id
    assert made_up_builder(identifier_fraction=0.5, **{field: 0}).config_id == "words-3-1199f0660b1a46ac"
    assert InterleaveCurriculum(config_name="stage-2", **{field: 0}).config_id == "stage-2"


@pytest.mark.parametrize("field, chosen", SHARES)
def test_a_share_gets_a_config_id_of_its_own_and_leaves_the_held_out_splits_alone(field, chosen):
    half = made_up_builder(**{field: 0.5})
    assert half.config_id != made_up_builder().config_id and getattr(half.config, field) == 0.5
    others = {"identifier_fraction", "scrambled_fraction", "doubled_fraction", "repeated_fraction"} - {field}
    assert all(half.config_id != made_up_builder(**{other: 0.5}).config_id for other in others)
    assert made_up_builder(**{field: 1}).config_id == made_up_builder(**{field: 1.0}).config_id
    every = made_up_builder(**{field: 1})
    assert digest(split_rows(every, "validation")) == DIGESTS["validation"]
    assert digest(split_rows(half, "train")) != DIGESTS["train"]
    assert getattr(every.problems("train"), field) == 1
    for split in ("validation", "test", "out_of_register"):
        assert getattr(every.config, f"split_{field}")(split) == 0.0
    assert getattr(every.problems("validation"), field) == 0
    assert not any(getattr(every.problems("validation"), chosen)(i) for i in range(100))
    for bad in (-0.1, 1.5, "0.5", True):
        with pytest.raises(ValueError, match=f"{field.replace('_', ' ')} must be a number from 0 to 1"):
            made_up_builder(**{field: bad})


@pytest.mark.parametrize("field, chosen", SHARES)
def test_a_real_builders_train_split_takes_the_share_and_its_held_out_splits_none(corpus, field, chosen):
    """Through the builder (the published data's path): about 0.3 of the train problems chosen, none of validation
    and test, whose problems stay those of the plain builder."""
    builder = InterleaveCurriculum(config_name="stage-1", corpus=corpus, **{field: 0.3})
    train = builder.problems("train")
    assert sum(getattr(train, chosen)(i) for i in range(1000)) / 1000 == pytest.approx(0.3, abs=0.05)
    plain = InterleaveCurriculum(config_name="stage-1", corpus=corpus)
    for split in ("validation", "test"):
        problems = builder.problems(split)
        assert getattr(problems, field) == 0 and not any(getattr(problems, chosen)(i) for i in range(1000))
        assert [problems[i] for i in range(50)] == [plain.problems(split)[i] for i in range(50)]


def test_doubling_then_repeats_then_identifiers_then_scrambling_each_chosen_apart(corpus):
    """Each share chooses its problems with a key of its own (the same problems as when it is the only share); a
    problem with several has its texts doubled, given a repeated phrase, then identifiers, then shuffled."""
    shares = {"doubled_fraction": "doubled", "repeated_fraction": "repeated"}
    shares |= {"identifier_fraction": "identified", "scrambled_fraction": "scrambled"}
    every = InterleaveProblems(corpus, "train", 10, **{field: 0.5 for field in shares})
    plain = InterleaveProblems(corpus, "train", 10)
    choices = [tuple(getattr(every, chosen)(i) for chosen in shares.values()) for i in range(PROBLEMS)]
    columns = list(zip(*choices, strict=True))
    for column, (field, chosen) in zip(columns, shares.items(), strict=True):
        alone = InterleaveProblems(corpus, "train", 10, **{field: 0.5})
        assert list(column) == [getattr(alone, chosen)(i) for i in range(PROBLEMS)], field
        assert PROBLEMS * 0.35 <= sum(column) <= PROBLEMS * 0.65, field
    assert len(set(columns)) == len(columns)  # no two shares choose the same problems
    assert PROBLEMS * 0.02 <= choices.count((True,) * 4) <= PROBLEMS * 0.15
    for index, (is_doubled, is_repeated, has_identifiers, is_scrambled) in enumerate(choices):
        got = every[index]
        text_a, text_b = plain[index]["text_a"], plain[index]["text_b"]
        if is_doubled:
            text_a, text_b = doubled_texts(text_a, text_b, f"{every._key}/doubles/index={index}")
        if is_repeated:
            text_a, text_b = repeated_texts(text_a, text_b, f"{every._key}/repeats/index={index}")
        if has_identifiers:
            key = f"{every._key}/identifiers/index={index}"
            text_a, text_b = identifier_text(text_a, key + "/text=a"), identifier_text(text_b, key + "/text=b")
        if is_scrambled:
            key = f"{every._key}/scramble/index={index}"
            text_a, text_b = scrambled_text(text_a, key + "/text=a"), scrambled_text(text_b, key + "/text=b")
        assert (got["text_a"], got["text_b"]) == (text_a, text_b), index
        if not any(choices[index]):
            assert got == plain[index]
