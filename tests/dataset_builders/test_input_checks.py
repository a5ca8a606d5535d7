"""Bad arguments to the dataset builders and their CLIs: one clear message each, never a traceback or a silent guess."""

import re

import pytest

from dataset_builders.arithmetic import arithmetic_dataset, arithmetic_stream
from dataset_builders.arithmetic.__main__ import main as arithmetic_main
from dataset_builders.interleave_curriculum import curriculum_dataset, curriculum_stream, stage_words
from dataset_builders.interleave_curriculum.__main__ import main as curriculum_main


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: curriculum_stream(stage=1, start_index=2.5), "start_index must be an integer, got 2.5 (float)"),
        (lambda: curriculum_stream(stage=1, seed="abc"), "seed must be an integer, got 'abc' (str)"),
        (lambda: curriculum_stream(stage=1, seed=True), "seed must be an integer, got True (bool)"),
        (lambda: curriculum_stream(n_words=2.5), "n_words must be an integer, got 2.5 (float)"),
        (lambda: curriculum_stream(stage="3"), "stage must be an integer 1-6, got '3' (str)"),
        (lambda: curriculum_stream(stage=True), "stage must be an integer 1-6, got True (bool)"),
        (lambda: curriculum_dataset("test", stage=1, size=2.5), "test_size must be an integer, got 2.5 (float)"),
        (lambda: arithmetic_stream(seed="abc"), "seed must be an integer, got 'abc' (str)"),
        (lambda: arithmetic_stream(start_index=2.5), "start_index must be an integer, got 2.5 (float)"),
        (lambda: arithmetic_dataset("test", size=-1), "test_size must be >= 0, got -1"),
    ],
)
def test_builder_arguments_of_the_wrong_type_or_range_are_named(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_stages_and_seeds_that_are_integers_still_work():
    import numpy as np

    assert stage_words(np.int64(3)) == 50
    assert next(iter(arithmetic_stream(seed=np.int64(7), start_index=np.int64(2))))["id"] == "3x2-train-seed7-0000002"


@pytest.mark.parametrize("main", [curriculum_main, arithmetic_main])
@pytest.mark.parametrize(
    "argv, message",
    [
        (["-n", "0"], "argument -n/--count: must be >= 1, got 0"),
        (["--start", "-5"], "argument --start: must be >= 0, got -5"),
        (["-n", "two"], "argument -n/--count: not an integer: 'two'"),
    ],
)
def test_cli_counts_and_indices_out_of_range_are_usage_errors(main, argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
