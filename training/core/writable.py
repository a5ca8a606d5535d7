"""Before a run loads anything: the folders it writes to can be written (or created), else one RecipeError."""

from __future__ import annotations

import tempfile
from pathlib import Path

from training.core.arguments import RecipeError


def check_writable(folder: str | Path, flag: str) -> None:
    """A RecipeError unless ``folder`` is, or can be created as, a folder this process can write in.

    Probed by creating (and removing) a file in ``folder``, or in its nearest existing parent when it does not exist
    yet, so nothing is left behind; permissions, read-only file systems and a file in the way all show.
    """
    path = Path(folder).absolute()
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise RecipeError(f"--{flag} {folder} cannot be a folder: {existing} is a file")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        where = "" if existing == path else f" (its nearest existing parent, {existing}, is not writable)"
        raise RecipeError(
            f"--{flag} {folder} cannot be written: {exc.strerror or exc}{where}; pick another --{flag}"
        ) from None
