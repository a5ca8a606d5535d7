"""Greedy evaluation: eval rows from the tasks' per-problem records, the budget, and every end token."""

import pytest

from dataset_builders import tasks
from dataset_builders.interleave_curriculum import curriculum_dataset
from training.trainer.greedy_eval import eval_row, problem_records


def _row(name, completions, references):
    task = tasks.get(name)
    rows = [{task.reference_column: r} for r in references]
    return eval_row(
        task, problem_records("trained", task, completions, rows, [True] * len(completions)), "trained", "test"
    )


def test_interleave_rows_reward_the_exact_interleave_only():
    target = "a1 b1 a2 b2"
    perfect = _row("stage-1", [target, target], [target, target])
    assert perfect.nw_score == 1.0 and perfect.exact_match == 1.0 and perfect.words == 10
    copy_one = _row("stage-1", ["a1 a2", target], [target, target])
    assert copy_one.exact_match == 0.5 and copy_one.nw_score < 1.0


def test_arithmetic_rows():
    row = _row("arithmetic", ["11008", "11009", "no idea"], [11008, 11008, 11008])
    assert row.nw_score is None and row.exact_match == pytest.approx(1 / 3) and row.words is None
    assert 1 / 3 < row.partial_credit < 2 / 3  # the near miss earns part, the non-answer nothing


def test_eval_budget_leaves_room_for_the_longest_target():
    from base_models.models import load_tokenizer
    from dataset_builders.completion_budget import completion_budget

    tokenizer = load_tokenizer("smollm2-135m-instruct")  # the embedded model's tokenizer (make test converts it)
    task = tasks.get("stage-5")
    targets = curriculum_dataset("test", stage=5, size=256)["target"]
    derived = task.completion_budget(tokenizer)
    budget = task.completion_budget(tokenizer, targets)
    longest = max(len(tokenizer(t, add_special_tokens=False)["input_ids"]) for t in targets)
    assert longest + 16 > derived and budget == longest + 16  # the measured case: one target needs more than 1.3x
    sampled = completion_budget(task.expected_tokens(tokenizer), max(task.train_target_tokens(tokenizer)))
    assert task.completion_budget(tokenizer, ["a1 b1"]) == derived == sampled  # short references change nothing


def test_problem_records_name_the_first_difference_and_unfinished_completions():
    records = problem_records(
        "trained",
        tasks.get("stage-1"),
        ["a1 b1 a2 b2", "a1 b1 a9 b2", "a1 b1"],
        [{"target": "a1 b1 a2 b2"}] * 3,
        [True, True, False],
        with_completions=True,
    )
    assert [r["exact"] for r in records] == [True, False, False]
    assert [r["first_difference"] for r in records] == [None, 2, 2]
    assert [r["ended"] for r in records] == [True, True, False]
    assert records[0]["score"] == 1.0 > records[1]["score"] and records[2]["completion"] == "a1 b1"
    assert [r["completion_words"] for r in records] == [4, 4, 2] and records[2]["reference_words"] == 4
    assert "text_a" not in records[0]  # the rows above have no texts
    texts = {"target": "a1 b1", "text_a": "a1", "text_b": "b1"}
    (kept,) = problem_records("trained", tasks.get("stage-1"), ["a1 b1"], [texts], [True], with_completions=True)
    assert (kept["text_a"], kept["text_b"], kept["completion"]) == ("a1", "b1", "a1 b1")  # for analyses: no redraw
    (plain,) = problem_records("trained", tasks.get("stage-1"), ["a1 b1"], [texts], [True])
    assert "text_a" not in plain and "completion" not in plain  # without --completions: neither
    arithmetic = problem_records(
        "trained", tasks.get("arithmetic"), ["11008", "11009"], [{"answer": 11008}] * 2, [True, True]
    )
    assert [r["exact"] for r in arithmetic] == [True, False] and 0 < arithmetic[1]["score"] < 1


def test_eval_stops_at_every_end_token_the_model_declares(tiny_model_dir, monkeypatch):
    """The GGUF-converted SmolLM2 has eos <|endoftext|> in its tokenizer and <|im_end|> in its generation config.
    A GRPO-trained adapter never learns what follows <|im_end|> (rollouts stop there), so greedy eval that
    stopped only at the tokenizer's eos ran on into garbage: NW 0.1 on an H100 where generate gave 1.0. The tokenizer's
    special tokens end a completion too (dataset_builders.prompts.end_token_ids: the shipped adapter ends with the
    next turn's <|im_start|>)."""
    import training.trainer.graph_sampler
    from base_models.models import load_model
    from dataset_builders import tasks
    from training.trainer.greedy_eval import ProblemSet, evaluate_sets

    seen = []

    class Spy(training.trainer.graph_sampler.GraphSampler):
        def sample(self, prompts, max_new_tokens, eos_token_ids, pad_token_id, temperature=1.0, on_token=None):
            seen.append(list(eos_token_ids))
            return super().sample(prompts, max_new_tokens, eos_token_ids, pad_token_id, temperature, on_token)

    monkeypatch.setattr(training.trainer.graph_sampler, "GraphSampler", Spy)
    model, tokenizer = load_model(str(tiny_model_dir), device="cpu")
    turn_end = tokenizer.eos_token_id + 1
    model.generation_config.eos_token_id = [turn_end]
    arithmetic = tasks.get("arithmetic")
    problem_set = ProblemSet(arithmetic, "test", list(arithmetic.problems("test", 2)))
    evaluate_sets(model, tokenizer, [problem_set], "trained", 2, log=lambda *_: None)
    expected = {tokenizer.eos_token_id, turn_end, *tokenizer.all_special_ids}
    assert (
        seen
        and all(set(ids) == expected for ids in seen)
        and tokenizer.convert_tokens_to_ids("<|im_start|>") in expected
    )


def test_a_long_batch_shows_a_bar_of_its_token_steps(tiny_model_dir, capsys):
    """A batch of long answers decodes for minutes on a CPU while the problem count stays at 0: its token steps get a
    bar of their own (after ``delay`` seconds: none on a GPU's quick batches), one per batch, named by its problems."""
    from contextlib import contextmanager

    from base_models.models import load_model
    from training.trainer.graph_sampler import GraphSampler, merged_copy
    from training.trainer.greedy_eval import eval_token_bars, generate

    model, tokenizer = load_model(str(tiny_model_dir), device="cpu")
    prompts = [row["prompt"] for row in tasks.get("stage-1").problems("test", 3)]
    bars = eval_token_bars("trained stage-1 test", 6, len(prompts), delay=0)
    generate(GraphSampler(merged_copy(model)), tokenizer, prompts, 6, 2, [], token_progress=bars)
    shown = capsys.readouterr().err
    assert "trained stage-1 test: problems 1-2 of 3" in shown and "problems 3-3 of 3" in shown
    ticks = []

    @contextmanager
    def counted(first, size):
        ticks.append([first, size, 0])
        yield lambda: ticks[-1].__setitem__(2, ticks[-1][2] + 1)

    generate(GraphSampler(merged_copy(model)), tokenizer, prompts, 6, 2, [], token_progress=counted)
    assert ticks == [[1, 2, 6], [3, 1, 6]]  # no end token: each batch runs its 6 token steps, each one ticked
    quiet = eval_token_bars("trained stage-1 test", 6, len(prompts))  # the default delay: these batches are too quick
    generate(GraphSampler(merged_copy(model)), tokenizer, prompts, 6, 2, [], token_progress=quiet)
    assert "problems 1-2" not in capsys.readouterr().err
