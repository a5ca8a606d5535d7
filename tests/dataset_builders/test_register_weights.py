"""Register weights of the train split (issue 18): the spec parser, the builder config field, and the default
config's data unchanged byte for byte."""

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from dataset_builders.corpus import Corpus, Passage
from dataset_builders.interleave_curriculum import InterleaveCurriculum
from dataset_builders.interleave_curriculum.mix import BadRegisterWeights, parse_register_weights

# work id -> (register, split, three-word sentences)
WORKS = {
    "s1": ("speech", "train", 40),
    "s2": ("speech", "train", 30),
    "n1": ("numeric", "train", 20),
    "n2": ("numeric", "train", 25),
    "t1": ("technical", "train", 30),
    "t2": ("technical", "train", 30),
    "s3": ("speech", "validation", 20),
    "s4": ("speech", "validation", 20),
    "n3": ("numeric", "validation", 20),
}
# sha256 of the rows below, taken before the config had register weights: the default config's data. A change here
# means the published data changed (then bump GENERATOR_VERSION or PROMPT_VERSION and pin the new digests).
DIGESTS = {
    "train": "7d75eaef4dfbb9eb4fc8af8769967c8b6a991cf94cc1ddb92f11b9fc64b08d78",
    "validation": "b207b86ae4d994daccc77b3ad8e4ff44ecd24f8abe9a25620c439a753b99ae9d",
}


def _corpus() -> Corpus:
    passages = []
    for work_id, (register, split, n) in WORKS.items():
        text = " ".join(f"{work_id.capitalize()}{k} ends here." for k in range(n))
        passages.append(Passage(f"{work_id}/0000", work_id, "made-up", split, 3 * n, text, register))
    return Corpus(passages, {"sources": ["made-up"], "fingerprint": "made-up"}, Path("."))


def _builder(**config) -> InterleaveCurriculum:
    return InterleaveCurriculum(corpus=_corpus(), n_words=3, train_size=50, validation_size=20, test_size=0, **config)


def _rows(builder: InterleaveCurriculum, split: str) -> list[dict]:
    return list(builder.as_streaming_dataset(split=split))


def _digest(rows: list[dict]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def test_the_spec_names_registers_and_positive_whole_weights():
    assert parse_register_weights("numeric=2,reference=3") == {"numeric": 2, "reference": 3}
    assert parse_register_weights(" speech = 1 , technical=10 ") == {"speech": 1, "technical": 10}
    with pytest.raises(BadRegisterWeights, match="no register 'poetry'; registers are speech, fiction, dialogue"):
        parse_register_weights("poetry=2")
    for bad in ("numeric=0", "numeric=-1", "numeric=1.5", "numeric=two", "numeric="):
        with pytest.raises(BadRegisterWeights, match="the weight of numeric must be a positive whole number"):
            parse_register_weights(bad)
    for bad in ("numeric", "numeric:2", ""):
        with pytest.raises(BadRegisterWeights, match="expected register=weight pairs"):
            parse_register_weights(bad)
    with pytest.raises(BadRegisterWeights, match="numeric is named twice"):
        parse_register_weights("numeric=2,numeric=3")


def test_the_default_config_makes_the_same_data_and_cache_folder_as_before():
    default, explicit = _builder(), _builder(register_weights=None)
    assert default.config_id == explicit.config_id and default.config.register_weights is None
    for split in ("train", "validation"):
        assert _digest(_rows(default, split)) == _digest(_rows(explicit, split)) == DIGESTS[split]
    assert InterleaveCurriculum(config_name="stage-2", register_weights=None).config_id == "stage-2"


def test_weights_shift_the_train_mix_and_leave_validation_alone():
    default, weighted = _builder(), _builder(register_weights={"numeric": 4})
    shares = {}
    for name, builder in (("default", default), ("weighted", weighted)):
        rows = _rows(builder, "train")
        counts = Counter(r["register_a"] for r in rows) + Counter(r["register_b"] for r in rows)
        shares[name] = counts["numeric"] / (2 * len(rows))
    # three registers of equal weight: a third; numeric weighing 4 against 1 + 1: two thirds
    assert shares["default"] == pytest.approx(1 / 3, abs=0.05) and shares["weighted"] == pytest.approx(2 / 3, abs=0.05)
    assert _digest(_rows(weighted, "validation")) == DIGESTS["validation"]
    assert weighted.problems("validation").mix.shares() == default.problems("validation").mix.shares()


def test_weights_get_a_config_id_of_their_own_whatever_their_order():
    one = _builder(register_weights={"numeric": 2, "speech": 3})
    assert one.config_id != _builder().config_id
    assert one.config_id == _builder(register_weights={"speech": 3, "numeric": 2}).config_id
    assert one.config.register_weights == {"numeric": 2, "speech": 3}
    for bad in ({"numeric": -1}, {"numeric": 1.5}, ["numeric"]):
        with pytest.raises(ValueError, match="register weight"):
            _builder(register_weights=bad)
