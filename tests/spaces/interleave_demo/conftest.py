"""Fixtures for the demo Space: its folder on sys.path, untrained LoRA stage adapters."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

SPACE_DIR = REPO_ROOT / "spaces" / "interleave_demo"
if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))


def make_adapter(base_model_dir: Path, out: Path, seed: int) -> Path:
    """An untrained LoRA adapter with random (non-zero) weights, so it changes the model's output."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(base_model_dir)
    torch.manual_seed(seed)
    config = LoraConfig(
        r=8, lora_alpha=64, target_modules=["q_proj", "v_proj", "o_proj", "down_proj"], init_lora_weights=False
    )
    get_peft_model(model, config).save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def tiny_stage_adapters(tiny_model_dir, tmp_path_factory) -> str:
    """runs/stage-1/final and runs/stage-2/final on the tiny model; returns the folder pattern with {n}."""
    root = tmp_path_factory.mktemp("adapters")
    for stage in (1, 2):
        make_adapter(tiny_model_dir, root / "runs" / f"stage-{stage}" / "final", seed=stage)
    return str(root / "runs" / "stage-{n}" / "final")
