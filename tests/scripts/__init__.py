"""Tests of the scripts under scripts/, which are files to run, not an importable package."""

import importlib.util
from types import ModuleType

from tests.conftest import REPO_ROOT


def load_script(relative_path: str) -> ModuleType:
    """The module of a script under the repository root, e.g. ``load_script("scripts/compress_results.py")``."""
    path = REPO_ROOT / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
