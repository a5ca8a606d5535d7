"""A stage run as training leaves it (final adapter with tokenizer, results/stage-N/ summary and plots), fast.

The adapter is a LoRA on the tiny random Llama with random non-zero B matrices, so it changes the model's
output; summary.json and the plots are written by training's own ``write_results``.
"""

from __future__ import annotations

import json
from pathlib import Path

from model_cards.eval_results import EvalResults, EvalRow


def make_stage_run(root: Path, model_dir: Path, stage: int, wall_seconds: float = 754.2, seed: int = 0) -> Path:
    """``root/runs/stage-N/final`` and ``root/results/stage-N/``; returns the final adapter folder."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from training.cli.train import write_results

    run = f"stage-{stage}"
    output_dir, results_dir = root / "runs" / run, root / "results" / run
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    torch.manual_seed(seed)
    peft_model = get_peft_model(
        model, LoraConfig(r=4, lora_alpha=8, target_modules="all-linear", task_type="CAUSAL_LM")
    )
    for name, param in peft_model.named_parameters():
        if "lora_B" in name:
            param.data.normal_(0, 0.5)
    final = output_dir / "final"
    peft_model.save_pretrained(final)  # also writes peft's generic README.md, as TRL's save does
    AutoTokenizer.from_pretrained(model_dir).save_pretrained(final)
    (final / "training_args.bin").write_bytes(b"pickled training arguments")
    records = [
        {
            "global_step": s,
            "timestamp": 1000.0 + 10 * s,
            "reward": 0.1 * s,
            "frac_reward_zero_std": 0.5,
            "completions/mean_length": 20.0 + s,
            "entropy": 1.0,
            "step_time": 10.0,
        }
        for s in (1, 2, 3)
    ]
    (output_dir / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    write_results(
        output_dir,
        results_dir,
        run,
        {
            "run": run,
            "task": run,
            "model": str(model_dir),
            "init_adapter": None,
            "resumed_from": None,
            "max_steps": 3,
            "global_step": 3,
            "wall_seconds": wall_seconds,
            "device": "NVIDIA H100 80GB HBM3",
            "final_adapter": str(final),
            "collapse_stopped_at": None,
            "recipe": {"task": "interleave", "stage": stage, "model_preset": None},
            "grpo": {
                "learning_rate": 0.0001,
                "num_generations": 8,
                "per_device_train_batch_size": 64,
                "max_completion_length": 48,
                "temperature": 1.0,
                "beta": 0.0,
                "loss_type": "dapo",
                "reward_weights": [0.5, 0.5],
                "seed": 0,
            },
            "lora": {"lora_r": 4, "lora_alpha": 8, "lora_dropout": 0.0, "lora_target_modules": "all-linear"},
        },
    )
    return final


def write_eval(
    path: Path,
    adapter: str | None,
    generated_at: str,
    stage: int = 1,
    nw: float = 0.8312,
    em: float = 0.6875,
    out_of_register: tuple[float, float] | None = None,
) -> EvalResults:
    """An eval file of the lead's schema: the trained adapter and the base model on stage N's test split (and, with
    ``out_of_register`` (NW, exact match), the trained adapter on its out_of_register split)."""
    held_out = (
        [EvalRow(f"stage-{stage}", 10, "out_of_register", 128, *out_of_register, "trained")] if out_of_register else []
    )
    results = EvalResults(
        model="tiny-random-llama",
        adapter=adapter,
        generated_at=generated_at,
        device="NVIDIA H100",
        rows=[
            EvalRow(f"stage-{stage}", 10, "test", 256, nw, em, "trained"),
            EvalRow(f"stage-{stage}", 10, "test", 256, 0.1234, 0.0, "baseline"),
            *held_out,
            EvalRow("arithmetic", None, "test", 512, None, 0.01, "trained", partial_credit=0.05),
        ],
    )
    results.save(path)
    return results
