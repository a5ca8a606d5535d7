"""The task registry and what each task exports: problems, rewards and weights, scoring, reference column."""

import pytest

from dataset_builders import tasks
from dataset_builders.arithmetic.rewards import ARITHMETIC_REWARD_WEIGHTS, ARITHMETIC_REWARDS
from dataset_builders.interleave_curriculum.rewards import INTERLEAVE_REWARD_WEIGHTS, INTERLEAVE_REWARDS
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS


def test_names_stand_for_their_tasks():
    for stage, words in STAGE_WORDS.items():
        task = tasks.get(f"stage-{stage}")
        assert (task.name, task.words, task.curriculum_stage, task.reference_column) == (
            f"stage-{stage}",
            words,
            stage,
            "target",
        )
        assert task.previous == (f"stage-{stage - 1}" if stage > 1 else None)
    assert tasks.get("words-37").words == 37 and tasks.get("words-37").curriculum_stage is None
    arithmetic = tasks.get("arithmetic-4x3")
    assert arithmetic.reference_column == "answer" and arithmetic.words is None and arithmetic.previous is None
    assert arithmetic.problem("test", 0)["id"].startswith("4x3-test-")
    for bad in ("stage-7", "stage-0", "words-0", "poetry", "arithmetic-3by2", "arithmetic-0x2"):
        with pytest.raises(tasks.UnknownTask, match="tasks are stage-1, .*, arithmetic"):
            tasks.get(bad)


def test_rewards_and_weights_come_from_the_task_package():
    interleave, arithmetic = tasks.get("stage-2"), tasks.get("arithmetic")
    assert (interleave.reward_funcs, interleave.reward_weights) == (INTERLEAVE_REWARDS, INTERLEAVE_REWARD_WEIGHTS)
    assert (arithmetic.reward_funcs, arithmetic.reward_weights) == (ARITHMETIC_REWARDS, ARITHMETIC_REWARD_WEIGHTS)
    assert len(ARITHMETIC_REWARD_WEIGHTS) == len(ARITHMETIC_REWARDS)
    replaced = interleave.with_rewards([len])
    assert replaced.reward_funcs == (len,) and replaced.reward_weights == (1.0,)
    assert interleave.reward_funcs == INTERLEAVE_REWARDS  # a copy: the task itself keeps its rewards


def test_problems_of_a_split_are_the_datasets_rows():
    task = tasks.get("stage-1", seed=3)
    test = task.problems("test", size=3)
    assert [row["id"] for row in test] == [task.problem("test", i)["id"] for i in range(3)]
    assert next(iter(task.train_stream(5)))["id"] == task.problem("train", 5)["id"]
    assert next(task.resample_problems(0))["id"] != task.problem("train", 0)["id"]
    assert task.supervised_row(test[0]) == {
        "prompt": test[0]["prompt"],
        "completion": [{"role": "assistant", "content": test[0]["target"]}],
    }


def test_score_gives_the_per_problem_record():
    task = tasks.get("stage-1")
    row = {"target": "a1 b1 a2 b2"}
    assert task.score("a1 b1 a2 b2", row) == {
        "score": 1.0,
        "exact": True,
        "completion_words": 4,
        "reference_words": 4,
        "first_difference": None,
    }
    slip = task.score([{"role": "assistant", "content": "a1 b1 a9 b2"}], row)  # chat completions too
    assert slip["exact"] is False and slip["first_difference"] == 2 and 0 < slip["score"] < 1
    arithmetic = tasks.get("arithmetic")
    assert arithmetic.score("11008", {"answer": 11008})["exact"] is True
    near = arithmetic.score("11009", {"answer": 11008})
    assert near["exact"] is False and 0 < near["score"] < 1 and near["first_difference"] == 0


def test_a_supervised_mix_is_one_task_per_word_count_or_the_one_task():
    assert [t.name for t in tasks.mix("interleave", [4, 10])] == ["words-4", "words-10"]
    assert [t.name for t in tasks.mix("arithmetic-3x2", [4, 10])] == ["arithmetic-3x2"]


def test_tables_sort_the_curriculum_by_length_then_arithmetic():
    assert sorted(["arithmetic", "stage-6", "stage-1", "words-37"], key=tasks.sort_key) == [
        "stage-1",
        "words-37",
        "stage-6",
        "arithmetic",
    ]
