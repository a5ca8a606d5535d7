"""Continuation problems (--continuation_words): the cut, the window the rewards score, the task's train problems and
budget, the open assistant turn the prompt ends with, and the flags that do not combine with it."""

import pytest

from dataset_builders import tasks
from dataset_builders.interleave_curriculum.continuation import (
    SLIP_LEAD_WORDS,
    WINDOW_COLUMN,
    continuation_row,
    slip_cuts,
    windowed,
)
from dataset_builders.interleave_curriculum.rewards import INTERLEAVE_REWARDS
from dataset_builders.prompts import chat_prompt_ids, interleave_prompt, interleave_target

TEXT_A = "one two three four five six seven eight nine ten"
TEXT_B = "alpha beta gamma delta epsilon zeta eta theta iota kappa"


def row(problem_id: str = "10w-train-seed0-0000007") -> dict:
    return {
        "id": problem_id,
        "prompt": interleave_prompt(TEXT_A, TEXT_B),
        "target": interleave_target(TEXT_A, TEXT_B),
        "text_a": TEXT_A,
        "text_b": TEXT_B,
    }


def given_words(problem: dict) -> list[str]:
    """The words of the answer a continuation problem hands the model (its open assistant turn), if any."""
    last = problem["prompt"][-1]
    return last["content"].split() if last["role"] == "assistant" else []


def test_the_given_start_and_the_window_are_the_target_cut_in_two():
    whole = row()["target"].split()
    cuts = set()
    for i in range(200):
        problem = continuation_row(row(f"10w-train-seed0-{i:07d}"), 6)
        start, window = given_words(problem), problem["target"].split()
        assert start + window == whole[: len(start) + 6] and len(window) == 6 and problem[WINDOW_COLUMN] == 6
        assert problem["prompt"][0] == row()["prompt"][0]  # the question as it was
        cuts.add(len(start))
    assert cuts == set(range(0, 20 - 6 + 1))  # every cut from no start given to the last window


def test_the_cut_depends_on_the_problem_and_the_seed_only():
    assert continuation_row(row(), 6) == continuation_row(row(), 6)
    cuts = {len(given_words(continuation_row(row(), 6, seed))) for seed in range(30)}
    assert len(cuts) > 5


def test_a_given_cut_places_the_window_within_the_target():
    whole = row()["target"].split()
    for cut, given in ((5, 5), (0, 0), (-3, 0), (17, 14), (99, 14)):  # 20 words, a window of 6: cuts 0..14
        problem = continuation_row(row(), 6, cut=cut)
        assert len(given_words(problem)) == given and problem["target"].split() == whole[given : given + 6]


def write_answers(path, answers: list[dict]) -> None:
    import gzip
    import json

    text = "".join(json.dumps(answer) + "\n" for answer in answers)
    if path.suffix == ".gz":
        with gzip.open(path, "wt") as out:
            out.write(text)
    else:
        path.write_text(text)


def answer(problem_id: str, first_slip, split="train", task="stage-3", label="trained") -> dict:
    return {"id": problem_id, "first_slip": first_slip, "split": split, "task": task, "label": label}


def test_slip_cuts_fall_a_few_words_before_each_first_slip(tmp_path):
    answers = [
        answer("p1", 30),
        answer("p2", 2),  # too close to the start: cut at 0
        answer("p3", None),  # exact: keeps its random cut
        answer("p4", 9, label="baseline"),  # the base model's answers are not the adapter's
        answer("p5", 9, split="validation"),
        answer("p6", 9, task="stage-4"),
    ]
    expected = {"p1": 30 - SLIP_LEAD_WORDS, "p2": 0}
    for name in ("problems.jsonl", "problems.jsonl.gz"):
        folder = tmp_path / name.replace(".", "-")
        folder.mkdir()
        write_answers(folder / name, answers)
        assert slip_cuts(folder / name, "stage-3") == expected
        assert slip_cuts(folder, "stage-3") == expected  # an eval's output folder names its problems.jsonl
    only_base = tmp_path / "base.jsonl"
    write_answers(only_base, [answer("p4", 9, label="baseline")])
    assert slip_cuts(only_base, "stage-3") == {"p4": 5}  # a base-model-only evaluation is the base model's


def test_slip_cuts_say_how_to_make_the_file(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read .*nope.jsonl.*--splits train --stages 3"):
        slip_cuts(tmp_path / "nope.jsonl", "stage-3")
    wrong = tmp_path / "validation.jsonl"
    write_answers(wrong, [answer("p5", 9, split="validation")])
    with pytest.raises(ValueError, match="holds no answer to a train problem of stage-3"):
        slip_cuts(wrong, "stage-3")
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    with pytest.raises(ValueError, match="cannot read"):
        slip_cuts(tmp_path / "bad.jsonl", "stage-3")


def test_a_target_no_longer_than_the_window_stays_whole():
    problem = continuation_row(row(), 20)
    assert problem["prompt"] == row()["prompt"] and problem["target"] == row()["target"]
    assert problem[WINDOW_COLUMN] == 20
    with pytest.raises(ValueError, match="at least 1 word"):
        continuation_row(row(), 0)


def test_the_rewards_score_the_window_of_a_continuation():
    problem = continuation_row(row(), 6)
    right = problem["target"] + " and then whatever comes after"
    for reward in INTERLEAVE_REWARDS:
        scored = reward(None, [right], target=[problem["target"]], **{WINDOW_COLUMN: [6]})
        unscored = reward(None, [right], target=[problem["target"]])
        assert scored == [1.0] and unscored[0] < 1.0, reward.__name__
    assert windowed(["a b c d", "a b"], [3, 0]) == ["a b c", "a b"] and windowed(["a b"], None) == ["a b"]


def test_an_open_assistant_turn_is_continued_not_closed(tiny_model_dir):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    question = row()["prompt"]
    asked = chat_prompt_ids(tokenizer, question)
    started = chat_prompt_ids(tokenizer, [*question, {"role": "assistant", "content": "one alpha two"}])
    assert started[: len(asked)] == asked  # the generation prompt, then the given words: no closed turn between
    assert tokenizer.decode(started[len(asked) :]) == "one alpha two"


def test_the_trainer_tokenizes_a_continuation_as_the_open_turn(tiny_model_dir):
    from types import SimpleNamespace

    from transformers import AutoTokenizer

    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    prompts = [continuation_row(row(f"10w-train-seed0-{i:07d}"), 4)["prompt"] for i in range(6)]
    assert any(p[-1]["role"] == "assistant" for p in prompts)
    ids, images, fields = ObservedGRPOTrainer._tokenize_prompts(SimpleNamespace(processing_class=tokenizer), prompts)
    assert ids == [chat_prompt_ids(tokenizer, p) for p in prompts] and images is None and fields == {}


def test_a_continuation_task_trains_on_windows_and_is_scored_whole(corpus, tiny_model_dir):
    from transformers import AutoTokenizer

    whole, windows = tasks.get("stage-3"), tasks.get("stage-3").with_continuation(12)
    trained = list(windows.train_stream(0).take(4))
    plain = list(whole.train_stream(0).take(4))
    for got, was in zip(trained, plain, strict=True):
        assert got["id"] == was["id"] and got[WINDOW_COLUMN] == 12
        start = given_words(got)
        assert start + got["target"].split() == was["target"].split()[: len(start) + 12]
    assert windows.problem("train", 3) == trained[3]
    assert next(windows.resample_problems(0))[WINDOW_COLUMN] == 12
    assert windows.problems("validation", 2)[:] == whole.problems("validation", 2)[:]
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    references = [whole.problem("validation", i)["target"] for i in range(3)]
    assert windows.completion_budget(tokenizer) < whole.completion_budget(tokenizer) / 3  # rollouts of the window
    assert windows.completion_budget(tokenizer, references) == whole.completion_budget(tokenizer, references)


def test_a_task_with_cuts_cuts_the_problems_they_list_and_draws_the_rest(corpus):
    whole = tasks.get("stage-3")
    plain = list(whole.with_continuation(12).train_stream(0).take(4))
    listed = plain[2]["id"]
    cut = list(whole.with_continuation(12, {listed: 17}).train_stream(0).take(4))
    assert len(given_words(cut[2])) == 17 and cut[:2] == plain[:2] and cut[3] == plain[3]
    assert whole.with_continuation(12, {listed: 17}).problem("train", 2) == cut[2]


def test_slips_only_trains_on_the_listed_problems_in_turn(corpus):
    """--continuation_slips_only: the train stream is the listed problems alone, in index order and over again, each
    cut where the cuts say; a resumed stream continues the turn; dynamic sampling draws the same problems; the
    held-out splits stay whole problems."""
    whole = tasks.get("stage-3")
    ids = [whole.problem("train", i)["id"] for i in (7, 2, 11)]
    cuts = {ids[0]: 5, ids[1]: 17, ids[2]: 0}
    slips = whole.with_continuation(12, cuts, slips_only=True)
    assert slips.slip_indices() == [2, 7, 11]
    stream = list(slips.train_stream(0).take(7))
    assert [row["id"] for row in stream] == [ids[1], ids[0], ids[2]] * 2 + [ids[1]]
    assert [len(given_words(row)) for row in stream[:3]] == [17, 5, 0]
    assert stream[:3] == [whole.with_continuation(12, cuts).problem("train", i) for i in (2, 7, 11)]
    assert list(slips.train_stream(4).take(3)) == stream[4:7]  # resumed at position 4
    resampled = slips.resample_problems(0)
    assert [next(resampled)["id"] for _ in range(3)] == [ids[0], ids[2], ids[1]]  # starting half a turn in
    assert slips.problem("validation", 0) == whole.problem("validation", 0)
    assert next(iter(whole.with_continuation(12, cuts).train_stream(0)))["id"] == whole.problem("train", 0)["id"]


def test_slips_only_needs_cuts_of_the_tasks_own_problems():
    with pytest.raises(ValueError, match="need cuts that name a slipped train problem"):
        tasks.get("stage-3").with_continuation(12, None, slips_only=True)
    with pytest.raises(ValueError, match="not a train problem of stage-3 at problem seed 0"):
        tasks.get("stage-3").with_continuation(12, {"50w-train-seed1-0000002": 3}, slips_only=True)
    with pytest.raises(ValueError, match="not a train problem of stage-3"):
        tasks.get("stage-3").with_continuation(12, {"25w-train-seed0-0000002": 3}, slips_only=True)
    with pytest.raises(ValueError, match="continuation windows apply to the interleave tasks"):
        tasks.get("arithmetic").with_continuation(4, None, False)  # as task_for calls it


def test_windows_apply_to_interleave_tasks_alone_and_not_with_train_lengths():
    with pytest.raises(ValueError, match="continuation windows apply to the interleave tasks"):
        tasks.get("arithmetic").with_continuation(4)
    with pytest.raises(ValueError, match="continuation windows apply to the interleave tasks"):
        tasks.get("arithmetic").with_continuation(4, None)  # as task_for calls it
    with pytest.raises(ValueError, match="do not combine"):
        tasks.get("stage-2").with_train_words([4, 25]).with_continuation(4)
    with pytest.raises(ValueError, match="do not combine"):
        tasks.get("stage-2").with_continuation(4).with_train_words([4, 25])
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="whole number of words"):
            tasks.get("stage-2").with_continuation(bad)


def test_the_cuts_flag_needs_windows_and_a_readable_evaluation(tmp_path):
    from training.core.arguments import RecipeError, parse_run_arguments
    from training.core.run_task import task_for

    stage_3 = ["--config", "training/recipes/stage-3.yaml", "--word_credit", "0", "--keep_word_signal_groups", "false"]
    with pytest.raises(RecipeError, match="give --continuation_words N"):
        parse_run_arguments([*stage_3, "--continuation_cuts", "x.jsonl"])
    windows = [*stage_3, "--continuation_words", "12", "--continuation_cuts"]
    with pytest.raises(RecipeError, match="--splits train --stages 3"):
        task_for(parse_run_arguments([*windows, str(tmp_path / "missing.jsonl")])[0])
    answers = tmp_path / "problems.jsonl"
    write_answers(answers, [answer("50w-train-seed0-0000002", 40)])
    task = task_for(parse_run_arguments([*windows, str(answers)])[0])
    assert task.continuation_words == 12 and task.continuation_cuts == {"50w-train-seed0-0000002": 36}
    assert not task.continuation_slips_only
    task = task_for(parse_run_arguments([*windows, str(answers), "--continuation_slips_only", "true"])[0])
    assert task.continuation_slips_only and task.slip_indices() == [2]
    with pytest.raises(RecipeError, match="--continuation_slips_only trains on the problems --continuation_cuts"):
        parse_run_arguments([*stage_3, "--continuation_words", "12", "--continuation_slips_only", "true"])
    shares = ("--identifier_fraction", "--scrambled_fraction", "--doubled_fraction", "--repeated_fraction")
    for share in shares:  # cuts placed on the plain texts
        with pytest.raises(RecipeError, match=f"{share} changes their texts: give one or the other"):
            parse_run_arguments([*windows, str(answers), share, "0.3"])


def test_the_flag_needs_sequence_credit_only():
    from training.core.arguments import RecipeError, parse_run_arguments

    stage_5 = ["--config", "training/recipes/stage-5.yaml", "--continuation_words", "40"]
    with pytest.raises(RecipeError, match="needs --word_credit 0"):
        parse_run_arguments(stage_5)
    run, _, _ = parse_run_arguments([*stage_5, "--word_credit", "0", "--keep_word_signal_groups", "false"])
    assert run.continuation_words == 40
    with pytest.raises(RecipeError, match="continuation_words"):
        parse_run_arguments(
            [*stage_5, "--continuation_words", "-1", "--word_credit", "0", "--keep_word_signal_groups", "false"]
        )
