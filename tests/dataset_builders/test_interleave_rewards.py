import random
import statistics

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dataset_builders.interleave_curriculum.rewards import (
    INTERLEAVE_REWARD_WEIGHTS,
    INTERLEAVE_REWARDS,
    interleave_strict_reward,
    interleave_trigram_reward,
    ngram_dice,
    word_ngrams,
)
from metrics.needleman_wunsch.nw_alignment import nw_score, sequence_score


def interleave(a: list[str], b: list[str]) -> list[str]:
    """a1 b1 a2 b2 ..., the rest of the longer list after (written here, independent of the builders)."""
    out = []
    for i in range(max(len(a), len(b))):
        out += a[i : i + 1] + b[i : i + 1]
    return out


def trigram(prediction: list[str], target: list[str]) -> float:
    return interleave_trigram_reward(None, [" ".join(prediction)], target=[" ".join(target)])[0]


def strict(prediction: list[str], target: list[str]) -> float:
    return interleave_strict_reward(None, [" ".join(prediction)], target=[" ".join(target)])[0]


def weighted(prediction: list[str], target: list[str]) -> float:
    """The sum TRL forms from INTERLEAVE_REWARDS with INTERLEAVE_REWARD_WEIGHTS."""
    rewards = [f(None, [" ".join(prediction)], target=[" ".join(target)])[0] for f in INTERLEAVE_REWARDS]
    return sum(w * r for w, r in zip(INTERLEAVE_REWARD_WEIGHTS, rewards, strict=True))


def copies(a: list[str], b: list[str]) -> dict[str, list[str]]:
    return {"A": a, "B": b, "A then B": a + b, "B then A": b + a}


def old_dense_reward(prediction: list[str], target: list[str]) -> float:
    """The gamed reward: S mapped from [-(len(pred) + len(target)), len(target)] onto [0, 1]."""
    low = -(len(prediction) + len(target))
    return (sequence_score(prediction, target) - low) / (len(target) - low)


# --- the TRL signature ---------------------------------------------------------------------------


def test_rewards_take_trls_call_with_strings_and_conversations():
    target = ["a1 b1 a2 b2", "a1 b1 a2 b2"]
    trl_kwargs = dict(
        completion_ids=[[1], [2]],
        trainer_state=object(),
        log_extra=lambda *a: None,
        log_metric=lambda *a: None,
        text_a=["a1 a2"] * 2,
        text_b=["b1 b2"] * 2,
        target=target,
    )
    plain = ["a1 b1 a2 b2", "a1 a2 b1 b2"]
    chat = [[{"role": "assistant", "content": text}] for text in plain]
    for reward in (interleave_trigram_reward, interleave_strict_reward):
        assert reward(prompts=["p", "p"], completions=plain, **trl_kwargs)[0] == 1.0
        assert reward(prompts=["p", "p"], completions=chat, **trl_kwargs) == reward(["p", "p"], plain, **trl_kwargs)
    assert interleave_strict_reward(["p", "p"], plain, target=target) == [1.0, 0.25]
    assert interleave_trigram_reward(["p", "p"], plain, target=target) == [1.0, 0.0]
    with pytest.raises(ValueError):
        interleave_strict_reward(["p"], plain, target=target[:1])


def test_ngram_dice_definition():
    assert word_ngrams(["a", "b"], 3)[0][1:] == ("a", "b") and len(word_ngrams(["a", "b"], 3)) == 2
    assert ngram_dice("a1 b1 a2 b2", "a1 b1 a2 b2") == 1.0
    assert ngram_dice("", "a1 b1") == 0.0 and ngram_dice("", "") == 1.0 and ngram_dice("x", "") == 0.0
    # "a1 b1" keeps the start trigram only: 2 * 1 / (2 + 4)
    assert ngram_dice("a1 b1", "a1 b1 a2 b2") == pytest.approx(1 / 3)
    assert ngram_dice("a1 b1 a2 b2 a1 b1 a2 b2", "a1 b1 a2 b2") == pytest.approx(2 * 4 / (8 + 4))  # repeats cost


# --- copying one or both texts pays nothing --------------------------------------------------------


@st.composite
def texts_and_outputs(draw, min_words=2):
    """Two equal-length texts of distinct words, k correct pairs, and what follows them."""
    n = draw(st.integers(min_words, 30))
    words = draw(
        st.lists(
            st.text(st.characters(blacklist_categories=("Z", "C")), min_size=1, max_size=6),
            min_size=2 * n,
            max_size=2 * n,
            unique=True,
        )
    )
    a, b = words[:n], words[n:]
    k = draw(st.integers(1, n - 1))
    rest = {
        "nothing": [],
        "the rest of A": a[k:],
        "the rest of A then of B": a[k:] + b[k:],
        "random words": draw(st.lists(st.sampled_from(["the", "of", "x", "🙂", "é"]), max_size=2 * (n - k))),
    }
    follow = draw(st.sampled_from(sorted(rest)))
    return a, b, k, interleave(a[:k], b[:k]) + rest[follow]


@settings(max_examples=150, deadline=None)
@given(texts_and_outputs())
def test_trigram_reward_pays_k_correct_pairs_and_never_a_copy(case):
    a, b, k, output = case
    target = interleave(a, b)
    for copy in copies(a, b).values():
        assert trigram(copy, target) == 0.0
    # at least half a target word's worth: k = 1 followed by len(target) - 2 random words is the tightest
    assert trigram(output, target) >= 0.5 / len(target)


@settings(max_examples=100, deadline=None)
@given(texts_and_outputs(min_words=3))
def test_weighted_rewards_pay_k_correct_pairs_more_than_any_copy(case):
    a, b, k, output = case
    target = interleave(a, b)
    best_copy = max(weighted(copy, target) for copy in copies(a, b).values())
    assert best_copy == 0.0
    assert weighted(output, target) >= best_copy + 0.25 / len(target)


@settings(max_examples=60, deadline=None)
@given(texts_and_outputs(min_words=4))
def test_more_correct_pairs_earn_more(case):
    a, b, k, _ = case
    assume(k + 1 < len(a))
    target = interleave(a, b)
    assert trigram(interleave(a[: k + 1], b[: k + 1]), target) > trigram(interleave(a[:k], b[:k]), target)


def test_the_old_dense_reward_was_gamed_and_this_one_is_not():
    rng = random.Random(0)
    words = [f"w{i}" for i in rng.sample(range(10_000), 100)]
    a, b = words[:50], words[50:]
    target = interleave(a, b)
    assert old_dense_reward(a, target) == pytest.approx(0.6)  # the measured 0.60 for copying one text
    assert strict(a, target) == 0.0 and trigram(a, target) == 0.0 and weighted(a, target) == 0.0
    assert trigram(interleave(a[:5], b[:5]), target) > 0.05  # 5 of 50 pairs right, then stop


@pytest.mark.slow
def test_on_real_prose_copies_earn_next_to_nothing(corpus):
    """Shared frequent words make coincidental trigrams possible; measured, they stay negligible."""
    rng = random.Random(0)
    passages = [p.text.split() for p in corpus.split("train", min_words=1000)]
    for n in (10, 50, 200):
        copy_rewards, margins = [], []
        for _ in range(30):
            wa, wb = rng.sample(passages, 2)
            sa, sb = rng.randrange(len(wa) - n), rng.randrange(len(wb) - n)
            a, b = wa[sa : sa + n], wb[sb : sb + n]
            target = interleave(a, b)
            best_copy = max(weighted(copy, target) for copy in copies(a, b).values())
            copy_rewards.append(best_copy)
            k = max(2, n // 10)  # the first 10% of pairs right, then both texts copied
            margins.append(weighted(interleave(a[:k], b[:k]) + a[k:] + b[k:], target) - best_copy)
        assert statistics.mean(copy_rewards) < 0.01, n
        assert min(margins) > 0, n


@pytest.mark.parametrize("backend", ["rapidfuzz", "numpy"])
def test_rewards_are_the_same_on_the_backends_of_a_machine_without_numba(monkeypatch, backend):
    rng = random.Random(1)
    vocab = [f"w{i}" for i in range(30)]
    targets = [" ".join(rng.choices(vocab, k=rng.randint(0, 60))) for _ in range(20)]
    outputs = [" ".join(rng.choices(vocab, k=rng.randint(0, 60))) for _ in range(20)]
    outputs[:3] = targets[:3]
    expected = [f(None, outputs, target=targets) for f in INTERLEAVE_REWARDS]
    monkeypatch.setenv("NEEDLEMAN_WUNSCH_BACKEND", backend)
    assert [f(None, outputs, target=targets) for f in INTERLEAVE_REWARDS] == expected
    assert expected[0][:3] == expected[1][:3] == [1.0, 1.0, 1.0]


def test_strict_reward_is_the_metric():
    target = "a1 b1 a2 b2 a3 b3"
    for completion in ("a1 b1 a2 b2 a3 b3", "a1 b1 a2", "a1 a2 a3 b1 b2 b3", ""):
        assert interleave_strict_reward(None, [completion], target=[target]) == [nw_score(completion, target)]


def test_rewards_run_in_trls_grpo_trainer(tiny_model_dir, tmp_path):
    """GRPOTrainer calls the rewards with chat completions and the dataset's target column, and logs each one."""
    from datasets import Dataset
    from trl import GRPOTrainer

    from tests.training.tiny_run import tiny_grpo_config

    rows = [
        {
            "prompt": [{"role": "user", "content": f"Interleave: a{i} a{i + 1} / b{i} b{i + 1}"}],
            "text_a": f"a{i} a{i + 1}",
            "text_b": f"b{i} b{i + 1}",
            "target": f"a{i} b{i} a{i + 1} b{i + 1}",
        }
        for i in range(4)
    ]
    seen = []

    def record_columns(prompts, completions, target, text_a, text_b, **kwargs):
        seen.append((completions[0], target[0], text_a[0], text_b[0]))
        return [0.0] * len(completions)

    args = tiny_grpo_config(tmp_path, reward_weights=[*INTERLEAVE_REWARD_WEIGHTS, 0.0], logging_steps=1)
    trainer = GRPOTrainer(
        model=str(tiny_model_dir),
        reward_funcs=[*INTERLEAVE_REWARDS, record_columns],
        args=args,
        train_dataset=Dataset.from_list(rows),
    )
    trainer.train()
    completion, target, text_a, text_b = seen[0]
    assert isinstance(completion, list) and completion[0]["role"] == "assistant"
    assert target.split() == [text_a.split()[0], text_b.split()[0], text_a.split()[1], text_b.split()[1]]
    logged = {key for entry in trainer.state.log_history for key in entry}
    assert {"rewards/interleave_trigram_reward/mean", "rewards/interleave_strict_reward/mean"} <= logged
