"""Whether a saved LoRA adapter fits a base model, read from the adapter's files before anything is run on it.

Each LoRA tensor names the module it adapts and holds its sizes (``lora_A``: rank x in features, ``lora_B``: out
features x rank); a module the model lacks, or of other sizes, means the adapter was trained on another base model.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

_LORA_KEY = re.compile(
    r"^base_model\.model\.(?P<module>.+)\.(?P<part>lora_A|lora_B|lora_embedding_A|lora_embedding_B)"
    r"(?:\.[^.]+)?(?:\.weight)?$"
)


def adapter_base_model(adapter: str | Path) -> str | None:
    """The base model the adapter's ``adapter_config.json`` names (None when it names none)."""
    config = json.loads((Path(adapter) / "adapter_config.json").read_text(encoding="utf-8"))
    return config.get("base_model_name_or_path")


def _tensor_shapes(adapter: Path) -> dict[str, tuple[int, ...]]:
    safetensors = adapter / "adapter_model.safetensors"
    if safetensors.is_file():
        from safetensors import safe_open

        with safe_open(str(safetensors), "pt") as handle:
            return {key: tuple(handle.get_slice(key).get_shape()) for key in handle.keys()}
    weights = adapter / "adapter_model.bin"
    if weights.is_file():
        import torch

        return {key: tuple(value.shape) for key, value in torch.load(weights, weights_only=True).items()}
    return {}


def adapter_mismatch(model, adapter: str | Path) -> str | None:
    """Why the LoRA adapter in folder ``adapter`` does not fit ``model`` (a module it adapts is missing, or has other
    sizes), or None when every LoRA tensor fits (also when the adapter has no weights file to read)."""
    modules = dict(model.named_modules())
    for key, shape in sorted(_tensor_shapes(Path(adapter)).items()):
        match = _LORA_KEY.match(key)
        if not match:
            continue
        name, part = match["module"], match["part"]
        module = modules.get(name)
        if module is None:
            return f"it adapts {name}, which the model does not have"
        if part in ("lora_A", "lora_B") and hasattr(module, "in_features"):
            want = (
                ("input features", module.in_features, shape[-1])
                if part == "lora_A"
                else ("output features", module.out_features, shape[0])
            )
        elif part.startswith("lora_embedding") and hasattr(module, "num_embeddings"):
            want = (
                ("vocabulary entries", module.num_embeddings, shape[-1])
                if part == "lora_embedding_A"
                else ("embedding dimensions", module.embedding_dim, shape[0])
            )
        else:
            continue
        kind, model_size, adapter_size = want
        if model_size != adapter_size:
            return f"{name} has {model_size} {kind} in the model, {adapter_size} in the adapter ({part})"
    return None
