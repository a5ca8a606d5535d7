"""What the GRPO run and the warm start share: the adapter to start from, the policy to train, the device name."""

from __future__ import annotations

import json
from pathlib import Path

from training.core.arguments import RecipeError

RUN_SUMMARY = Path("results") / "summary.json"  # under a run's output_dir, where train.py and warm_start.py write it


def adapter_folder(path: str | Path) -> Path:
    """``--init_adapter``'s folder, checked to hold a LoRA adapter."""
    path = Path(path)
    if not (path / "adapter_config.json").is_file():
        raise RecipeError(f"--init_adapter {path} is not a LoRA adapter folder (no adapter_config.json)")
    return path


def run_summary(output_dir: str | Path) -> dict | None:
    """The summary.json of the run in ``output_dir`` (``RUN_SUMMARY``), None where it has none."""
    path = Path(output_dir) / RUN_SUMMARY
    return json.loads(path.read_text()) if path.is_file() else None


def signal_stop(output_dir: str | Path) -> str | None:
    """How the run in ``output_dir`` was stopped by a signal, in words ("stopped by a signal at step 2 of 310: what it
    trained so far"), from its results/summary.json (``signal_stopped_at``: StopOnSignal wrote its final adapter at
    that step); None when it ran to its end or has no summary."""
    summary = run_summary(output_dir) or {}
    if summary.get("signal_stopped_at") is None:
        return None
    at, of = summary["signal_stopped_at"], summary.get("max_steps")
    return f"stopped by a signal at step {at} of {of}: what it trained so far"


def load_policy(model_args, adapter: Path | None, bf16: bool):
    """(model, tokenizer, peft_config): the model carries the trainable adapter, or peft_config is TRL's to add."""
    from peft import PeftModel
    from trl import get_peft_config

    from base_models.models import load_model

    dtype = model_args.dtype if model_args.dtype not in (None, "auto") else ("bfloat16" if bf16 else "float32")
    model, tokenizer = load_model(model_args.model_name_or_path, dtype=dtype, device="cpu")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if adapter is not None:
        return PeftModel.from_pretrained(model, str(adapter), is_trainable=True), tokenizer, None
    peft_config = get_peft_config(model_args)
    if peft_config is None:
        raise RecipeError("this project trains LoRA adapters: set use_peft: true (model presets do)")
    return model, tokenizer, peft_config


def device_name(device) -> str:
    """What trained: the GPU's name (``NVIDIA H100 80GB HBM3``) or ``cpu``."""
    import torch

    return torch.cuda.get_device_name(device) if device.type == "cuda" else device.type
