"""One process, one GPU: the single-process entry points train on the first visible GPU of a multi-GPU machine.

Without this, ``make warm-start`` (and a stage's format start or supervised help, its child) died on a machine of
four GPUs with transformers' traceback ``SFTTrainer does not support nn.DataParallel``: one process that sees several
GPUs gets wrapped in DataParallel (GPU batch 23). Data-parallel training is ``GPUS=N`` (accelerate launch), which
sets ``WORLD_SIZE``; those processes are left alone.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

logger = logging.getLogger(__name__)

VISIBLE = "CUDA_VISIBLE_DEVICES"
NVIDIA_GPUS = Path("/proc/driver/nvidia/gpus")  # one folder a GPU, read without starting CUDA


def machine_gpu_count(gpus_folder: Path = NVIDIA_GPUS) -> int:
    """GPUs the NVIDIA driver lists (0 where there is no driver)."""
    return sum(1 for _ in gpus_folder.iterdir()) if gpus_folder.is_dir() else 0


def one_gpu_per_process(environ=os.environ, gpu_count=machine_gpu_count) -> str | None:
    """In a single process (no ``WORLD_SIZE`` over 1) that would see several GPUs, make only the first visible and
    say so; returns the ``CUDA_VISIBLE_DEVICES`` it set, or None when nothing changed. Must run before CUDA starts."""
    if int(environ.get("WORLD_SIZE", "1")) > 1:
        return None
    listed = environ.get(VISIBLE)
    devices = [d.strip() for d in listed.split(",") if d.strip()] if listed is not None else None
    count = len(devices) if devices is not None else gpu_count()
    if count <= 1:
        return None
    first = devices[0] if devices else "0"
    environ[VISIBLE] = first
    logger.warning(
        "%d GPUs visible to one process: training on GPU %s alone (make ... GPUS=%d trains data-parallel on all)",
        count,
        first,
        count,
    )
    return first
