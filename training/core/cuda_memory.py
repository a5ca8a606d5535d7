"""The CUDA allocator setting of the training entry points.

GRPO at stage 2 (25-word texts, 128 completions a step) died of CUDA out of memory alone on an 80 GB H100 with
62 GiB allocated and 16 GiB reserved but unallocated: fragmentation (results/grpo/batch-17, PART=b). The same run with
gradient checkpointing and PyTorch's expandable segments ran (help-grpo-gc). Expandable segments let the allocator
grow a segment instead of reserving new fixed blocks, so freed memory of one size serves requests of another.
"""

from __future__ import annotations

import os

SETTING = "PYTORCH_CUDA_ALLOC_CONF"
EXPANDABLE = "expandable_segments:True"


def allow_expandable_segments(environ=os.environ) -> str:
    """Set ``PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`` unless the user set the variable (theirs is kept).

    Must run before the first CUDA allocation: PyTorch reads the variable when its allocator starts. Returns the
    value in effect."""
    return environ.setdefault(SETTING, EXPANDABLE)
