"""GRPO's loss pass with each group's prompt computed once (``--shared_prompt_loss``).

TRL scores a step's completions with one forward (and backward) over prompt + completion for every completion, so
the ``num_generations`` completions of a group run the same prompt that many times. On continuation windows at stage
6 the prompt is 2,300-3,900 tokens and the window 64, so nearly all of that pass is the same prompt again
(results/grpo/batch-28/README.md, "Where a slip-window step's time goes"). Here the prompt, less its last token, runs
once per group with its keys and values kept (and in the graph: their gradients flow back through the prompt, summed
over the group's completions), and each completion then runs on top of them: the last prompt token and the
completion's tokens, scored with TRL's fused LM head on pre-shifted labels. The positions, the attention and the
scored tokens are those of TRL's pass, so the log-probabilities, entropies and gradients are the same up to
floating-point rounding (tests/training/trainer/test_shared_prompt.py: to 1e-5 in float32; in bfloat16 both passes
are within rounding of the float32 numbers, and their gradients about 1% apart).

TRL shuffles a generation batch's rows before it splits them into micro-batches; the trainer skips that shuffle
under this flag (``ObservedGRPOTrainer._prepare_inputs_in_groups``), so that a micro-batch holds whole groups. The
policy term's summed gradient of a step is the same when the step is one optimizer step over the whole generation
batch and the loss is normalized over it, per sequence or by a constant (``shared_prompt_settings`` checks both, and
refuses entropy-quantile masks and several processes).

Two differences remain. TRL's entropy bonus is a mean over each micro-batch's tokens, so with several micro-batches
a step its weight per token follows which rows share one (``entropy_bonus_note``; the run says so). And skipping the
shuffle skips its draw from the random generator, so a run's later random draws differ from those of a run without
the flag.

A layer with activation checkpointing drops a key-value cache (transformers' GradientCheckpointingLayer), so the
layers run without it in this pass: every layer's activations of a group's prompt are kept for the backward pass
instead of recomputed, which takes more memory than TRL's checkpointed pass (estimated on CPU at ~13 GB in bfloat16
for a micro-batch of 2 groups with stage 6's 3,900-token prompts on SmolLM2-135M), while the prompt runs once per
group instead of once per completion. A batch whose rows do not come in groups of equal prompts is left to TRL's pass,
and the trainer logs that once.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

ORDER_FREE_LOSSES = ("dapo", "grpo", "dr_grpo")  # normalized over the generation batch, per sequence, or by a constant


def shared_prompt_settings(grpo_args) -> str | None:
    """Why ``--shared_prompt_loss`` would change what a step learns with these GRPOConfig settings (None: it does
    not): the unshuffled micro-batches must make one optimizer step per generation batch, with a loss whose
    normalization does not depend on which rows share a micro-batch."""
    steps = grpo_args.steps_per_generation or grpo_args.gradient_accumulation_steps
    if steps != grpo_args.gradient_accumulation_steps or grpo_args.num_iterations != 1:
        return (
            "it keeps each group in one micro-batch, which is the same step only with one optimizer step per "
            f"generation batch (steps_per_generation {steps}, gradient_accumulation_steps "
            f"{grpo_args.gradient_accumulation_steps}, num_iterations {grpo_args.num_iterations})"
        )
    if grpo_args.loss_type not in ORDER_FREE_LOSSES:
        return (
            f"loss_type {grpo_args.loss_type} normalizes by each micro-batch's tokens, which depend on which rows "
            f"share one: use one of {', '.join(ORDER_FREE_LOSSES)}"
        )
    if getattr(grpo_args, "top_entropy_quantile", 1.0) < 1.0:
        return "top_entropy_quantile below 1 masks tokens by a quantile of each micro-batch's entropies"
    if getattr(grpo_args, "world_size", 1) > 1:
        return "it has not been run with several processes (DDP or FSDP): run it on one"
    return None


def entropy_bonus_note(grpo_args) -> str | None:
    """What differs from TRL's step under ``--shared_prompt_loss`` that ``shared_prompt_settings`` allows: TRL's
    entropy bonus is a mean over each micro-batch's tokens, so with several micro-batches a step its weight per
    token follows which rows share one (slightly, where completions differ in length)."""
    bonus = getattr(grpo_args, "entropy_coef", 0.0) or getattr(grpo_args, "use_adaptive_entropy", False)
    if bonus and grpo_args.gradient_accumulation_steps > 1:
        return (
            "the entropy bonus is a mean over each micro-batch's tokens, and a micro-batch now holds whole groups "
            "instead of shuffled rows: its weight per token differs slightly from TRL's step where completions "
            "differ in length"
        )
    return None


def prompt_groups(prompt_ids: torch.Tensor, prompt_mask: torch.Tensor) -> int | None:
    """The size of the runs of equal prompts (ids and mask) the rows come in, if all runs have one size of at least
    2 (TRL repeats each prompt ``num_generations`` times in a row), else None."""
    rows = prompt_ids.size(0)
    same = (prompt_ids[1:] == prompt_ids[:-1]).all(dim=1) & (prompt_mask[1:] == prompt_mask[:-1]).all(dim=1)
    starts = [0] + [i + 1 for i, equal in enumerate(same.tolist()) if not equal]
    sizes = {b - a for a, b in zip(starts, [*starts[1:], rows], strict=True)}
    size = sizes.pop() if len(sizes) == 1 else None
    return size if size and size >= 2 else None


@contextmanager
def without_activation_checkpointing(model):
    """The model's layers without activation checkpointing for the duration (it would drop the cache this pass
    hands from the prompt to the completions); restored after, before the backward pass, which needs no flag."""
    layers = [m for m in model.modules() if getattr(m, "gradient_checkpointing", False) is True]
    for layer in layers:
        layer.gradient_checkpointing = False
    try:
        yield
    finally:
        for layer in layers:
            layer.gradient_checkpointing = True


def shared_prompt_logps(
    model, input_ids: torch.Tensor, attention_mask: torch.Tensor, logits_to_keep: int, compute_entropy: bool
) -> tuple[torch.Tensor, torch.Tensor | None] | None:
    """Per-token log-probabilities (and entropies) of the last ``logits_to_keep`` tokens of each row, as TRL's
    ``_get_per_token_logps_and_entropies`` computes them for a model with TRL's fused LM head, with each run of equal
    prompts computed once. None where the rows do not come in such runs (the caller then runs TRL's pass)."""
    prompt_ids, completion_ids = input_ids[:, :-logits_to_keep], input_ids[:, -logits_to_keep:]
    prompt_mask, completion_mask = attention_mask[:, :-logits_to_keep], attention_mask[:, -logits_to_keep:]
    if prompt_ids.size(1) < 2:
        return None
    group = prompt_groups(prompt_ids, prompt_mask)
    if group is None:
        return None
    firsts = torch.arange(0, input_ids.size(0), group, device=input_ids.device)
    with without_activation_checkpointing(model):
        prefix = model(
            input_ids=prompt_ids[firsts, :-1], attention_mask=prompt_mask[firsts, :-1], use_cache=True, logits_to_keep=1
        )
        cache = prefix.past_key_values
        cache.batch_repeat_interleave(group)  # each group's keys and values for each of its completions
        # the last prompt token, then the completion less its last token: position t scores completion token t
        tail_ids = torch.cat([prompt_ids[:, -1:], completion_ids[:, :-1]], dim=1)
        labels = completion_ids.masked_fill(completion_mask == 0, -100)
        outputs = model(
            input_ids=tail_ids,
            attention_mask=attention_mask[:, :-1],  # the cached prompt less its last token, then the tail's tokens
            past_key_values=cache,
            shift_labels=labels,
            fused_lm_head=True,
        )
    return outputs.log_probs, (outputs.entropy if compute_entropy else None)
