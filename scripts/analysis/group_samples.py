"""A group of answers to one prompt, sampled as GRPO samples them (temperature 1, no top-k or top-p): what the
analyses that ask "does a group hold a right answer?" share (scripts/analysis/slip_probe.py,
scripts/analysis/arithmetic_group_signal.py)."""

from __future__ import annotations

import torch

from dataset_builders.prompts import chat_prompt_ids


def prompt_tensor(model, tokenizer, row) -> torch.Tensor:
    """A problem's chat prompt as a (1, length) tensor of token ids on the model's device."""
    return torch.tensor([chat_prompt_ids(tokenizer, row["prompt"])], device=model.device)


def sample_group(model, tokenizer, ends, prompt: torch.Tensor, k: int, max_new_tokens: int) -> list[str]:
    """``k`` answers to ``prompt`` (a (1, length) tensor), each ending at a token of ``ends`` or the limit, decoded
    without special tokens."""
    with torch.no_grad():
        samples = model.generate(
            prompt.repeat(k, 1),
            attention_mask=torch.ones(k, prompt.shape[1], dtype=torch.long, device=prompt.device),
            max_new_tokens=max_new_tokens,
            do_sample=True,
            temperature=1.0,
            top_k=0,
            top_p=1.0,
            eos_token_id=ends,
            pad_token_id=tokenizer.pad_token_id,
        )
    return tokenizer.batch_decode(samples[:, prompt.shape[1] :], skip_special_tokens=True)
