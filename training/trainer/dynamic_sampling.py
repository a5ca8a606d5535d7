"""Dynamic sampling (as in DAPO): swap prompt groups whose rewards are all equal for freshly sampled groups.

A group whose generations all score alike has zero advantage everywhere and teaches nothing. These
helpers find such groups and splice the rows of replacement groups into TRL's generation batch (the
dict ``_generate_and_score_completions`` returns), padding token tensors to a common width.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F

from training.core.reward_groups import zero_std_groups

__all__ = ["replace_groups", "zero_std_groups"]

LEFT_PADDED = frozenset({"prompt_ids", "prompt_mask"})  # TRL pads prompts on the left, completions on the right
TOKEN_IDS = frozenset({"prompt_ids", "completion_ids"})


def _pad_width(tensor: torch.Tensor, width: int, left: bool, value: float) -> torch.Tensor:
    missing = width - tensor.size(1)
    if missing <= 0:
        return tensor
    return F.pad(tensor, (missing, 0) if left else (0, missing), value=value)


def replace_groups(
    batch: dict, fresh: dict, pairs: Sequence[tuple[int, int]], group_size: int, pad_token_id: int
) -> dict:
    """``batch`` with group ``dst`` replaced by group ``src`` of ``fresh`` for each (dst, src) in ``pairs``.

    Per-row tensors are spliced row by row (2-D ones padded to a common width first); the token count
    ``num_items_in_batch`` is recomputed from the new completion mask.
    """
    if not pairs:
        return batch
    dst_rows = torch.tensor([d * group_size + k for d, _ in pairs for k in range(group_size)])
    src_rows = torch.tensor([s * group_size + k for _, s in pairs for k in range(group_size)])
    n_rows = batch["completion_ids"].size(0)
    out = {}
    for key, value in batch.items():
        other = fresh.get(key)
        if not (
            isinstance(value, torch.Tensor)
            and value.dim() >= 1
            and value.size(0) == n_rows
            and isinstance(other, torch.Tensor)
        ):
            out[key] = value
            continue
        if value.dim() >= 2:
            width = max(value.size(1), other.size(1))
            pad = pad_token_id if key in TOKEN_IDS else 0
            value = _pad_width(value, width, key in LEFT_PADDED, pad)
            other = _pad_width(other, width, key in LEFT_PADDED, pad)
        value = value.clone()
        value[dst_rows.to(value.device)] = other[src_rows.to(other.device)].to(value.dtype)
        out[key] = value
    mask = out["completion_mask"] if "tool_mask" not in out else out["completion_mask"] * out["tool_mask"]
    out["num_items_in_batch"] = mask.sum()
    return out
