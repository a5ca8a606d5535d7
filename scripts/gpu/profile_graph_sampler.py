"""Where a graph-sampler rollout spends its time (GPU): torch.profiler over one rollout after warm-up.

Run on the GPU machine after the .gpu set-up:
  PYTHONPATH=/tmp/gpu/site:$PWD INTERLEAVE_GRPO_CORPUS=/tmp/gpu/corpus \
      python3 scripts/gpu/profile_graph_sampler.py /tmp/gpu/smollm2-135m-instruct
"""

import sys
import time

import torch
from peft import LoraConfig, get_peft_model
from torch.profiler import ProfilerActivity, profile

from base_models.models import load_model
from benchmarks.bench_generation import _prompts
from training.trainer.graph_sampler import GraphSampler, merged_copy, sync_weights

model, tokenizer = load_model(sys.argv[1], dtype="bfloat16", device="cuda")
policy = get_peft_model(model, LoraConfig(r=32, lora_alpha=64, target_modules="all-linear", task_type="CAUSAL_LM"))
sampler = GraphSampler(merged_copy(policy))
prompts = _prompts(tokenizer, 1, 16, 8)
eos = [tokenizer.eos_token_id]


def timed(label, fn, repeats=3):
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    torch.cuda.synchronize()
    print(f"{label}: {1000 * (time.perf_counter() - start) / repeats:.1f} ms", flush=True)


timed("sync_weights", lambda: sync_weights(policy, sampler.model))
timed("sample 48 tokens, batch 128", lambda: sampler.sample(prompts, 48, eos, tokenizer.pad_token_id, 1.0))
timed("sample 1 token (prefill only), batch 128", lambda: sampler.sample(prompts, 1, eos, tokenizer.pad_token_id, 1.0))
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    sampler.sample(prompts, 48, eos, tokenizer.pad_token_id, 1.0)
    torch.cuda.synchronize()
print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=20))
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=15))
