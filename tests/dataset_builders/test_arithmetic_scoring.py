"""Answer extraction, partial credit and the TRL-signature rewards: one module shared by reward and evaluation."""

import pytest

from dataset_builders.arithmetic import (
    arithmetic_exact_reward,
    arithmetic_format_reward,
    arithmetic_partial_reward,
    digit_closeness,
    extract_answer,
    partial_credit,
    relative_closeness,
    score_completion,
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("5535", 5535),
        ("  5535\n", 5535),
        ("5,535", 5535),  # comma thousands separator
        ("1,234,567", 1234567),
        ("5 535", 5535),  # space thousands separator
        ("5\u202f535", 5535),  # narrow no-break space
        ("5\u00a0535", 5535),  # no-break space
        ("5535.", 5535),  # trailing period
        ("5535.00", 5535),
        ("The answer is 5535.", 5535),  # surrounding words
        ("Answer: **5,535**", 5535),
        ("123 * 45 = 5535", 5535),  # = sign: the number after the last =
        ("123 x 45 = 5535 (checked)", 5535),
        ("= 5535", 5535),
        ("123*45=5535", 5535),
        ("123 * 45 is 5535", 5535),  # otherwise the last number
        ("\u22125535", -5535),  # unicode minus
        ("-5535", -5535),
        ("\uff0d12", -12),  # fullwidth hyphen-minus
        ("The product is 12.5", None),  # not an integer
        ("five thousand", None),
        ("", None),
        ("=", None),
    ],
)
def test_extract_answer_formats(text, expected):
    assert extract_answer(text) == expected


def test_partial_credit_is_one_only_for_the_exact_answer():
    assert partial_credit(5535, 5535) == 1.0
    assert partial_credit(None, 5535) == 0.0
    near, far = partial_credit(5536, 5535), partial_credit(9999, 5535)
    assert 0.0 < far < near < 1.0
    assert digit_closeness(5536, 5535) == 0.75 and digit_closeness(535, 5535) == 0.75
    assert digit_closeness(-5535, 5535) == 0.0 and digit_closeness(5535, 5535) == 1.0
    assert relative_closeness(5535, 5535) == 1.0 and relative_closeness(11070, 5535) == 0.0
    assert relative_closeness(5000, 5000 * 10) == pytest.approx(0.1)
    assert partial_credit(55350, 5535) < partial_credit(5530, 5535)


def test_score_completion_reports_every_score():
    score = score_completion("The answer is 5,535.", 5535)
    assert score.extracted == 5535 and score.exact == 1.0 and score.partial == 1.0 and score.digits_only == 0.0
    assert score_completion("5535", "5535").digits_only == 1.0  # answers read back from files may be strings
    miss = score_completion("no idea", 5535)
    assert miss.extracted is None and miss.to_dict()["partial"] == 0.0


def test_rewards_take_trls_call_signature():
    prompts = [[{"role": "user", "content": "What is 123 * 45?"}]] * 4
    completions = [[{"role": "assistant", "content": c}] for c in ("5535", "The answer is 5,535.", "5536", "no")]
    kwargs = dict(
        prompts=prompts,
        completions=completions,
        completion_ids=[[1]] * 4,
        answer=[5535] * 4,
        a=[123] * 4,
        b=[45] * 4,
        id=["x"] * 4,
        trainer_state=None,
        log_extra=None,
        log_metric=None,
    )
    assert arithmetic_exact_reward(**kwargs) == [1.0, 1.0, 0.0, 0.0]
    partial = arithmetic_partial_reward(**kwargs)
    assert partial[:2] == [1.0, 1.0] and 0.0 < partial[2] < 1.0 and partial[3] == 0.0
    assert arithmetic_format_reward(**kwargs) == [1.0, 0.0, 1.0, 0.0]
    plain = dict(kwargs, prompts=["What is 123 * 45?"] * 4, completions=["5535", "x", "5535.", " 5535 "])
    assert arithmetic_exact_reward(**plain) == [1.0, 0.0, 1.0, 1.0]


def test_stream_and_rewards_run_in_trls_grpo_trainer(tiny_model_dir, tmp_path):
    """The on-the-fly stream feeds GRPOTrainer in order, and the rewards get the dataset columns as TRL passes them."""
    from trl import GRPOTrainer

    from dataset_builders.arithmetic import ARITHMETIC_REWARDS, arithmetic_stream
    from tests.training.tiny_run import tiny_grpo_config

    seen = []

    def record_ids(prompts, completions, id, answer, **kwargs):
        seen.extend(id)
        assert all(isinstance(a, int) for a in answer)
        return [0.0] * len(completions)

    args = tiny_grpo_config(tmp_path, max_steps=2, max_completion_length=4, shuffle_dataset=False)
    trainer = GRPOTrainer(
        model=str(tiny_model_dir),
        reward_funcs=[*ARITHMETIC_REWARDS, record_ids],
        args=args,
        train_dataset=arithmetic_stream(start_index=100),
    )
    trainer.train()
    assert seen == [f"3x2-train-seed0-{i:07d}" for i in range(100, 104) for _ in range(2)]
