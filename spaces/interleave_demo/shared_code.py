"""Find the project code the Space shares with the repo: in the checkout above this folder, or vendored next to app.py.

The demo scores with the repo's one Needleman-Wunsch core and prompts with its one prompt template, imported as
``metrics.needleman_wunsch.nw_alignment`` and ``dataset_builders.prompts``. In the checkout they are found in the
repo root; in the published Space, ``make publish-space`` has copied them (the files ``vendor.txt`` lists) next to
``app.py`` at the same relative paths. Either way that folder goes first on ``sys.path``, so the imports read the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The project modules app.py imports: the folder holding both is the import root (vendor.txt lists every file copied).
MARKER_MODULES = ("metrics/needleman_wunsch/nw_alignment.py", "dataset_builders/prompts.py")


class SharedCodeMissing(RuntimeError):
    """Neither a vendored copy nor a checkout holds the shared modules; the message says what to do."""


def shared_code_root(start: Path = HERE) -> Path:
    """The folder holding the shared modules: ``start`` itself (a published Space) or the checkout above it."""
    for folder in (start, *start.parents):
        if all((folder / name).is_file() for name in MARKER_MODULES):
            return folder
    raise SharedCodeMissing(
        f"the demo imports the project's modules {' and '.join(MARKER_MODULES)}, found neither in {start} nor above "
        f"it: run it from the interleave-grpo checkout (make space), or from the copy that publishing writes with "
        f"them (make publish-space HUB=local, or python -m publishing space --hub local: no token needed; the copy "
        f"is dist/publish/spaces/interleave-demo/)"
    )


def use_shared_code() -> Path:
    """Put the shared modules' root first on ``sys.path`` and return it."""
    root = shared_code_root()
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return root
