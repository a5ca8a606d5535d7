"""The staging folder (``--staging``, default dist/publish/) where publishing writes each folder it uploads.

A staged folder is made fresh for each publish. The only folders ever deleted are ones an earlier publish made
there (recorded in the staging folder's ``.publishing-staged``), so a user's folder is never removed, whatever
``--staging`` or a repo name says.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from publishing.hub import HubError

logger = logging.getLogger(__name__)

RECORD = ".publishing-staged"


class StagingArea:
    """``root`` and the folders publishing made in it."""

    def __init__(self, root: Path):
        self.root = Path(root)

    def made(self) -> set[str]:
        """Relative paths (``spaces/interleave-demo``) of the folders publishing made under the root."""
        record = self.root / RECORD
        return set(record.read_text(encoding="utf-8").splitlines()) if record.is_file() else set()

    def fresh_folder(self, *parts: str) -> Path:
        """An empty folder ``root/parts...``; one already there is replaced only if publishing made it."""
        for part in parts:
            if part in ("", ".", "..") or any(sep in part for sep in ("/", "\\", "\0")):
                raise HubError(f"{part!r} cannot name a staging folder: one plain folder name per level")
        relative = "/".join(parts)
        folder = self.root.joinpath(*parts)
        for depth in range(1, len(parts) + 1):
            if self.root.joinpath(*parts[:depth]).is_symlink():
                raise HubError(
                    f"{self.root.joinpath(*parts[:depth])} is a link: publishing stages only into plain "
                    "folders of --staging (remove the link by hand)"
                )
        if folder.exists():
            if relative not in self.made():
                raise HubError(
                    f"{folder} exists and was not made by publishing: move it away, or pick another "
                    "--staging (publishing only replaces the folders it staged itself)"
                )
            logger.info("replacing the staged folder %s", folder)
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        if relative not in self.made():
            with open(self.root / RECORD, "a", encoding="utf-8") as handle:
                handle.write(relative + "\n")
        return folder


def require_empty(folder: Path) -> None:
    """A HubError unless ``folder`` is absent or an empty folder: staging writes into it and never deletes there."""
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and (not folder.is_dir() or any(folder.iterdir()))):
        raise HubError(
            f"{folder} is not an empty folder: staging writes only into a new or empty folder "
            "(python -m publishing makes a fresh one under --staging)"
        )
