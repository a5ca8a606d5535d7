"""Register weights of the train split (issue 18): the spec parser, the builder config field, and the default
config's data unchanged byte for byte."""

from collections import Counter

import pytest

from dataset_builders.interleave_curriculum import InterleaveCurriculum
from dataset_builders.interleave_curriculum.mix import BadRegisterWeights, parse_register_weights
from tests.dataset_builders.made_up_builder import DIGESTS, digest, made_up_builder, split_rows


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
    default, explicit = made_up_builder(), made_up_builder(register_weights=None)
    assert default.config_id == explicit.config_id and default.config.register_weights is None
    for split in ("train", "validation"):
        assert digest(split_rows(default, split)) == digest(split_rows(explicit, split)) == DIGESTS[split]
    assert InterleaveCurriculum(config_name="stage-2", register_weights=None).config_id == "stage-2"


def test_weights_shift_the_train_mix_and_leave_validation_alone():
    default, weighted = made_up_builder(), made_up_builder(register_weights={"numeric": 4})
    shares = {}
    for name, builder in (("default", default), ("weighted", weighted)):
        rows = split_rows(builder, "train")
        counts = Counter(r["register_a"] for r in rows) + Counter(r["register_b"] for r in rows)
        shares[name] = counts["numeric"] / (2 * len(rows))
    # three registers of equal weight: a third; numeric weighing 4 against 1 + 1: two thirds
    assert shares["default"] == pytest.approx(1 / 3, abs=0.05) and shares["weighted"] == pytest.approx(2 / 3, abs=0.05)
    assert digest(split_rows(weighted, "validation")) == DIGESTS["validation"]
    assert weighted.problems("validation").mix.shares() == default.problems("validation").mix.shares()


def test_weights_get_a_config_id_of_their_own_whatever_their_order():
    one = made_up_builder(register_weights={"numeric": 2, "speech": 3})
    assert one.config_id != made_up_builder().config_id
    assert one.config_id == made_up_builder(register_weights={"speech": 3, "numeric": 2}).config_id
    assert one.config.register_weights == {"numeric": 2, "speech": 3}
    for bad in ({"numeric": -1}, {"numeric": 1.5}, ["numeric"]):
        with pytest.raises(ValueError, match="register weight"):
            made_up_builder(register_weights=bad)
