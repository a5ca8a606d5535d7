"""Experiment (issue 6), run before training.trainer.graph_sampler adopted the same function (gqa_sdpa_attention):
does SDPA with enable_gqa (no K/V expansion) and a boolean mask speed up the rollout?

Registers an attention function with transformers' AttentionInterface and times a graph-sampler rollout
with the default ("sdpa") and the registered one on the same merged copy. GPU machine, after the .gpu set-up:
  PYTHONPATH=/tmp/gpu/site:$PWD INTERLEAVE_GRPO_CORPUS=/tmp/gpu/corpus \
      python3 scripts/gpu/try_gqa_attention.py /tmp/gpu/smollm2-135m-instruct
"""

import sys
import time

import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from transformers import AttentionInterface

from base_models.models import load_model
from benchmarks.bench_generation import _prompts
from training.trainer.graph_sampler import GraphSampler, merged_copy


def gqa_sdpa(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kwargs):
    mask = attention_mask
    if mask is not None and mask.dtype != torch.bool:
        mask = mask > torch.finfo(mask.dtype).min / 2  # additive -> boolean (True: attend)
    if mask is not None:
        mask = mask[:, :, :, : key.shape[-2]]
    out = F.scaled_dot_product_attention(
        query, key, value, attn_mask=mask, scale=scaling, enable_gqa=query.shape[1] != key.shape[1]
    )
    return out.transpose(1, 2).contiguous(), None


AttentionInterface.register("gqa_sdpa", gqa_sdpa)
model, tokenizer = load_model(sys.argv[1], dtype="bfloat16", device="cuda")
policy = get_peft_model(model, LoraConfig(r=32, lora_alpha=64, target_modules="all-linear", task_type="CAUSAL_LM"))
eos = [tokenizer.eos_token_id]
for batch in (128, 512):
    prompts = _prompts(tokenizer, 1, batch // 8, 8)
    for implementation in ("sdpa", "gqa_sdpa"):
        copy = merged_copy(policy)
        copy.config._attn_implementation = implementation
        sampler = GraphSampler(copy)
        greedy = sampler.sample(prompts[:8], 24, eos, tokenizer.pad_token_id, 0.0)
        sampler.sample(prompts, 48, eos, tokenizer.pad_token_id, 1.0)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(3):
            out = sampler.sample(prompts, 48, eos, tokenizer.pad_token_id, 1.0)
        torch.cuda.synchronize()
        ms = 1000 * (time.perf_counter() - start) / 3
        tokens = sum(map(len, out))
        print(
            f"batch {batch} {implementation}: {ms:.1f} ms per rollout, {tokens / ms * 1000:,.0f} tokens/s, "
            f"greedy[0] {greedy[0][:8]}",
            flush=True,
        )
