"""Skip an optimizer step whose gradients are not finite, instead of letting NaN into the adapter's weights.

Measured on an H100 (results/curriculum/README.md): GRPO from the supervised warm start logged a finite loss and a
NaN gradient norm at stage 3 step 16; AdamW then wrote NaN into the LoRA weights and every later completion ran to
the length limit (reward 0, the collapse guard stopped the run). The two "lr 1e-4 collapses" of stages 2 and 3
began the same way. Dropping the gradients of such a step (``grad = None``: torch's optimizers then leave every
weight and moment as it was) keeps the adapter; the step is counted and reported.
"""

from __future__ import annotations

import torch
from transformers import TrainerCallback


def gradients_finite(parameters) -> bool:
    """True when every gradient of ``parameters`` is finite (one device sync for all of them)."""
    norms = [p.grad.detach().float().norm() for p in parameters if p.grad is not None]
    return not norms or bool(torch.isfinite(torch.stack([n.to(norms[0].device) for n in norms])).all())


class SkipNonFiniteGradients(TrainerCallback):
    """Before each optimizer step: if any trainable gradient is NaN or inf, drop all gradients (the step is skipped)."""

    def __init__(self, report=print, probe=None):
        self.report = report
        # optional diagnostic (training.callbacks.nonfinite_probe): called before the step is dropped
        self.probe = probe
        self.skipped_steps: list[int] = []

    def on_pre_optimizer_step(self, args, state, control, model=None, **kwargs):
        if model is None:
            return control
        trainable = [p for p in model.parameters() if p.requires_grad]
        if not gradients_finite(trainable):
            step = state.global_step + 1  # the step being taken
            if self.probe is not None:
                self.probe(model, step)
            for p in trainable:
                p.grad = None
            self.skipped_steps.append(step)
            self.report(
                f"non-finite gradient at step {step}: update skipped, weights unchanged "
                f"({len(self.skipped_steps)} skipped so far)"
            )
        if self.probe is not None:
            self.probe.forget()
        return control
