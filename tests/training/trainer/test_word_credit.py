"""Per-word credit (training.trainer.word_credit): word scores that sum to the NW score, token -> word mapping,
advantages."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_builders import tasks
from metrics.needleman_wunsch.nw_alignment import nw_alignment
from training.trainer.word_credit import (
    END,
    TokenWords,
    token_scores,
    uniform_credit_groups,
    word_credit_advantages,
    word_scores,
)

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "of"]), max_size=12)


@given(WORDS, WORDS)
@settings(max_examples=200, deadline=None)
def test_word_scores_sum_to_the_alignment_score(completion, target):
    scores, end = word_scores(" ".join(completion), " ".join(target))
    assert len(scores) == len(completion)
    left_out_at_end = end < 0
    assert sum(scores) + (end if left_out_at_end else 0) == nw_alignment(" ".join(completion), " ".join(target)).score
    assert end == 1 or left_out_at_end


def test_a_left_out_word_is_charged_to_the_word_written_in_its_place_and_missing_ends_to_the_end():
    assert word_scores("a c d", "a b c d") == ([1, 0, 1], 1)  # b left out: c matches (+1) and pays for b (-1)
    assert word_scores("a b", "a b c d") == ([1, 1], -2)  # stopped two words early
    assert word_scores("a x b", "a b") == ([1, -1, 1], 1)  # the end scores +1: stopping there is right


@pytest.mark.parametrize(
    "text",
    [
        "The cat sat on the mat.",
        "  two  spaces\nand a newline ",
        "U.S.-USSR 3.14 $5,000",
        "émigré naïve café — “quoted”",
        "",
    ],
)
def test_each_token_maps_to_the_word_it_writes(tokenizer, text):
    words = TokenWords(tokenizer)
    ids = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    index = words.word_index(ids)
    assert words.text(ids) == text
    seen = [i for i in index if i != END]
    assert seen == sorted(seen) and sorted(set(seen)) == list(range(len(text.split())))
    assert index[-1] == END  # the end token
    for word, piece in enumerate(text.split()):  # the tokens of word i spell it (plus the space before it)
        spelled = "".join(words.texts[t] for t, i in zip(ids, index, strict=True) if i == word)
        assert spelled.strip() == piece


def test_the_tokens_of_correct_words_gain_and_the_slip_loses(tokenizer):
    words = TokenWords(tokenizer)
    target = "one two three four five six"
    completions = [target, "one two three five six"]  # the second leaves out "four"
    rows = [tokenizer(c, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id] for c in completions]
    width = max(map(len, rows))
    ids = torch.tensor([r + [tokenizer.pad_token_id or 0] * (width - len(r)) for r in rows])
    mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows])
    advantages = word_credit_advantages(ids, mask, [target, target], 2, words)
    slipped = token_scores(rows[1], target, words)
    five = [a for a, s in zip(advantages[1].tolist(), slipped, strict=False) if s == 0]  # "five" pays for "four"
    correct = [a for a, s in zip(advantages[1].tolist(), slipped, strict=False) if s == 1]
    assert five and correct and max(five) < 0 < min(correct)
    assert (advantages[1, len(rows[1]) :] == 0).all()  # padding
    assert advantages[0, len(rows[0]) - 1] > 0  # the end token of the exact completion: stopping there is right


def test_a_word_cut_short_charges_the_token_that_ended_it_only_when_asked(tokenizer):
    """Batch 32's stage 1 wrote `$30,0` for `$30,000` and went on with ` fed`: that token made the mistake, yet per-word
    credit scored it by `fed` (right). With cut_ends it bears the cut word's mismatch; nothing else changes."""
    words = TokenWords(tokenizer)
    target = "under have $30,000 fed a"
    ids = tokenizer("under have $30,0 fed a", add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    index = words.word_index(ids)
    fed = next(p for p, w in enumerate(index) if w == 3)  # the first token of "fed"
    plain, charged = token_scores(ids, target, words), token_scores(ids, target, words, cut_ends=True)
    assert plain[fed] == 1 and charged[fed] == -1  # the token that ended "$30,0"
    assert [v for p, v in enumerate(charged) if p != fed] == [v for p, v in enumerate(plain) if p != fed]
    assert [plain[p] for p, w in enumerate(index) if w == 2] == [-1] * index.count(2)  # the cut word itself, as before

    # a word that is wrong but not cut short leaves the next token alone; a cut last word charges the end token
    ids = tokenizer("Broadcast ARBISHOP media:", add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    assert token_scores(ids, "Broadcast ARCHBISHOP media:", words, cut_ends=True) == token_scores(
        ids, "Broadcast ARCHBISHOP media:", words
    )
    ids = tokenizer("have $30,0", add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    assert token_scores(ids, "have $30,000", words)[-1] == 1  # the end: nothing left out after the last word
    assert token_scores(ids, "have $30,000", words, cut_ends=True)[-1] == -1


def test_cut_word_credit_needs_word_credit():
    from training.core.arguments import RECIPES_DIR, RecipeError, parse_run_arguments
    from training.core.run_flags import settle_grpo_flags

    stage_1 = str(RECIPES_DIR / "stage-1.yaml")
    run, grpo, _ = parse_run_arguments(["--config", stage_1, "--cut_word_credit", "true", "--word_credit", "0"])
    with pytest.raises(RecipeError, match="--cut_word_credit changes what per-word credit charges"):
        settle_grpo_flags(run, grpo, tasks.get(run.task))
    run, grpo, _ = parse_run_arguments(["--config", stage_1, "--cut_word_credit", "true"])
    settle_grpo_flags(run, grpo, tasks.get(run.task))  # stage-1.yaml's word credit is on


def test_a_token_bears_at_most_one_unit_of_credit(tokenizer):
    words = TokenWords(tokenizer)
    ids = tokenizer("one two", add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    scores = token_scores(ids, "one two three four five six", words)
    assert scores[-1] == -1  # stopped four words early: the end token's -4 is clamped to one gap
    assert min(scores) >= -1 and max(scores) <= 1


def test_a_grpo_step_trains_on_per_word_advantages(tiny_model_dir, tmp_path):
    from datasets import Dataset

    from tests.training.tiny_run import tiny_grpo_config
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    rows = [{"prompt": [{"role": "user", "content": f"say {i}"}], "target": f"w{i} x y"} for i in range(2)]
    args = tiny_grpo_config(tmp_path, learning_rate=0.05)
    seen = []

    class Recording(ObservedGRPOTrainer):
        def compute_loss(self, model, inputs, *args, **kwargs):
            seen.append((inputs["advantages"].shape, inputs["completion_ids"].shape))
            return super().compute_loss(model, inputs, *args, **kwargs)

    trainer = Recording(
        model=str(tiny_model_dir),
        args=args,
        train_dataset=Dataset.from_list(rows),
        word_credit=1.0,
        cut_word_credit=True,  # words cut short charge the token after them: the same step, run through
        reward_funcs=[lambda completions, **kw: [float(i) for i in range(len(completions))]],
    )
    trainer.train()
    advantages, completions = seen[0]
    assert advantages == completions  # one advantage per completion token


def test_a_group_that_repeats_a_slip_still_carries_word_credit():
    """Equal rewards but unequal words: GRPO's sequence advantage is zero there, per-word credit is not."""
    target = "one two three four"
    groups = [
        target,
        target,  # all exact: nothing to learn
        "one two six four",
        "one two six four",  # the same slip twice: "six" should lose
        "nine nine nine nine",
        "nine nine nine nine",
    ]  # every word wrong, but the end is right
    assert uniform_credit_groups(groups, [target] * 6, 2) == [0]
    assert uniform_credit_groups(["", ""], ["a b", "a b"], 2) == [0]  # nothing written: only the end, scored -1


def test_dynamic_sampling_keeps_repeated_slips_only_when_asked():
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    target = "one two three four"
    records = [
        {"reward": r, "completion": c, "reference": target}
        for r, c in [
            (1.0, target),
            (1.0, target),
            (0.5, "one two six four"),
            (0.5, "one two six four"),
            (0.2, "one"),
            (0.7, "one two three"),
        ]
    ]
    trainer = object.__new__(ObservedGRPOTrainer)  # only the group logic: no model
    trainer.num_generations, trainer.credit_unit = 2, "word"
    trainer.keep_word_signal_groups = False
    assert trainer._uninformative_groups(records) == [0, 1]  # GRPO: both equal-reward groups swapped
    trainer.keep_word_signal_groups = True
    assert trainer._uninformative_groups(records) == [0]  # the repeated slip stays to be learnt from


def test_keeping_word_signal_groups_needs_word_credit():
    from training.core.arguments import RECIPES_DIR, RecipeError, parse_run_arguments
    from training.core.run_flags import settle_grpo_flags

    stage_1 = str(RECIPES_DIR / "stage-1.yaml")
    run, grpo, _ = parse_run_arguments(["--config", stage_1, "--keep_word_signal_groups", "true", "--word_credit", "0"])
    with pytest.raises(RecipeError, match="needs --word_credit"):
        settle_grpo_flags(run, grpo, tasks.get(run.task))
    flags = ["--keep_word_signal_groups", "true", "--word_credit", ".5"]
    run, grpo, _ = parse_run_arguments(["--config", stage_1, *flags])
    settle_grpo_flags(run, grpo, tasks.get(run.task))
