"""Attention kernels for training: PyTorch's cuDNN kernel of scaled_dot_product_attention is turned off.

Root cause of the non-finite gradients of GRPO runs (results/grpo/README.md, found with training.nonfinite_probe):
GRPO left-pads prompts, so the query of a padding position attends to no key at all (its row of the causal and
padding mask is fully masked). For such rows the backward of the cuDNN attention kernel,
``ScaledDotProductCudnnAttentionBackward0``, returns NaN, which reaches every LoRA gradient through dQ, dK and dV;
the forward and the loss stay finite. PyTorch picks the cuDNN kernel on Hopper GPUs for some batch shapes only,
so a few steps in a hundred broke. The memory-efficient and math kernels give zero gradients for those rows.
"""

from __future__ import annotations

import torch


def use_safe_attention_kernels() -> None:
    """Turn off the cuDNN attention kernel of ``scaled_dot_product_attention`` (process-wide)."""
    torch.backends.cuda.enable_cudnn_sdp(False)
