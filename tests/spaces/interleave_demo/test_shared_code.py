"""Where the Space finds the project code it shares (the checkout, or the published copy), and the copy publishing
stages: the Space's files plus exact copies of what vendor.txt lists, enough for every import it makes."""

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared_code import SharedCodeMissing, shared_code_root

from publishing.space_folder import VENDOR_MANIFEST, read_vendor_manifest, stage_space_folder
from tests.conftest import REPO_ROOT

from .conftest import SPACE_DIR

OPTIONAL = {"numba", "rapidfuzz"}  # the NW core's optional accelerators, imported only when installed


@pytest.fixture(scope="module")
def staged(tmp_path_factory) -> Path:
    """The folder `make publish-space` uploads, staged by publishing's own function."""
    return stage_space_folder(SPACE_DIR, tmp_path_factory.mktemp("staged") / "interleave_demo")


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_in_the_checkout_the_shared_code_is_the_repo():
    assert shared_code_root() == REPO_ROOT


def test_the_staged_space_is_its_own_files_plus_exact_copies_of_the_vendored_ones(staged):
    vendored = [dest for _, dest in read_vendor_manifest(SPACE_DIR / VENDOR_MANIFEST)]
    own = [p.name for p in SPACE_DIR.iterdir() if p.is_file() and p.suffix != ".pyc" and p.name != VENDOR_MANIFEST]
    assert {"app.py", "README.md", "requirements.txt", "shared_code.py"} <= set(own)
    assert files(staged) == sorted(own + vendored)
    for name in vendored:
        assert (staged / name).read_bytes() == (REPO_ROOT / name).read_bytes()
    assert shared_code_root(staged) == staged  # the published Space imports its own copies


def test_without_a_checkout_or_vendored_copy_the_app_says_how_to_get_one(tmp_path):
    bare = shutil.copytree(SPACE_DIR, tmp_path / "interleave_demo", ignore=shutil.ignore_patterns("__pycache__"))
    with pytest.raises(SharedCodeMissing, match=r"make publish-space HUB=local"):
        shared_code_root(bare)
    proc = subprocess.run([sys.executable, "app.py"], cwd=bare, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(
        "error: the demo imports the project's modules metrics/needleman_wunsch/nw_alignment.py"
    )


def imports(folder: Path) -> set[tuple[str, str]]:
    """(file, absolute module name) of every import in the folder's Python files, relative ones resolved."""
    found = set()
    for path in folder.rglob("*.py"):
        package = list(path.relative_to(folder).parent.parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {(str(path), alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join([*base, *(node.module.split(".") if node.module else [])])
                found.add((str(path), module))
    return found


def resolves(folder: Path, module: str) -> bool:
    path = folder.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_every_project_import_of_the_staged_space_is_one_of_its_files(staged):
    project = {p.parent.name for p in REPO_ROOT.glob("*/__init__.py")} | {p.stem for p in staged.glob("*.py")}
    checked = 0
    for path, module in imports(staged):
        if module.split(".")[0] in project:
            assert resolves(staged, module), (
                f"{path} imports {module}, which the staged Space lacks: add it to vendor.txt"
            )
            checked += 1
    assert checked >= 10


def test_requirements_cover_every_other_import_of_the_staged_space(staged):
    required = {
        re.split(r"[=<>!~\[ ]", line, maxsplit=1)[0].lower().replace("_", "-")
        for line in (staged / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    }
    distributions = importlib.metadata.packages_distributions()
    third_party = {module.split(".")[0] for _, module in imports(staged) if not resolves(staged, module)}
    third_party -= set(sys.stdlib_module_names) | OPTIONAL | {"__future__"}
    assert {"gradio", "torch", "numpy"} <= third_party
    for module in third_party:
        dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        assert dists & required, f"{module} (from {dists}) is imported but not in requirements.txt"
