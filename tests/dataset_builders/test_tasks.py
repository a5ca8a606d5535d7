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


def test_train_lengths_take_turns_and_resume_where_they_left_off(tiny_model_dir):
    """--train_words: a stage's train stream (and dynamic sampling's) cycles through the lengths; the held-out
    problems, the name and the previous stage stay the stage's; the budget covers the longest length."""
    from transformers import AutoTokenizer

    stage = tasks.get("stage-2")
    mixed = stage.with_train_words(tasks.parse_words("4,10-11"))
    assert mixed.train_words == (4, 10, 11) and stage.train_words == ()  # a copy
    assert (mixed.name, mixed.words, mixed.previous) == ("stage-2", 25, "stage-1")
    assert mixed.problem("validation", 0) == stage.problem("validation", 0)

    def lengths(rows, n):
        return [(row["n_words"], row["id"].split("-")[-1]) for _, row in zip(range(n), rows)]

    first = lengths(mixed.train_stream(0), 7)
    assert [n for n, _ in first] == [4, 10, 11, 4, 10, 11, 4]
    assert [int(i) for _, i in first] == [0, 0, 0, 1, 1, 1, 2]  # problem i // 3 of each length
    assert lengths(mixed.train_stream(4), 3) == first[4:7]  # a resumed run continues the same order
    resampled = lengths(mixed.resample_problems(2), 2)
    assert resampled == [(11, "5000000"), (4, "5000001")]  # positions 2 and 3 of the resampling range
    assert lengths(stage.train_stream(0), 1)[0][0] == 25  # without train lengths: the stage's own

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)  # the SmolLM2 tokenizer
    longer = tasks.get("stage-1").with_train_words([4, 25])
    assert longer.completion_budget(tokenizer) == tasks.get("stage-2").completion_budget(tokenizer)
    assert longer.completion_budget(tokenizer) > tasks.get("stage-1").completion_budget(tokenizer)
    stage_1_prompt = tasks.get("stage-1").train_prompt_tokens(tokenizer)
    assert longer.train_prompt_tokens(tokenizer) == tasks.get("stage-2").train_prompt_tokens(tokenizer) > stage_1_prompt
    assert tasks.get("arithmetic").train_prompt_tokens(tokenizer) == 0  # no estimate: the sampler finds its width
    with pytest.raises(ValueError, match="interleave tasks"):
        tasks.get("arithmetic").with_train_words([4])
    for bad in ("6-4", "0", "x"):
        with pytest.raises(tasks.BadWords, match="word counts and ranges"):
            tasks.parse_words(bad)


def test_register_weights_reweight_the_train_problems_only(tiny_model_dir):
    """--register_weights: the train stream, single train problems, dynamic sampling's and every train length draw
    the weighted register more often; validation and test rows stay the same; the task itself keeps the fixed mix."""
    from itertools import islice

    from transformers import AutoTokenizer

    def numeric_share(rows) -> float:
        rows = list(rows)
        return sum(row["register_a"] == "numeric" for row in rows) / len(rows)

    stage = tasks.get("stage-1")
    stage.problem("train", 0)  # its train problems are built: the copy must draw its own
    weighted = stage.with_register_weights({"numeric": 4})  # 4 of 8 against 1 of 5 (five training registers)
    assert stage.register_weights is None and weighted.register_weights == {"numeric": 4}
    assert numeric_share(stage.problem("train", i) for i in range(64)) == pytest.approx(0.2, abs=0.05)
    assert numeric_share(weighted.problem("train", i) for i in range(64)) == pytest.approx(0.5, abs=0.05)
    assert numeric_share(islice(weighted.train_stream(0), 64)) == pytest.approx(0.5, abs=0.05)
    assert numeric_share(islice(weighted.resample_problems(0), 64)) == pytest.approx(0.5, abs=0.05)
    lengths = weighted.with_train_words([4, 10])
    assert numeric_share(islice(lengths.train_stream(0), 128)) == pytest.approx(0.5, abs=0.05)
    assert weighted.problems("validation", size=8).to_list() == stage.problems("validation", size=8).to_list()
    assert weighted.problem("test", 3) == stage.problem("test", 3)
    assert weighted.problem("out_of_register", 3) == stage.problem("out_of_register", 3)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)  # numbers take more tokens a word than prose
    assert weighted.expected_tokens(tokenizer) > stage.expected_tokens(tokenizer)
    with pytest.raises(ValueError, match="no train text of .registers held out of train: technical"):
        stage.with_register_weights({"technical": 2})
    with pytest.raises(ValueError, match="register weights apply to the interleave tasks"):
        tasks.get("arithmetic").with_register_weights({"numeric": 2})


def _shuffled(rows, plain_rows) -> list[bool]:
    """Whether each row is its plain row (the same id) with the words of its texts in another order."""
    out = []
    for row, plain in zip(rows, plain_rows, strict=True):
        assert row["id"] == plain["id"]
        texts, plain_texts = (row["text_a"], row["text_b"]), (plain["text_a"], plain["text_b"])
        same_words = all(sorted(t.split()) == sorted(p.split()) for t, p in zip(texts, plain_texts))
        out.append(same_words and texts != plain_texts)
    return out


def _identified(rows, plain_rows) -> list[bool]:
    """Whether each row is its plain row (the same id) with, in each text, the same number of words and some of them
    replaced by symbolic words (identifiers)."""
    from training.core.slip_diagnostics import is_symbolic

    out = []
    for row, plain in zip(rows, plain_rows, strict=True):
        assert row["id"] == plain["id"]
        ok = True
        for text in ("text_a", "text_b"):
            new, old = row[text].split(), plain[text].split()
            changed = [word for word, before in zip(new, old) if word != before]
            ok = ok and len(new) == len(old) and bool(changed) and all(map(is_symbolic, changed))
        out.append(ok)
    return out


def _doubled(rows, plain_rows) -> list[bool]:
    """Whether each row is its plain row (the same id) with, in each text, the same number of words, and a target of
    more identical adjacent words."""
    from dataset_builders.prompts import interleave_target

    def pairs(target: str) -> int:
        words = target.split()
        return sum(a == b for a, b in zip(words, words[1:]))

    out = []
    for row, plain in zip(rows, plain_rows, strict=True):
        assert row["id"] == plain["id"]
        same_counts = all(len(row[t].split()) == len(plain[t].split()) for t in ("text_a", "text_b"))
        own_target = row["target"] == interleave_target(row["text_a"], row["text_b"])
        out.append(same_counts and own_target and pairs(row["target"]) > pairs(plain["target"]))
    return out


def _repeated(rows, plain_rows) -> list[bool]:
    """Whether each row is its plain row (the same id) with, in each text, the same number of words, other texts, only
    words of the plain texts, and a run of two words or more that occurs again in the texts."""
    from dataset_builders.prompts import interleave_target

    out = []
    for row, plain in zip(rows, plain_rows, strict=True):
        assert row["id"] == plain["id"]
        texts = [row[t].split() for t in ("text_a", "text_b")]
        plain_words = {word for t in ("text_a", "text_b") for word in plain[t].split()}
        same_counts = all(len(row[t].split()) == len(plain[t].split()) for t in ("text_a", "text_b"))
        own_target = row["target"] == interleave_target(row["text_a"], row["text_b"])
        changed = (row["text_a"], row["text_b"]) != (plain["text_a"], plain["text_b"])
        copies = all(word in plain_words for words in texts for word in words)
        pairs = [pair for words in texts for pair in zip(words, words[1:])]
        out.append(same_counts and own_target and changed and copies and len(set(pairs)) < len(pairs))
    return out


SHARES = [  # (the task's share, the change it makes to a problem, what its errors call it)
    ("scrambled_fraction", _shuffled, "scrambled fraction"),
    ("identifier_fraction", _identified, "identifier fraction"),
    ("doubled_fraction", _doubled, "doubled fraction"),
    ("repeated_fraction", _repeated, "repeated fraction"),
]


@pytest.mark.parametrize("share, changed, what", SHARES, ids=[share for share, _, _ in SHARES])
def test_a_train_share_reaches_every_train_problem_only(share, changed, what):
    """--scrambled_fraction 1 (texts' words shuffled), --identifier_fraction 1 (identifiers in the texts),
    --doubled_fraction 1 (identical adjacent target words) or --repeated_fraction 1 (a phrase repeated in the texts):
    single train problems, the train stream, dynamic sampling's and every train length change; validation, test and
    out_of_register rows stay the same; the task itself keeps its texts as written."""
    from itertools import islice

    stage = tasks.get("stage-1")
    stage.problem("train", 0)  # its train problems are built: the copy must draw its own
    with_share = getattr(stage, f"with_{share}")
    drawn = with_share(1)
    assert (getattr(stage, share), getattr(drawn, share)) == (0.0, 1.0)
    plain_train = [stage.problem("train", i) for i in range(8)]
    assert all(changed([drawn.problem("train", i) for i in range(8)], plain_train))
    assert all(changed(islice(drawn.train_stream(0), 8), plain_train))
    assert all(changed(drawn.problems("train", size=4), plain_train[:4]))
    assert all(changed(islice(drawn.resample_problems(0), 8), islice(stage.resample_problems(0), 8)))
    lengths, plain_lengths = drawn.with_train_words([4, 10]), stage.with_train_words([4, 10])
    assert all(changed(islice(lengths.train_stream(0), 8), islice(plain_lengths.train_stream(0), 8)))
    assert drawn.problems("validation", size=8).to_list() == stage.problems("validation", size=8).to_list()
    assert drawn.problem("test", 3) == stage.problem("test", 3)
    assert drawn.problem("out_of_register", 3) == stage.problem("out_of_register", 3)
    with pytest.raises(ValueError, match=f"{what} must be a number from 0 to 1"):
        with_share(1.5)
    article = "an" if what[0] in "aeiou" else "a"
    with pytest.raises(ValueError, match=f"{article} {what} applies to the interleave tasks"):
        getattr(tasks.get("arithmetic"), f"with_{share}")(0.5)


def test_identifiers_then_scrambling_both_apply():
    stage = tasks.get("stage-1")
    identified = stage.with_identifier_fraction(1)
    both = identified.with_scrambled_fraction(1)
    assert (both.identifier_fraction, both.scrambled_fraction) == (1.0, 1.0)
    identified_train = [identified.problem("train", i) for i in range(8)]
    assert all(_shuffled([both.problem("train", i) for i in range(8)], identified_train))


@pytest.mark.parametrize("share", [share for share, _, _ in SHARES])
def test_the_budget_sample_of_a_task_with_a_train_share_is_its_own(tiny_model_dir, share):
    """The completion budget measures the changed targets (shuffled, with identifiers or doubled words), not the plain
    ones measured before them."""
    from transformers import AutoTokenizer

    stage = tasks.get("stage-1")
    drawn = getattr(stage, f"with_{share}")(1)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    plain_tokens = stage.train_target_tokens(tokenizer)  # measured first: the other task must measure its own
    targets = [drawn.problem("train", i)["target"] for i in range(len(plain_tokens))]
    own = [len(ids) for ids in tokenizer(targets, add_special_tokens=False)["input_ids"]]
    assert drawn.train_target_tokens(tokenizer) == own != plain_tokens
    if share == "identifier_fraction":  # identifiers cost more tokens than the words they replace
        assert drawn.expected_tokens(tokenizer) > stage.expected_tokens(tokenizer)
