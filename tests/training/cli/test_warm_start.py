"""make warm-start: supervised rows of mixed lengths from the train split, and a short run that writes an adapter."""

import json
import subprocess

import pytest
import torch

from dataset_builders.prompts import interleave_target
from tests.conftest import REPO_ROOT
from tests.in_process import make_command
from training.cli.warm_start import WarmStartArguments, parse_words, warm_start_dataset, warm_start_tasks
from training.core.arguments import RecipeError


def test_rows_take_turns_over_the_word_counts_and_complete_with_the_target():
    rows = warm_start_dataset(warm_start_tasks(WarmStartArguments(words="4,6")), size=5)
    assert len(rows) == 5
    for row, words in zip(rows, [4, 6, 4, 6, 4]):
        text = row["prompt"][-1]["content"]
        text_a = text.split("Text A:\n")[1].split("\n\nText B:")[0]
        text_b = text.split("Text B:\n")[1]
        assert len(text_a.split()) == words and len(text_b.split()) == words
        assert row["completion"] == [{"role": "assistant", "content": interleave_target(text_a, text_b)}]


def test_rows_built_in_two_processes_are_the_rows_of_one():
    """The chain's helps build their rows in several processes (``--dataset_num_proc``): each row comes from its index,
    so the rows, their order and their columns' types are those of one process, identifiers and shuffles included."""
    from training.cli.warm_start import parse_warm_start_arguments
    from training.core.arguments import RECIPES_DIR

    recipe = str(RECIPES_DIR / "sft-stage-6-help-identifiers.yaml")  # identifiers in half of the rows, 7 word counts
    args, _, _ = parse_warm_start_arguments(["--config", recipe, "--words", "4,6,9", "--scrambled_fraction", "0.3"])
    one = warm_start_dataset(warm_start_tasks(args), size=300)
    two = warm_start_dataset(warm_start_tasks(args), size=300, num_proc=2)
    assert one.to_list() == two.to_list() and one.features == two.features
    assert len({row["prompt"][-1]["content"] for row in two}) == 300  # 300 problems, none built twice


def test_word_ranges():
    assert parse_words("4-6") == [4, 5, 6] and parse_words("10") == [10]
    assert parse_words("4-6, 10,500,5") == [4, 5, 6, 10, 500]
    for bad in ("6-4", "0", "x", "4-", "4,,10"):
        with pytest.raises(RecipeError, match="--words"):
            parse_words(bad)


def _make_warm_start(train_args: str, in_process=None):
    """``make warm-start`` on the tiny model with small rows; fails the test with its stderr if the run fails. With
    ``in_process`` (the fixture), the command make would run (``make -n``) runs in the test's process instead."""
    variables = [
        "MODEL=tiny-random-llama",
        f"TRAIN_ARGS=--per_device_train_batch_size 2 --max_length 512 --report_to none "
        f"--dataset_num_proc 1 {train_args}",
    ]
    if in_process is not None:
        proc = in_process(*make_command("warm-start", *variables))
    else:
        proc = subprocess.run(
            ["make", "--no-print-directory", "warm-start", *variables],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FutureWarning" not in proc.stderr  # TRL's SFTConfig sets transformers' deprecated gradient_checkpointing
    return proc


def test_make_warm_start_writes_a_trained_adapter(tiny_model_dir, tmp_path, in_process):
    """Packed rows (several problems per row, as the recipe trains) of mixed lengths: ``make warm-start`` in a
    process of its own; the phase that continues it runs make's command in the test's process."""
    from safetensors.torch import load_file

    proc = _make_warm_start(
        f"--max_steps 3 --words 4-6,40 --problems 24 --packing true --logging_steps 1 "
        f"--output_dir {tmp_path}/run --results_dir {tmp_path}/res"
    )
    weights = load_file(tmp_path / "run" / "final" / "adapter_model.safetensors")
    assert any("lora_B" in name and tensor.abs().sum() > 0 for name, tensor in weights.items())  # it trained
    summary = json.loads((tmp_path / "res" / "summary.json").read_text())
    assert summary["global_step"] == 3 and summary["steps_logged"] == 3 and summary["task"] == "interleave"
    assert summary["tasks"] == ["words-4", "words-5", "words-6", "words-40"] and summary["words"] == "4-6,40"
    assert summary["completion_budget"] > 2 * 40  # the budget of the longest length (two 40-word texts)
    assert summary["packing"] is True and summary["problems"] == 24
    assert summary["nonfinite_gradient_steps_skipped"] == []  # the same record as GRPO runs keep
    assert (summary["scrambled_fraction"], summary["identifier_fraction"]) == (0.0, 0.0)
    assert (summary["long_identifier_share"], summary["doubled_fraction"]) == (0.0, 0.0)
    assert summary["repeated_fraction"] == 0.0
    assert summary["sft"]["lr_scheduler_type"] == "cosine"  # bases/sft.yaml's (a recipe's schedule, recorded)
    assert summary["sft"]["lr_scheduler_kwargs"] == {}
    assert "INIT_ADAPTER=" in proc.stdout

    # a later phase continues that adapter (make warm-start RECIPE=...): it starts from its weights and moves them
    proc = _make_warm_start(
        f"--max_steps 1 --warmup_steps 0 --lr_scheduler_type warmup_stable_decay "
        f"--lr_scheduler_kwargs '{{\"num_decay_steps\": 1}}' --words 4 --init_adapter {tmp_path}/run/final "
        f"--scrambled_fraction 0.5 "
        f"--identifier_fraction 0.25 --long_identifier_share 0.5 --doubled_fraction 0.75 "
        f"--repeated_fraction 0.5 "
        f"--per_device_train_batch_size 2 --gradient_accumulation_steps 2 --weight_average_decay 0.75 "
        f"--max_train_minutes 0.0001 "  # its clock ends it at once: the stop says where the trained weights are
        f"--output_dir {tmp_path}/next --results_dir {tmp_path}/next-res",
        in_process,
    )
    assert "warm start next: 1 steps x 4 problems, 4 words-4 problems" in proc.stdout  # a step: 2 rows, twice
    assert f"continuing the adapter {tmp_path}/run/final" in proc.stdout
    last = load_file(tmp_path / "next" / "final-raw" / "adapter_model.safetensors")
    assert last.keys() == weights.keys()
    assert any(not torch.equal(last[name], weights[name]) for name in weights)  # it trained further
    # final/ is the weight average: after one step, 0.75 of the start's weights and 0.25 of the step's
    after = load_file(tmp_path / "next" / "final" / "adapter_model.safetensors")
    assert after.keys() == weights.keys()
    for name in weights:
        torch.testing.assert_close(after[name], 0.75 * weights[name] + 0.25 * last[name], rtol=1e-5, atol=1e-6)
    assert any(not torch.equal(after[name], last[name]) for name in weights)
    assert "final adapter: the average of the trained weights (decay 0.75); final-raw: the last" in proc.stdout
    assert f"--init_adapter {tmp_path}/next/final-raw continues the trained weights (final/ is their average)" in (
        proc.stdout
    )
    summary = json.loads((tmp_path / "next-res" / "summary.json").read_text())
    assert (summary["init_adapter"], summary["scrambled_fraction"]) == (f"{tmp_path}/run/final", 0.5)
    assert (summary["identifier_fraction"], summary["long_identifier_share"]) == (0.25, 0.5)
    assert (summary["doubled_fraction"], summary["repeated_fraction"]) == (0.75, 0.5)
    assert (summary["weight_average_decay"], summary["final_raw_adapter"]) == (0.75, f"{tmp_path}/next/final-raw")
    # a schedule's own settings are recorded with it (sweep 45's stage 5 decays over its last 152 steps)
    assert (summary["sft"]["lr_scheduler_type"], summary["sft"]["warmup_steps"]) == ("warmup_stable_decay", 0)
    assert summary["sft"]["lr_scheduler_kwargs"] == {"num_decay_steps": 1}


def test_arithmetic_rows_are_train_products_and_never_a_held_out_pair():
    from dataset_builders.arithmetic.problems import ArithmeticProblems

    rows = warm_start_dataset(warm_start_tasks(WarmStartArguments(task="arithmetic-3x2")), size=2000)
    held_out = ArithmeticProblems(3, 2).held_out_pairs()
    for row in rows:
        a, b = map(int, row["prompt"][-1]["content"].split("What is ")[1].split("?")[0].split(" * "))
        assert row["completion"] == [{"role": "assistant", "content": str(a * b)}]
        assert (a, b) not in held_out and 100 <= a <= 999 and 10 <= b <= 99
    with pytest.raises(RecipeError, match="no task 'arithmetic-three-by-two'"):
        warm_start_tasks(WarmStartArguments(task="arithmetic-three-by-two"))


def test_make_warm_start_trains_an_arithmetic_adapter(tiny_model_dir, tmp_path, in_process):
    """make's command (``make -n``) in the test's process; ``make warm-start`` itself: the test above."""
    train_args = f"--task arithmetic --max_steps 2 --output_dir {tmp_path}/run --results_dir {tmp_path}/res"
    proc = _make_warm_start(train_args, in_process)
    assert "arithmetic problems" in proc.stdout and "make train-arithmetic) INIT_ADAPTER=" in proc.stdout
    summary = json.loads((tmp_path / "res" / "summary.json").read_text())
    assert summary["task"] == "arithmetic" and summary["tasks"] == ["arithmetic"] and summary["words"] is None
    assert summary["global_step"] == 2 and (tmp_path / "run" / "final" / "adapter_model.safetensors").is_file()


def test_tokenizing_processes_follow_the_size_and_the_users_number():
    from training.cli.warm_start import PARALLEL_TOKENIZE_MIN_ROWS as MIN_ROWS
    from training.cli.warm_start import tokenize_processes

    assert tokenize_processes(80_000, None, cpus=16) == 8  # the 7-minute help run's 80,000 rows, on the H100 host
    assert tokenize_processes(MIN_ROWS, None, cpus=2) == 2
    assert tokenize_processes(MIN_ROWS - 1, None, cpus=16) is None  # small sets: one process
    assert tokenize_processes(80_000, None, cpus=1) is None and tokenize_processes(80_000, None, cpus=None) is None
    assert tokenize_processes(80_000, 1, cpus=16) == 1 and tokenize_processes(10, 3, cpus=2) == 3  # the user's wins


def test_a_large_warm_start_tokenizes_in_several_processes(tiny_model_dir, tmp_path, in_process):
    """Without --dataset_num_proc, a set of PARALLEL_TOKENIZE_MIN_ROWS rows is tokenized by more than one process
    (TRL's dataset map pickles its functions to them: this checks that it works) and the run trains."""
    from training.cli.warm_start import PARALLEL_TOKENIZE_MIN_ROWS

    proc = in_process(
        "-m", "training.cli.warm_start", "--config", "training/recipes/sft-stage-2-help.yaml",
        "--model", "tiny-random-llama", "--use_cpu", "true", "--bf16", "false", "--report_to", "none",
        "--max_steps", "1", "--per_device_train_batch_size", "2",
        "--problems", str(PARALLEL_TOKENIZE_MIN_ROWS), "--words", "4",
        "--output_dir", f"{tmp_path}/run", "--results_dir", f"{tmp_path}/res",
        env={"CUDA_VISIBLE_DEVICES": ""},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"tokenizing {PARALLEL_TOKENIZE_MIN_ROWS} rows in 2 processes" in proc.stdout
    assert "num_proc=2" in proc.stderr  # TRL's own progress line says it used them
    assert (tmp_path / "run" / "final" / "adapter_model.safetensors").is_file()


def test_register_weights_reweight_the_rows_of_every_length(corpus):
    from training.cli.warm_start import parse_warm_start_arguments
    from training.core.arguments import RECIPES_DIR

    numeric = [passage.text for passage in corpus.split("train") if passage.register == "numeric"]

    def numeric_share(args) -> float:
        """The share of rows whose Text A comes from a numeric (Factbook) passage."""
        rows = warm_start_dataset(warm_start_tasks(args), size=64)
        texts = [row["prompt"][-1]["content"].split("Text A:\n")[1].split("\n\nText B:")[0] for row in rows]
        return sum(any(text in passage for passage in numeric) for text in texts) / len(texts)

    recipe = str(RECIPES_DIR / "sft-every-length.yaml")
    args, _, _ = parse_warm_start_arguments(["--config", recipe, "--words", "4,6", "--register_weights", "numeric=4"])
    assert [t.register_weights for t in warm_start_tasks(args)] == [{"numeric": 4}, {"numeric": 4}]
    # 1 of 5 equal registers, against 4 of 8
    assert numeric_share(WarmStartArguments(words="4,6")) == pytest.approx(0.2, abs=0.06)
    assert numeric_share(args) == pytest.approx(0.5, abs=0.08)
    with pytest.raises(RecipeError, match="--register_weights 'numeric=x': the weight of numeric must be a positive"):
        warm_start_tasks(WarmStartArguments(words="4,6", register_weights="numeric=x"))
    with pytest.raises(RecipeError, match="register weights apply to the interleave tasks"):
        warm_start_tasks(WarmStartArguments(task="arithmetic", register_weights="numeric=2"))


def _texts(row) -> tuple[str, str]:
    """Text A and Text B of a warm-start row's prompt."""
    text = row["prompt"][-1]["content"]
    return text.split("Text A:\n")[1].split("\n\nText B:")[0], text.split("Text B:\n")[1]


def _rows_with(flag: str) -> tuple[list, list]:
    """Rows of sft-every-length at 4 and 6 words with ``--FLAG 1``, and the same rows without it."""
    from training.cli.warm_start import parse_warm_start_arguments
    from training.core.arguments import RECIPES_DIR

    recipe = str(RECIPES_DIR / "sft-every-length.yaml")
    args, _, _ = parse_warm_start_arguments(["--config", recipe, "--words", "4,6", f"--{flag}", "1"])
    assert [getattr(t, flag) for t in warm_start_tasks(args)] == [1.0, 1.0]
    plain = warm_start_dataset(warm_start_tasks(WarmStartArguments(words="4,6")), size=8)
    return warm_start_dataset(warm_start_tasks(args), size=8), plain


def test_a_scrambled_fraction_shuffles_the_rows_of_every_length():
    rows, plain = _rows_with("scrambled_fraction")
    for row, plain_row in zip(rows, plain, strict=True):
        (a, b), (plain_a, plain_b) = _texts(row), _texts(plain_row)
        assert sorted(a.split()) == sorted(plain_a.split()) and sorted(b.split()) == sorted(plain_b.split())
        assert (a, b) != (plain_a, plain_b)
        assert row["completion"] == [{"role": "assistant", "content": interleave_target(a, b)}]


def test_an_identifier_fraction_puts_identifiers_in_the_rows_of_every_length():
    from training.core.slip_diagnostics import is_symbolic

    rows, plain = _rows_with("identifier_fraction")
    for row, plain_row in zip(rows, plain, strict=True):
        for text, plain_text in zip(_texts(row), _texts(plain_row), strict=True):
            changed = [word for word, before in zip(text.split(), plain_text.split(), strict=True) if word != before]
            assert changed and all(map(is_symbolic, changed))
        assert row["completion"] == [{"role": "assistant", "content": interleave_target(*_texts(row))}]


def test_a_doubled_fraction_doubles_a_word_in_the_rows_of_every_length():
    """--doubled_fraction 1: every row's texts keep their word counts, words copied from one text to the other, and
    its completion (the target of the new texts) holds more identical adjacent words than the plain row's."""
    rows, plain = _rows_with("doubled_fraction")

    def pairs(target: str) -> int:
        words = target.split()
        return sum(a == b for a, b in zip(words, words[1:]))

    for row, plain_row in zip(rows, plain, strict=True):
        (a, b), (plain_a, plain_b) = _texts(row), _texts(plain_row)
        assert (len(a.split()), len(b.split())) == (len(plain_a.split()), len(plain_b.split()))
        target = interleave_target(a, b)
        assert row["completion"] == [{"role": "assistant", "content": target}]
        assert pairs(target) > pairs(interleave_target(plain_a, plain_b))
        changed = [new for new, old in zip(a.split() + b.split(), plain_a.split() + plain_b.split()) if new != old]
        assert changed and all(word in plain_a.split() + plain_b.split() for word in changed)  # copies, not new words


def test_a_repeated_fraction_repeats_a_phrase_in_the_rows_of_every_length():
    """--repeated_fraction 1: every row's texts keep their word counts, words copied over others as a phrase that
    occurs at least twice in the two texts, and its completion is the target of the new texts."""
    rows, plain = _rows_with("repeated_fraction")
    for row, plain_row in zip(rows, plain, strict=True):
        (a, b), (plain_a, plain_b) = _texts(row), _texts(plain_row)
        assert (len(a.split()), len(b.split())) == (len(plain_a.split()), len(plain_b.split()))
        assert (a, b) != (plain_a, plain_b)
        assert row["completion"] == [{"role": "assistant", "content": interleave_target(a, b)}]
        assert all(word in plain_a.split() + plain_b.split() for word in a.split() + b.split())  # copies only
        pairs = [pair for words in (a.split(), b.split()) for pair in zip(words, words[1:])]
        assert len(set(pairs)) < len(pairs)  # a pair of words, at least, occurs twice


@pytest.mark.parametrize(
    "flag, what",
    [
        ("scrambled_fraction", "a scrambled fraction"),
        ("identifier_fraction", "an identifier fraction"),
        ("doubled_fraction", "a doubled fraction"),
        ("repeated_fraction", "a repeated fraction"),
    ],
)
def test_a_bad_train_share_or_one_without_texts_is_a_recipe_error(flag, what):
    with pytest.raises(RecipeError, match=f"--{flag} '2': expected a number from 0 to 1"):
        WarmStartArguments(words="4,6", **{flag: "2"})
    with pytest.raises(RecipeError, match=f"{what} applies to the interleave tasks"):
        warm_start_tasks(WarmStartArguments(task="arithmetic", **{flag: "0.5"}))


def test_a_weight_average_decay_of_1_or_more_is_a_recipe_error():
    with pytest.raises(RecipeError, match="--weight_average_decay 1.0: the average keeps this share"):
        WarmStartArguments(weight_average_decay=1.0)


def test_a_long_identifier_share_makes_the_rows_identifiers_long_and_needs_an_identifier_fraction():
    """--identifier_fraction 1 --long_identifier_share 1: the same rows as with identifiers alone, in the same words,
    each identifier another (of 3 or 4 components); a long share without identifiers is a RecipeError at parsing."""
    from training.cli.warm_start import parse_warm_start_arguments
    from training.core.arguments import RECIPES_DIR

    recipe = str(RECIPES_DIR / "sft-every-length.yaml")
    flags = ["--config", recipe, "--words", "4,6", "--identifier_fraction", "1"]
    short, _, _ = parse_warm_start_arguments(flags)
    long, _, _ = parse_warm_start_arguments([*flags, "--long_identifier_share", "1"])
    assert [t.long_identifier_share for t in warm_start_tasks(long)] == [1.0, 1.0]
    assert [t.long_identifier_share for t in warm_start_tasks(short)] == [0.0, 0.0]
    rows, short_rows = (warm_start_dataset(warm_start_tasks(args), size=8) for args in (long, short))
    plain = warm_start_dataset(warm_start_tasks(WarmStartArguments(words="4,6")), size=8)
    for row, short_row, plain_row in zip(rows, short_rows, plain, strict=True):
        for text, short_text, plain_text in zip(_texts(row), _texts(short_row), _texts(plain_row), strict=True):
            words, short_words, plain_words = text.split(), short_text.split(), plain_text.split()
            replaced = [i for i, (a, b) in enumerate(zip(short_words, plain_words, strict=True)) if a != b]
            assert replaced == [i for i, (a, b) in enumerate(zip(words, plain_words, strict=True)) if a != b]
            assert all(words[i] != short_words[i] for i in replaced)
        assert row["completion"] == [{"role": "assistant", "content": interleave_target(*_texts(row))}]
    with pytest.raises(RecipeError, match="there are none without --identifier_fraction"):
        WarmStartArguments(words="4,6", long_identifier_share="0.5")
    with pytest.raises(RecipeError, match="--long_identifier_share '2': expected a number from 0 to 1"):
        WarmStartArguments(words="4,6", identifier_fraction="0.5", long_identifier_share="2")
    with pytest.raises(RecipeError, match="an identifier fraction applies to the interleave tasks"):
        warm_start_tasks(WarmStartArguments(task="arithmetic", identifier_fraction="0.5", long_identifier_share="0.5"))


@pytest.mark.parametrize("steps, window", [(3, "2-2"), (2, "2-9")])
def test_make_warm_start_profiles_the_steps_asked(tiny_model_dir, tmp_path, in_process, steps, window):
    """--profile_steps A-B: torch.profiler over optimizer steps A-B into profile.md beside the summary, the steps before
    A timed unprofiled; the window closes at B (2-2, a step after it), or with the run if the run ends inside it (2-9
    on a run of 2 steps): written as far as it went."""
    proc = _make_warm_start(
        f"--task arithmetic --max_steps {steps} --profile_steps {window} --output_dir {tmp_path}/run "
        f"--results_dir {tmp_path}/res",
        in_process,
    )
    assert "profiled steps 2-2:" in proc.stdout
    profile = json.loads((tmp_path / "res" / "summary.json").read_text())["profile"]
    assert profile["steps"] == [2, 2] and profile["steps_timed_before"] == [1, 1]
    assert profile["seconds_a_step_before"] > 0 and profile["seconds_a_step_profiled"] > 0
    assert profile["gpu_kernel_share"] is None  # no GPU here: no device activity to read
    text = (tmp_path / "res" / "profile.md").read_text()
    assert text.startswith("# Where steps 2-2 spent their time") and "## Operators by own host time" in text
    assert "aten::" in text  # the operators' table itself


@pytest.mark.parametrize("spec", ["3", "4-2", "0-2", "a-b", "2-"])
def test_profile_steps_must_name_a_window(spec):
    with pytest.raises(RecipeError, match="give the optimizer steps to profile as A-B"):
        WarmStartArguments(profile_steps=spec)
    assert WarmStartArguments(profile_steps="40-50").profile_steps == "40-50"


def test_kernel_time_is_counted_once_as_torch_totals_it():
    """The GPU's share in profile.md sums the device's own events (kineto's kernels) and legacy CPU events that carry
    their kernels' time; a CPU operator's device time is its kernels' again and is not added."""
    from types import SimpleNamespace

    from torch.autograd import DeviceType

    from training.callbacks.profile_steps import kernel_microseconds

    def event(kind, us, legacy=False, annotation=False):
        return SimpleNamespace(
            device_type=kind, self_device_time_total=us, is_legacy=legacy, is_user_annotation=annotation
        )

    averages = [
        event(DeviceType.CUDA, 300.0),  # a kernel
        event(DeviceType.CPU, 300.0),  # the aten operator that launched it: the same time again
        event(DeviceType.CPU, 50.0, legacy=True),  # the legacy profiler keeps kernel time on CPU events
        event(DeviceType.CUDA, 1000.0, annotation=True),  # a user range on the device, not a kernel
    ]
    assert kernel_microseconds(averages) == 350.0
