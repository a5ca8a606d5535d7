"""``python -m benchmarks.bench_generation``: rollout tokens/s of the generation paths TRL can take (GPU).

The policy as training sees it (the model in bf16 with a fresh LoRA adapter, r=32 on all linear layers),
prompts of a curriculum stage repeated ``num_generations`` times, sampling at temperature 1 up to the
stage's ``max_completion_length``. Paths: ``generate`` with the dynamic cache (TRL's default), with a
static cache (transformers compiles the forward), with the adapter merged into the weights, and
transformers' continuous batching (``generate_batch``, TRL's ``use_transformers_continuous_batching``), and the
project's sampler (``GRAPH_METHODS``: ``training/trainer/graph_sampler.py``, compiled or not, under training's
attention kernels, with its packed decode attention, the default, or without it). Writes a JSON and a markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _prompts(tokenizer, stage: int, n_prompts: int, num_generations: int) -> list[list[int]]:
    from dataset_builders.interleave_curriculum import curriculum_dataset
    from dataset_builders.prompts import chat_prompt_ids

    rows = curriculum_dataset("validation", stage=stage, size=n_prompts)
    ids = [chat_prompt_ids(tokenizer, r["prompt"]) for r in rows]
    return [p for p in ids for _ in range(num_generations)]


def _completion_tokens(completions, eos_ids: set[int]) -> int:
    total = 0
    for tokens in completions:
        tokens = list(tokens)
        ends = [i for i, t in enumerate(tokens) if t in eos_ids]
        total += ends[0] + 1 if ends else len(tokens)
    return total


def _generate_padded(model, tokenizer, prompts, config):
    import torch

    width = max(map(len, prompts))
    pad = tokenizer.pad_token_id
    input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts], device="cuda")
    mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts], device="cuda")
    out = model.generate(input_ids=input_ids, attention_mask=mask, generation_config=config)
    return out[:, width:].tolist()


def _generate_batch(model, tokenizer, prompts, config):
    outputs = model.generate_batch(prompts, generation_config=config, progress_bar=False)
    return [o.generated_tokens for o in outputs.values()]


def measure(method: str, model, tokenizer, prompts, max_new_tokens: int, repeats: int) -> dict:
    """Warm up once, then time ``repeats`` generations; tokens counted up to and including the end token."""
    import copy

    import torch

    config = copy.deepcopy(model.generation_config)
    config.update(
        do_sample=True,
        temperature=1.0,
        top_k=0,
        top_p=1.0,
        max_new_tokens=max_new_tokens,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    if method.startswith("static"):
        config.cache_implementation = "static"
    if method.startswith("graph"):
        return _measure_graph_method(method, model, tokenizer, prompts, max_new_tokens, repeats)
    run = _generate_batch if method == "continuous_batching" else _generate_padded
    eos = {tokenizer.eos_token_id}
    warm_up = config
    if method == "dynamic":  # nothing to compile: a few tokens warm the kernels up
        warm_up = copy.deepcopy(config)
        warm_up.max_new_tokens = min(8, max_new_tokens)
    run(model, tokenizer, prompts, warm_up)  # warm-up (and compilation for the static cache)
    torch.cuda.synchronize()
    times, tokens, longest = [], 0, 0
    for _ in range(repeats):
        start = time.perf_counter()
        completions = run(model, tokenizer, prompts, config)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        tokens += _completion_tokens(completions, eos)
        longest = max(longest, max(len(c) for c in completions))
    seconds = sum(times)
    return {
        "method": method,
        "batch": len(prompts),
        "max_new_tokens": max_new_tokens,
        "seconds": seconds / repeats,
        "tokens": tokens // repeats,
        "tokens_per_second": tokens / seconds,
        "ms_per_token_step": 1000 * seconds / repeats / max(1, longest),
    }


GRAPH_METHODS = (  # all with the packed decode attention (merged_copy's default) except ``_unpacked``
    "graph",
    "graph_compiled",
    "graph_compiled_training_kernels",  # as training runs it: cuDNN attention off (training.trainer.attention_kernels)
    # the same without the packed decode attention (merged_copy(packed=False)): 22.8 against 4.7 ms a token step at
    # stage 3, 35.3 against 6.3 at stage 4 on an H100 (results/grpo/batch-20/README.md)
    "graph_compiled_training_kernels_unpacked",
)


def _measure_graph_method(method: str, policy, tokenizer, prompts, max_new_tokens: int, repeats: int) -> dict:
    """One of GRAPH_METHODS; the process's cuDNN attention setting is restored after it."""
    import torch

    if method not in GRAPH_METHODS:
        raise ValueError(f"unknown method {method!r}: the graph sampler's are {', '.join(GRAPH_METHODS)}")
    was = torch.backends.cuda.cudnn_sdp_enabled()
    if "_training_kernels" in method:
        from training.trainer.attention_kernels import use_safe_attention_kernels

        use_safe_attention_kernels()
    try:
        return _measure_graph(method, policy, tokenizer, prompts, max_new_tokens, repeats)
    finally:
        torch.backends.cuda.enable_cudnn_sdp(was)


def _measure_graph(method: str, policy, tokenizer, prompts, max_new_tokens: int, repeats: int) -> dict:
    """training.trainer.graph_sampler as ``method`` names it (compiled: ``_compiled``; without the packed decode
    attention, merged_copy's default: ``_unpacked``): weight sync (adapter merge) included in the time, as in a GRPO
    step."""
    import torch

    from training.trainer.graph_sampler import GraphSampler, merged_copy, sync_weights

    compile = "_compiled" in method
    sampler = GraphSampler(merged_copy(policy, packed=not method.endswith("_unpacked")), compile=compile)
    eos = [tokenizer.eos_token_id]

    def run():
        sync_weights(policy, sampler.model)
        return sampler.sample(prompts, max_new_tokens, eos, tokenizer.pad_token_id, temperature=1.0)

    start = time.perf_counter()
    run()  # warm-up and graph capture (and compilation)
    torch.cuda.synchronize()
    warm_up_seconds = time.perf_counter() - start
    seconds, tokens, longest = 0.0, 0, 0
    for _ in range(repeats):
        start = time.perf_counter()
        completions = run()
        torch.cuda.synchronize()
        seconds += time.perf_counter() - start
        tokens += sum(map(len, completions))
        longest = max(longest, max(map(len, completions)))
    if compile and not sampler.compile:
        method += " (compile failed: graph)"
    if not sampler.use_cuda_graph:
        method += " (capture failed: eager)"
    return {
        "method": method,
        "batch": len(prompts),
        "max_new_tokens": max_new_tokens,
        "seconds": seconds / repeats,
        "tokens": tokens // repeats,
        "tokens_per_second": tokens / seconds,
        "ms_per_token_step": 1000 * seconds / repeats / max(1, longest),
        "warm_up_seconds": warm_up_seconds,
    }


def policy_for_bench(model_name: str):
    """The policy as training sees it: the model in bf16 on the GPU with a fresh LoRA adapter (r=32, all linear)."""
    from peft import LoraConfig, get_peft_model

    from base_models.models import load_model

    model, tokenizer = load_model(model_name, dtype="bfloat16", device="cuda")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = get_peft_model(model, LoraConfig(r=32, lora_alpha=64, target_modules="all-linear", task_type="CAUSAL_LM"))
    return model.eval(), tokenizer


def run_generation_bench(
    model, tokenizer, stages, batches, methods, num_generations: int = 8, repeats: int = 2, log=print
) -> list[dict]:
    """One result per (stage, batch, method); a method that fails is recorded with its error."""
    from dataset_builders import tasks

    results = []
    for stage in stages:
        max_new = tasks.get(f"stage-{stage}").completion_budget(tokenizer)
        for batch in batches:
            prompts = _prompts(tokenizer, stage, batch // num_generations, num_generations)
            for method in methods:
                merged = method.endswith("_merged")
                if merged:
                    model.merge_adapter()
                try:
                    result = measure(method, model, tokenizer, prompts, max_new, repeats)
                except Exception as exc:  # a path that fails is a result too
                    result = {"method": method, "batch": batch, "max_new_tokens": max_new, "error": repr(exc)[:300]}
                finally:
                    if merged:
                        model.unmerge_adapter()
                result["stage"] = stage
                results.append(result)
                log(json.dumps(result))
    return results


def main(argv: list[str] | None = None) -> int:
    import torch

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_generation",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--stages", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--batches", type=int, nargs="+", default=[128, 512])
    parser.add_argument("--methods", nargs="+", default=["dynamic", "static", "static_merged", "continuous_batching"])
    parser.add_argument("--num_generations", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", default="results/bench-generation")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("error: this benchmark needs a CUDA GPU", file=sys.stderr)
        return 2

    model, tokenizer = policy_for_bench(args.model)
    results = run_generation_bench(
        model,
        tokenizer,
        args.stages,
        args.batches,
        args.methods,
        args.num_generations,
        args.repeats,
        log=lambda line: print(line, flush=True),
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    device = torch.cuda.get_device_name()
    (out / "bench.json").write_text(
        json.dumps({"device": device, "torch": torch.__version__, "results": results}, indent=2) + "\n"
    )
    lines = [
        f"# Rollout generation, {device}",
        "",
        "| stage | batch | max new tokens | method | tokens/s | ms per token step | x dynamic |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        base = next(
            (
                b
                for b in results
                if b["stage"] == r["stage"]
                and b["batch"] == r["batch"]
                and b["method"] == "dynamic"
                and "error" not in b
            ),
            None,
        )
        if "error" in r:
            lines.append(
                f"| {r['stage']} | {r['batch']} | {r['max_new_tokens']} | {r['method']} | failed: {r['error']} | | |"
            )
            continue
        ratio = f"{r['tokens_per_second'] / base['tokens_per_second']:.1f}" if base else ""
        lines.append(
            f"| {r['stage']} | {r['batch']} | {r['max_new_tokens']} | {r['method']} | "
            f"{r['tokens_per_second']:,.0f} | {r['ms_per_token_step']:.1f} | {ratio} |"
        )
    (out / "bench.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
