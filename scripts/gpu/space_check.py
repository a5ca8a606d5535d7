"""The demo's model code on a GPU (issue 9: "and on a GPU when there is one"), without gradio (not installed there).

    cd spaces/interleave_demo && python ../../scripts/gpu/space_check.py MODEL_FOLDER OUT.json

Loads the Interleaver on CUDA (bf16), streams the base model and a LoRA adapter (random, non-zero), and checks
that the stream grows by prefixes and ends at plain greedy ``generate``'s text.
"""

import json
import sys
import time

import torch
from shared_code import use_shared_code

use_shared_code()
from interleaver import Interleaver  # noqa: E402
from model_sources import Adapter  # noqa: E402

from dataset_builders.prompts import interleave_target  # noqa: E402

model_dir, out = sys.argv[1], sys.argv[2]
text_a = "It is a truth universally acknowledged, that a single man"
text_b = "Fellow-Citizens of the Senate and House of Representatives: I embrace"
interleaver = Interleaver(model_dir)
assert interleaver.device == "cuda" and next(interleaver.model.parameters()).dtype == torch.bfloat16

from peft import LoraConfig, get_peft_model  # noqa: E402
from transformers import AutoModelForCausalLM  # noqa: E402

lora = get_peft_model(
    AutoModelForCausalLM.from_pretrained(model_dir), LoraConfig(r=8, target_modules="all-linear", task_type="CAUSAL_LM")
)
torch.manual_seed(0)
for name, parameter in lora.named_parameters():
    if "lora_B" in name:
        parameter.data.normal_(0, 0.02)
lora.save_pretrained("/tmp/gpu-check-adapter")
results = {"device": torch.cuda.get_device_name(), "load_seconds": interleaver.load_seconds}
budget = interleaver.max_new_tokens(interleave_target(text_a, text_b))
for label, adapter in (("base", None), ("adapter", Adapter(stage=1, location="/tmp/gpu-check-adapter"))):
    start = time.perf_counter()
    chunks = list(interleaver.stream(text_a, text_b, adapter, budget))
    seconds = time.perf_counter() - start
    assert all(b.startswith(a) for a, b in zip(chunks, chunks[1:])), "the stream is not growing prefixes"
    model = interleaver._use_adapter(adapter)
    inputs = interleaver.prompt_ids(text_a, text_b).to("cuda")
    with (
        torch.inference_mode(),
        (
            model.disable_adapter()
            if adapter is None and hasattr(model, "disable_adapter")
            else torch.autocast("cuda", enabled=False)
        ),
    ):
        ids = model.generate(
            **inputs,
            max_new_tokens=budget,
            do_sample=False,
            temperature=None,
            top_p=None,
            top_k=None,
            pad_token_id=interleaver.tokenizer.eos_token_id,
        )
    plain = interleaver.tokenizer.decode(ids[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
    results[label] = {
        "chunks": len(chunks),
        "seconds": seconds,
        "final_equals_generate": chunks[-1] == plain,
        "output": chunks[-1][:200],
    }
    print(label, results[label], flush=True)
results["adapter_changes_output"] = results["base"]["output"] != results["adapter"]["output"]
open(out, "w").write(json.dumps(results, indent=2) + "\n")
print(json.dumps(results, indent=2))
