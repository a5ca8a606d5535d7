"""The arithmetic generator: ranges, held-out pairs never trained, no repeats, determinism, resume, configs."""

import json
from itertools import islice

import pytest

from dataset_builders.arithmetic import Arithmetic, ArithmeticProblems, arithmetic_dataset, arithmetic_stream
from dataset_builders.prompts import arithmetic_prompt
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def default():
    return ArithmeticProblems()


def test_default_is_three_digits_times_two_with_the_product_and_prompt(default):
    for split in ("train", "validation", "test"):
        for i in range(300):
            row = default.problem(split, i)
            assert 100 <= row["a"] <= 999 and 10 <= row["b"] <= 99
            assert row["answer"] == row["a"] * row["b"]
            assert row["prompt"] == arithmetic_prompt(row["a"], row["b"])
            assert row["id"] == f"3x2-{split}-seed0-{i:07d}"


def test_no_test_or_validation_pair_ever_appears_in_train(default):
    held_out = default.held_out_pairs()
    assert len(held_out) == 2 * default.held_out_per_split  # distinct: drawn from a permutation
    train = {default.pair("train", i) for i in range(default.n_train)}  # every train pair of the first epoch
    assert len(train) == default.n_train == 81_000 - len(held_out)
    assert not train & held_out
    test = {default.pair("test", i) for i in range(512)}
    validation = {default.pair("validation", i) for i in range(256)}
    assert len(test) == 512 and len(validation) == 256 and not test & validation


def test_square_configs_hold_out_both_orders():
    gen = ArithmeticProblems(2, 2, held_out_per_split=512)
    held_out = gen.held_out_pairs()
    train = [gen.pair("train", i) for i in range(gen.n_train)]
    assert all(frozenset(p) not in held_out for p in train)
    assert len({frozenset(p) for p in train}) == gen.n_train == 90 * 91 // 2 - 1024
    assert {a > b for a, b in train} == {True, False}  # both orders are shown


def test_a_train_run_repeats_no_pair_until_all_are_used(default):
    first = [default.pair("train", i) for i in range(5000)]
    assert len(set(first)) == 5000
    wrapped = default.pair("train", default.n_train)  # a new epoch starts: still never a held-out pair
    assert wrapped not in default.held_out_pairs()


def test_held_out_splits_are_bounded_and_configs_checked():
    gen = ArithmeticProblems()
    with pytest.raises(IndexError, match="at most 1024"):
        gen.pair("test", 1024)
    with pytest.raises(ValueError, match="too few"):
        ArithmeticProblems(1, 1)
    with pytest.raises(ValueError, match="exceeds held_out_per_split"):
        Arithmetic("3x2", test_size=2000)


DIGEST = (
    "import json; from dataset_builders.arithmetic import ArithmeticProblems; "
    "g = ArithmeticProblems(seed=11); "
    "print(json.dumps([g.pair(s, i) for s in ('train', 'test') for i in range(0, 1000, 37)]))"
)


def test_same_seed_same_problems_in_another_process_and_seeds_differ():
    here = ArithmeticProblems(seed=11)
    expected = [list(here.pair(s, i)) for s in ("train", "test") for i in range(0, 1000, 37)]
    proc = run_cli("-c", DIGEST, env={"PYTHONHASHSEED": "7"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected
    other = ArithmeticProblems(seed=12)
    assert [other.pair("test", i) for i in range(50)] != [here.pair("test", i) for i in range(50)]


def test_stream_resumes_and_builder_prepares_every_split(tmp_path):
    full = [r["id"] for r in islice(arithmetic_stream(num_examples=3000), 2100)]
    assert [r["id"] for r in islice(arithmetic_stream(start_index=1500), 600)] == full[1500:]
    stream = arithmetic_stream(num_examples=3000)
    for _ in zip(range(1700), stream):
        pass
    state = stream.state_dict()
    stream.load_state_dict(state)
    assert [r["id"] for r in islice(stream, 400)] == full[1700:2100]
    builder = Arithmetic("4x3", cache_dir=str(tmp_path), train_size=20, validation_size=5, test_size=7)
    builder.download_and_prepare()
    ds = builder.as_dataset()
    assert {s: ds[s].num_rows for s in ds} == {"train": 20, "validation": 5, "test": 7}
    assert all(1000 <= a <= 9999 and 100 <= b <= 999 for a, b in zip(ds["train"]["a"], ds["train"]["b"]))
    custom = Arithmetic(a_digits=6, b_digits=3, cache_dir=str(tmp_path))
    assert custom.config.name == "6x3" and Arithmetic("6x3", cache_dir=str(tmp_path)).config.a_digits == 6
    test = arithmetic_dataset("test", size=10)
    assert test.num_rows == 10 and test[0]["answer"] == test[0]["a"] * test[0]["b"]


def test_preview_cli_prints_problems_and_explains_bad_configs():
    proc = run_cli("-m", "dataset_builders.arithmetic", "--split", "test", "-n", "2")
    assert proc.returncode == 0, proc.stderr
    assert "3x2-test-seed0-0000001" in proc.stdout and "digits only" in proc.stdout
    bad = run_cli("-m", "dataset_builders.arithmetic", "--config", "1x1")
    assert bad.returncode == 2 and "too few" in bad.stderr and "Traceback" not in bad.stderr


def test_preview_shows_the_same_problems_as_the_dataset():
    """A config with its own held-out reserve (2x2) must preview exactly the dataset's problems."""
    from dataset_builders.arithmetic import arithmetic_dataset

    first = arithmetic_dataset("train", "2x2", size=1)[0]
    proc = run_cli("-m", "dataset_builders.arithmetic", "--config", "2x2", "-n", "1")
    assert proc.returncode == 0, proc.stderr
    assert f"{first['id']}: {first['a']} * {first['b']} = {first['answer']}" in proc.stdout
