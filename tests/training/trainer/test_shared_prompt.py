"""--shared_prompt_loss: each group's prompt computed once gives TRL's per-token log-probabilities, entropies and
gradients (training/trainer/shared_prompt.py), on the tiny model with TRL's fused LM head, LoRA and activation
checkpointing, as a GRPO run has them."""

import pytest
import torch

from training.trainer.shared_prompt import prompt_groups, shared_prompt_logps

GROUP, GROUPS, PROMPT, COMPLETION = 4, 2, 12, 6


@pytest.fixture()
def policy(tiny_model_dir):
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM
    from trl.trainer.utils import add_fused_lm_head

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    add_fused_lm_head(model, temperature=0.9, outputs=("log_probs", "entropy"))  # as GRPOTrainer patches it
    model = get_peft_model(model, LoraConfig(r=8, target_modules="all-linear", lora_dropout=0.0))
    with torch.no_grad():  # LoRA's B starts at zero: give it weights, so that A's gradients are not all zero
        for name, param in model.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 0.05)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.enable_input_require_grads()
    model.train()
    return model


def batch(vocab: int):
    """GROUPS groups of GROUP rows: each group one left-padded prompt, each row its own right-padded completion."""
    generator = torch.Generator().manual_seed(1)
    prompts = torch.randint(3, vocab, (GROUPS, PROMPT), generator=generator)
    prompt_mask = torch.ones(GROUPS, PROMPT, dtype=torch.long)
    prompt_mask[1, :5] = 0  # the second prompt is shorter: left padding
    prompts[1, :5] = 0
    completions = torch.randint(3, vocab, (GROUPS * GROUP, COMPLETION), generator=generator)
    completion_mask = torch.ones_like(completions)
    completion_mask[1, 4:] = 0  # ended early: right padding
    completion_mask[6, 2:] = 0
    completions[completion_mask == 0] = 0
    input_ids = torch.cat([prompts.repeat_interleave(GROUP, 0), completions], dim=1)
    attention_mask = torch.cat([prompt_mask.repeat_interleave(GROUP, 0), completion_mask], dim=1)
    return input_ids, attention_mask, completion_mask


def trl_logps(model, input_ids, attention_mask):
    """TRL 1.16's _get_per_token_logps_and_entropies for one chunk: one pass over prompt + completion per row."""
    labels = input_ids.masked_fill(attention_mask == 0, -100)
    labels[:, :-COMPLETION] = -100
    outputs = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels, fused_lm_head=True)
    return outputs.log_probs[:, -COMPLETION:], outputs.entropy[:, -COMPLETION:]


def gradients(model, logps, mask):
    model.zero_grad()
    weights = torch.linspace(-1, 1, logps.numel()).view_as(logps)  # advantages of both signs
    (logps * weights * mask).sum().backward()
    return {name: p.grad.clone() for name, p in model.named_parameters() if p.requires_grad and p.grad is not None}


def test_a_shared_prompt_gives_trls_logps_entropies_and_gradients(policy):
    input_ids, attention_mask, completion_mask = batch(policy.config.vocab_size)
    want_logps, want_entropy = trl_logps(policy, input_ids, attention_mask)
    want_grads = gradients(policy, want_logps, completion_mask)
    got_logps, got_entropy = shared_prompt_logps(policy, input_ids, attention_mask, COMPLETION, compute_entropy=True)
    got_grads = gradients(policy, got_logps, completion_mask)
    kept = completion_mask.bool()
    assert torch.allclose(got_logps[kept], want_logps[kept], atol=1e-5)
    assert torch.allclose(got_entropy[kept], want_entropy[kept], atol=1e-5)
    assert want_grads.keys() == got_grads.keys() and any("lora_A" in name for name in got_grads)
    for name, grad in want_grads.items():
        assert torch.allclose(got_grads[name], grad, atol=1e-5, rtol=1e-4), name
    assert all(m.gradient_checkpointing for m in policy.modules() if hasattr(m, "gradient_checkpointing"))


def test_rows_not_in_groups_of_equal_prompts_are_left_to_trl(policy):
    input_ids, attention_mask, _ = batch(policy.config.vocab_size)
    assert prompt_groups(input_ids[:, :-COMPLETION], attention_mask[:, :-COMPLETION]) == GROUP
    uneven = torch.cat([input_ids[:GROUP], input_ids[GROUP : GROUP + 2]])  # a group of 4, then one of 2
    assert prompt_groups(uneven[:, :-COMPLETION], torch.ones_like(uneven[:, :-COMPLETION])) is None
    singles = input_ids[::GROUP]
    assert shared_prompt_logps(policy, singles, attention_mask[::GROUP], COMPLETION, compute_entropy=False) is None


def test_settings_where_keeping_groups_together_would_change_the_step():
    from types import SimpleNamespace

    from training.trainer.shared_prompt import entropy_bonus_note, shared_prompt_settings

    def args(**changes):
        base = {"steps_per_generation": None, "gradient_accumulation_steps": 8, "num_iterations": 1}
        return SimpleNamespace(**{**base, "loss_type": "dapo", **changes})

    assert shared_prompt_settings(args()) is None
    assert shared_prompt_settings(args(steps_per_generation=8, loss_type="dr_grpo")) is None
    assert "steps_per_generation 16" in shared_prompt_settings(args(steps_per_generation=16))
    assert "num_iterations 2" in shared_prompt_settings(args(num_iterations=2))
    assert "loss_type bnpo normalizes by each micro-batch's tokens" in shared_prompt_settings(args(loss_type="bnpo"))
    assert "top_entropy_quantile" in shared_prompt_settings(args(top_entropy_quantile=0.8))
    assert "several processes" in shared_prompt_settings(args(world_size=2))
    assert entropy_bonus_note(args(entropy_coef=0.0)) is None
    assert "entropy bonus" in entropy_bonus_note(args(entropy_coef=0.02))
    assert entropy_bonus_note(args(entropy_coef=0.02, gradient_accumulation_steps=1)) is None
