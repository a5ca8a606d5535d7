"""The graph sampler's prefill on CPU: peak memory and time of one prefill of long prompts, with the tiny random model
(the embedded model's real tokenizer: 49,152 logits a position).

    .venv/bin/python -m benchmarks.bench_prefill [--rows 8] [--width 1400] [--out results/bench-prefill/FILE.json]

Run it in a fresh process per measurement (peak RSS only grows). A 500-word stage has prompts of ~1,400 tokens.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    import torch

    from base_models.models import load_model, tiny_random_model_dir
    from training.trainer.graph_sampler import GraphSampler

    model, tokenizer = load_model(str(tiny_random_model_dir()), device="cpu")
    sampler = GraphSampler(model, use_cuda_graph=False)
    torch.manual_seed(0)
    prompts = [torch.randint(3, len(tokenizer), (args.width,)).tolist() for _ in range(args.rows)]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    sampler.sample(prompts, 1, [tokenizer.eos_token_id], tokenizer.pad_token_id, temperature=0)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    record = {
        "rows": args.rows,
        "width": args.width,
        "vocab": len(tokenizer),
        "seconds": round(seconds, 3),
        "peak_rss_mb": round(peak / 1024, 1),
        "peak_rss_growth_mb": round((peak - before) / 1024, 1),
    }
    print(json.dumps(record))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
