"""A step whose gradients hold NaN or inf is skipped: the weights and the optimizer's moments stay as they were."""

import math

import torch
from transformers import TrainerControl, TrainerState, TrainingArguments

from training.callbacks.nonfinite_guard import SkipNonFiniteGradients, gradients_finite


def _model_after_one_step():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 1))
    model[0].weight.requires_grad_(False)  # frozen, like the base weights under LoRA
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=0.1)
    model(torch.randn(3, 4)).sum().backward()
    optimizer.step()
    optimizer.zero_grad()
    return model, optimizer


def _pre_step(guard, model, step=6):
    state = TrainerState()
    state.global_step = step
    guard.on_pre_optimizer_step(
        TrainingArguments(output_dir="unused", report_to="none"), state, TrainerControl(), model=model
    )


def test_nan_gradient_skips_the_update_and_is_reported():
    model, optimizer = _model_after_one_step()
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    moments = [optimizer.state[p]["exp_avg"].clone() for p in model.parameters() if p.requires_grad]
    loss = model(torch.randn(3, 4)).sum()
    loss.backward()
    model[1].bias.grad[0] = math.nan  # one bad element is enough
    messages = []
    guard = SkipNonFiniteGradients(report=messages.append)
    _pre_step(guard, model)
    optimizer.step()
    assert all(torch.equal(p, before[name]) for name, p in model.named_parameters())
    assert all(
        torch.equal(optimizer.state[p]["exp_avg"], m)
        for p, m in zip([p for p in model.parameters() if p.requires_grad], moments)
    )
    assert guard.skipped_steps == [7] and "step 7" in messages[0]


def test_finite_gradients_pass_untouched():
    model, optimizer = _model_after_one_step()
    model(torch.randn(3, 4)).sum().backward()
    grads = [p.grad.clone() for p in model.parameters() if p.requires_grad]
    guard = SkipNonFiniteGradients(report=lambda line: None)
    _pre_step(guard, model)
    assert guard.skipped_steps == []
    assert all(torch.equal(p.grad, g) for p, g in zip([p for p in model.parameters() if p.requires_grad], grads))


def test_gradients_finite_sees_inf_and_no_gradients():
    weight = torch.nn.Parameter(torch.zeros(2))
    assert gradients_finite([weight])  # no gradient yet
    weight.grad = torch.tensor([1.0, math.inf])
    assert not gradients_finite([weight])
