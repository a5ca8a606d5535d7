"""A user's session against a Hub endpoint: everything by repo id, nothing from the checkout.

``python tests/publishing/hub_user.py ENDPOINT OWNER OUT.json``: loads the datasets, the metric, the base model
plus the stage-1 adapter (and generates), and every card, lists the demo Space's files and downloads it (next to
OUT.json, in ``space/``), then writes what it saw as JSON for the test to check. HF_ENDPOINT is set before anything
imports huggingface_hub, as a user of a mirror must.
"""

import json
import os
import sys

endpoint, owner, out = sys.argv[1:4]
os.environ["HF_ENDPOINT"] = endpoint
os.environ.pop("HF_HUB_OFFLINE", None)
os.environ.pop("HF_TOKEN", None)

from datasets import get_dataset_config_names, load_dataset  # noqa: E402
from huggingface_hub import DatasetCard, HfApi, ModelCard, SpaceCard, hf_hub_download, snapshot_download  # noqa: E402

seen = {"configs": get_dataset_config_names(f"{owner}/interleave-curriculum")}
stage_1 = load_dataset(f"{owner}/interleave-curriculum", "stage-1", split="test")
arithmetic = load_dataset(f"{owner}/arithmetic", "3x2", split="test")
seen["stage_1_test"] = [{"id": r["id"], "target": r["target"]} for r in stage_1]
seen["arithmetic_test"] = [{"id": r["id"], "a": r["a"], "b": r["b"], "answer": r["answer"]} for r in arithmetic]

import evaluate  # noqa: E402

# evaluate 0.4.6 first asks for revision v0.4.6; olah answers 401 (not 404) for it, so no fallback to main.
metric = evaluate.load(f"{owner}/needleman_wunsch", revision="main")
target = stage_1[0]["target"]
half = " ".join(target.split()[: len(target.split()) // 2])
seen["metric"] = metric.compute(predictions=[target, half], references=[target, target])

import torch  # noqa: E402
from peft import PeftModel  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402

repo = f"{owner}/interleave-grpo-tiny-random-llama"
seen["branches"] = {b.name: b.target_commit for b in HfApi().list_repo_refs(repo).branches}
# transformers probes optional files (adapter_config.json, additional_chat_templates/); for an absent one olah
# answers 401 where the Hub answers 404, unless the revision is a commit id. So: resolve main, load that commit.
base_commit = HfApi().model_info(f"{owner}/tiny-random-llama", revision="main").sha
base = AutoModelForCausalLM.from_pretrained(f"{owner}/tiny-random-llama", revision=base_commit)
tokenizer = AutoTokenizer.from_pretrained(repo, revision=seen["branches"]["stage-1"])
model = PeftModel.from_pretrained(base, repo, revision="stage-1")
inputs = tokenizer.apply_chat_template(
    stage_1[0]["prompt"], add_generation_prompt=True, return_tensors="pt", return_dict=True
)
with torch.no_grad():
    generated = model.generate(**inputs, max_new_tokens=8, do_sample=False)
    with model.disable_adapter():
        base_generated = base.generate(**inputs, max_new_tokens=8, do_sample=False)
prompt_length = inputs["input_ids"].shape[1]
seen["adapter_tokens"] = generated[0, prompt_length:].tolist()
seen["base_tokens"] = base_generated[0, prompt_length:].tolist()
seen["adapter_base_model"] = model.peft_config["default"].base_model_name_or_path

seen["cards"] = {
    "interleave-curriculum": DatasetCard.load(f"{owner}/interleave-curriculum").content,
    "arithmetic": DatasetCard.load(f"{owner}/arithmetic").content,
    "needleman_wunsch": SpaceCard.load(f"{owner}/needleman_wunsch").content,
    "interleave-demo": SpaceCard.load(f"{owner}/interleave-demo").content,
    "model@main": ModelCard.load(repo).content,
    "model@stage-1": open(hf_hub_download(repo, "README.md", revision="stage-1"), encoding="utf-8").read(),
    "tiny-random-llama": ModelCard.load(f"{owner}/tiny-random-llama").content,
}

# The demo Space: its files, and a copy to run (a Space runs a git checkout of its repo: real files, no symlinks).
# Its models are fetched into the cache here, so that it can run offline: olah answers 401 to transformers' probes
# of absent files when a model is loaded by name (see above).
space = f"{owner}/interleave-demo"
seen["space_files"] = sorted(HfApi().list_repo_files(space, repo_type="space"))
seen["space_dir"] = snapshot_download(space, repo_type="space", local_dir=os.path.join(os.path.dirname(out), "space"))
snapshot_download(f"{owner}/tiny-random-llama")
with open(out, "w") as handle:
    json.dump(seen, handle)
