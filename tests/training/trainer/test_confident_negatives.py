"""Confident negatives (training.trainer.confident_negatives): a sure slip is pushed down as hard as an unsure one."""

from __future__ import annotations

import math

import pytest
import torch

from dataset_builders import tasks
from training.trainer.confident_negatives import boosted_negatives


def test_only_negative_advantages_of_sure_tokens_grow_up_to_the_cap():
    advantages = torch.tensor([[-1.0, -1.0, -1.0, 2.0, 0.0]])
    probability = torch.tensor([[0.98, 0.5, 0.01, 0.99, 0.99]])
    boosted = boosted_negatives(advantages, probability.log(), cap=10)
    assert boosted[0, 0].item() == pytest.approx(-10.0)  # 1 / (1 - 0.98) = 50, capped at 10
    assert boosted[0, 1].item() == pytest.approx(-2.0)  # 1 / (1 - 0.5)
    assert boosted[0, 2].item() == pytest.approx(-1.0101, abs=1e-4)  # unsure: ~ unchanged
    assert boosted[0, 3:].tolist() == [2.0, 0.0]  # positive and zero advantages unchanged


def test_sequence_advantages_are_spread_over_the_tokens():
    boosted = boosted_negatives(torch.tensor([-1.0, 1.0]), torch.full((2, 3), math.log(0.75)), cap=100)
    assert boosted.tolist() == [[-4.0, -4.0, -4.0], [1.0, 1.0, 1.0]]


def test_the_push_on_a_sure_slip_no_longer_vanishes():
    """The policy-gradient loss -A x log p on a token's own logit: (1 - p) x A without the boost, A with it."""
    logits = torch.tensor([4.0, 0.0, 0.0], requires_grad=True)
    logp = logits.log_softmax(-1)[0]
    advantage = torch.tensor([-1.0])
    (-(advantage * logp).sum()).backward()
    plain = logits.grad[0].item()
    logits.grad = None
    logp = logits.log_softmax(-1)[0]
    (-(boosted_negatives(advantage, logp.reshape(1, 1), cap=1000) * logp).sum()).backward()
    assert plain == pytest.approx(1 - logp.exp().item(), rel=1e-4)  # ~0.035: the sure slip barely moves
    assert logits.grad[0].item() == pytest.approx(1.0, rel=1e-4)


def test_a_cap_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        boosted_negatives(torch.tensor([-1.0]), torch.zeros(1, 1), cap=0.5)
    from training.core.arguments import RECIPES_DIR, RecipeError, parse_run_arguments
    from training.core.run_flags import settle_grpo_flags

    run, grpo, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "stage-1.yaml"), "--negative_boost_cap", ".5"])
    with pytest.raises(RecipeError, match="at least 1"):
        settle_grpo_flags(run, grpo, tasks.get(run.task))


def test_a_grpo_step_boosts_the_loss_advantages_and_keeps_the_batch(tiny_model_dir, tmp_path, monkeypatch):
    from datasets import Dataset

    from tests.training.tiny_run import tiny_grpo_config
    from training.trainer import confident_negatives
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    calls = []
    real = confident_negatives.boosted_negatives

    def recording(advantages, per_token_logps, cap):
        boosted = real(advantages, per_token_logps, cap)
        calls.append((advantages.clone(), per_token_logps.detach().clone(), boosted.clone(), cap))
        return boosted

    monkeypatch.setattr(confident_negatives, "boosted_negatives", recording)
    rows = [{"prompt": [{"role": "user", "content": f"say {i}"}], "target": f"w{i} x y"} for i in range(2)]
    args = tiny_grpo_config(tmp_path)
    kept = []

    class Recording(ObservedGRPOTrainer):
        def compute_loss(self, model, inputs, *args, **kwargs):
            loss = super().compute_loss(model, inputs, *args, **kwargs)
            kept.append(inputs["advantages"].clone())
            return loss

    trainer = Recording(
        model=str(tiny_model_dir),
        args=args,
        train_dataset=Dataset.from_list(rows),
        negative_boost_cap=8.0,
        reward_funcs=[lambda completions, **kw: [float(i) for i in range(len(completions))]],
    )
    trainer.train()
    advantages, logps, boosted, cap = calls[0]
    assert cap == 8.0 and logps.shape == boosted.shape
    assert torch.equal(boosted, real(advantages, logps, 8.0))
    assert (boosted[advantages.unsqueeze(1).expand_as(boosted) < 0] < 0).all()
    assert torch.equal(kept[0], advantages)  # the batch's own advantages are left as they were


def test_trl_reads_the_advantages_after_the_log_probabilities(tiny_model_dir, tmp_path, monkeypatch):
    """The boost hooks the log-probability call of TRL's loss: zeroed there, the advantages give no gradient (beta
    0), which fails if TRL read them before that call (the loss's value is no test: at ratio 1 it is -mean A, which a
    group's advantages cancel)."""
    from datasets import Dataset

    from tests.training.tiny_run import tiny_grpo_config
    from training.trainer import confident_negatives
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    monkeypatch.setattr(confident_negatives, "boosted_negatives", lambda a, logps, cap: torch.zeros_like(logps))
    rows = [{"prompt": [{"role": "user", "content": f"say {i}"}], "target": f"w{i}"} for i in range(2)]
    args = tiny_grpo_config(tmp_path, max_completion_length=4)
    gradients = []

    class Recording(ObservedGRPOTrainer):
        def compute_loss(self, model, inputs, *args, **kwargs):
            loss = super().compute_loss(model, inputs, *args, **kwargs)
            trained = [p for p in model.parameters() if p.requires_grad]
            grads = torch.autograd.grad(loss, trained, allow_unused=True)
            gradients.append(sum(float(g.abs().sum()) for g in grads if g is not None))
            return torch.zeros((), requires_grad=True)

    Recording(
        model=str(tiny_model_dir),
        args=args,
        train_dataset=Dataset.from_list(rows),
        negative_boost_cap=2.0,
        reward_funcs=[lambda completions, **kw: [float(i) for i in range(len(completions))]],
    ).train()
    assert gradients == [0.0]
