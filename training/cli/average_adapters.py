"""Average LoRA adapters of one run, tensor by tensor: checkpoints a few steps apart, or a run's final adapter and the
one it continued.

    python -m training.cli.average_adapters OUT ADAPTER ADAPTER [ADAPTER ...]

Why (issue 17, results/grpo/README.md, session 11): late in a stage-1 run at lr 3e-4, each update flips some answers
the policy is sure of, right to wrong and wrong to right, so the score stays flat while the misses move. Averaging
adapters of one run (same LoRA config, same lineage) cancels that noise without touching the learning rate. The
adapters' A and B matrices are averaged separately, which approximates averaging their products only for adapters
close together: average checkpoints of one run, not unrelated runs. OUT gets the averaged weights (in the first
adapter's dtypes), its adapter_config.json, and averaged_from.json naming the sources.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

WEIGHTS = "adapter_model.safetensors"
CONFIG = "adapter_config.json"
# what two adapters must share to be averaged (the rest of the config, e.g. the inference_mode flag, may differ)
SHARED = ("base_model_name_or_path", "peft_type", "r", "lora_alpha", "target_modules", "modules_to_save", "use_dora")


class AverageError(ValueError):
    """Adapters that cannot be averaged, with what differs."""


def _config(folder: Path) -> dict:
    if not (folder / CONFIG).is_file() or not (folder / WEIGHTS).is_file():
        raise AverageError(f"{folder} is not a LoRA adapter folder (it needs {CONFIG} and {WEIGHTS})")
    return json.loads((folder / CONFIG).read_text())


def average_adapters(folders: list[Path], out: Path) -> Path:
    """Write the tensor-wise mean of the adapters in ``folders`` to ``out``; returns ``out``."""
    import torch
    from safetensors.torch import load_file, save_file

    if len(folders) < 2:
        raise AverageError("averaging needs at least two adapters")
    configs = [_config(folder) for folder in folders]
    for folder, config in zip(folders[1:], configs[1:], strict=True):
        differ = [k for k in SHARED if _normal(config.get(k)) != _normal(configs[0].get(k))]
        if differ:
            raise AverageError(f"{folder} and {folders[0]} differ in {', '.join(differ)}: they cannot be averaged")
    tensors = [load_file(folder / WEIGHTS) for folder in folders]
    for folder, weights in zip(folders[1:], tensors[1:], strict=True):
        if weights.keys() != tensors[0].keys() or any(weights[k].shape != tensors[0][k].shape for k in weights):
            raise AverageError(f"{folder} and {folders[0]} hold different tensors: they cannot be averaged")
    mean = {
        key: (sum(t[key].to(torch.float32) for t in tensors) / len(tensors)).to(tensors[0][key].dtype)
        for key in tensors[0]
    }
    out.mkdir(parents=True, exist_ok=True)
    save_file(mean, out / WEIGHTS)
    shutil.copy(folders[0] / CONFIG, out / CONFIG)
    (out / "averaged_from.json").write_text(json.dumps({"adapters": [str(f) for f in folders]}, indent=1) + "\n")
    return out


def _normal(value):
    return sorted(value) if isinstance(value, list) else value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the folder to write the averaged adapter to")
    parser.add_argument("adapters", nargs="+", help="adapter folders of one run (checkpoints, or final ones)")
    args = parser.parse_args(argv)
    try:
        out = average_adapters([Path(a) for a in args.adapters], Path(args.out))
    except AverageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"averaged {len(args.adapters)} adapters into {out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
