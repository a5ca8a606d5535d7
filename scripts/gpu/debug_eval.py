"""Why does a GRPO-trained adapter score 0.1 greedily on the GPU and 1.0 on CPU? Decode 16 stage-1 test problems
with each path and print the scores and two outputs.  python scripts/gpu/debug_eval.py MODEL ADAPTER"""

import sys

import torch
from peft import PeftModel

from base_models.models import load_model
from dataset_builders.interleave_curriculum import curriculum_dataset
from dataset_builders.prompts import completion_text
from metrics.needleman_wunsch.nw_alignment import nw_scores
from training.trainer.graph_sampler import GraphSampler, merged_copy

model_dir, adapter = sys.argv[1], sys.argv[2]
DEV = "cuda" if torch.cuda.is_available() else "cpu"
N = int(sys.argv[3]) if len(sys.argv) > 3 else 16
problems = curriculum_dataset("test", stage=1, size=N)
for dtype in ("bfloat16", "float32"):
    base, tok = load_model(model_dir, dtype=dtype, device=DEV)
    peft = PeftModel.from_pretrained(base, adapter)
    ids = [
        list(tok.apply_chat_template(p, add_generation_prompt=True, tokenize=True)["input_ids"])
        for p in problems["prompt"]
    ]

    def report(name, token_lists, tok=tok, dtype=dtype):
        texts = [completion_text(tok.decode(t, skip_special_tokens=True)) for t in token_lists]
        scores = nw_scores(texts, problems["target"])
        print(f"{dtype:9} {name:28} NW {sum(scores) / len(scores):.3f} | {texts[0][:90]!r}", flush=True)

    outs = []
    with torch.no_grad():
        for row in ids:  # HF generate on the peft model, one at a time (no padding)
            g = peft.generate(torch.tensor([row], device=DEV), max_new_tokens=60, do_sample=False)
            outs.append(g[0, len(row) :].tolist())
    report("peft generate", outs)
    merged = merged_copy(peft)
    outs = []
    with torch.no_grad():
        for row in ids:
            g = merged.generate(torch.tensor([row], device=DEV), max_new_tokens=60, do_sample=False)
            outs.append(g[0, len(row) :].tolist())
    report("merged_copy generate", outs)
    for name, kwargs in (
        ("sampler eager", dict(use_cuda_graph=False)),
        ("sampler graph", {}),
        ("sampler graph compiled", dict(compile=True)),
    ):
        sampler = GraphSampler(merged, **kwargs)
        report(name, sampler.sample(ids, 60, [tok.eos_token_id], tok.pad_token_id or tok.eos_token_id, 0))
        report(
            name + " batch 1",
            [sampler.sample([r], 60, [tok.eos_token_id], tok.eos_token_id, 0)[0] for r in ids[:4]] + [[]] * (N - 4),
        )
    del base, peft, merged
