"""One run per run folder: an exclusive ``fcntl.flock`` on ``output_dir/.lock``, held until the process ends.

A second run into the same folder stops at once with a message naming the process that holds it, instead of
pruning the first run's checkpoints and mixing its metrics. The kernel drops the lock when the holder exits,
even after ``kill -9``, so a crashed run never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
import socket
import time
from pathlib import Path

from training.core.arguments import RecipeError

LOCK_FILE = ".lock"
_held: dict[Path, RunLock] = {}  # locks this process holds, kept open for its lifetime


class RunFolderLocked(RecipeError):
    """Another process holds the run folder's lock; the message names it."""


class RunLock:
    """The exclusive lock on one run folder (``acquire`` raises :class:`RunFolderLocked` when taken)."""

    def __init__(self, output_dir: str | Path):
        self.output_dir = Path(output_dir)
        self.path = self.output_dir / LOCK_FILE
        self._descriptor: int | None = None

    def acquire(self) -> RunLock:
        self.output_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 4096, 0).decode("utf-8", "replace").strip() or "a process that gave no pid"
            os.close(descriptor)
            raise RunFolderLocked(
                f"{self.output_dir} is in use by another run ({holder}): wait for it to end or "
                "stop it, or pick another --output_dir"
            ) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(
            descriptor,
            f"pid {os.getpid()} on {socket.gethostname()}, since {time.strftime('%Y-%m-%d %H:%M:%S')}\n".encode(),
            0,
        )
        self._descriptor = descriptor
        return self

    def release(self) -> None:
        if self._descriptor is not None:
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)
            os.close(self._descriptor)
            self._descriptor = None


def hold_run_lock(output_dir: str | Path) -> RunLock | None:
    """Lock ``output_dir`` for the rest of this process (its main process only, in a multi-process launch)."""
    if int(os.environ.get("RANK", "0")) != 0:
        return None
    key = Path(output_dir).resolve()
    if key not in _held:
        _held[key] = RunLock(output_dir).acquire()
    return _held[key]
