"""The Space's standalone copy: its own files plus the repo's shared modules, and a requirements.txt that covers them."""

import ast
import importlib.metadata
import re
import sys

import pytest
from shared_code import SHARED_FILES, SharedCodeMissing, bundle_space, shared_code_root, space_files

from tests.conftest import REPO_ROOT, run_cli

from .conftest import SPACE_DIR


def test_in_the_checkout_the_shared_code_is_the_repo():
    assert shared_code_root() == REPO_ROOT


def test_bundle_holds_the_space_files_and_exact_copies_of_the_shared_modules(tmp_path):
    out = bundle_space(tmp_path / "space")
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    expected = sorted([p.name for p in space_files()] + list(SHARED_FILES))
    assert written == expected
    assert {"app.py", "README.md", "requirements.txt"} <= {p.name for p in space_files()}
    for name in SHARED_FILES:
        assert (out / name).read_bytes() == (REPO_ROOT / name).read_bytes()
    assert shared_code_root(out) == out


def test_bundle_adds_hub_links_to_the_card(tmp_path):
    result = run_cli(sys.executable, "spaces/interleave_demo/shared_code.py", str(tmp_path / "space"), "--model", "me/adapters",
                     "--dataset", "me/interleave-curriculum")
    assert result.returncode == 0, result.stderr
    header = (tmp_path / "space" / "README.md").read_text().split("---")[1]
    assert re.search(r"models:\n- HuggingFaceTB/SmolLM2-135M-Instruct\n- me/adapters\n", header)
    assert re.search(r"datasets:\n- me/interleave-curriculum\n", header)
    assert "sdk: gradio" in header and "app_file: app.py" in header


def test_bundle_refuses_to_write_into_the_space_folder():
    with pytest.raises(ValueError, match="inside the Space folder"):
        bundle_space(SPACE_DIR / "dist")


def test_without_a_checkout_or_copy_the_message_says_how_to_vendor(tmp_path):
    with pytest.raises(SharedCodeMissing, match="shared_code.py OUT_FOLDER"):
        shared_code_root(tmp_path)


def _third_party_imports(folder) -> set[str]:
    local = {p.stem for p in folder.glob("*.py")} | {"metrics", "dataset_builders"}
    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in local}


def test_requirements_cover_every_import_of_the_standalone_copy(tmp_path):
    out = bundle_space(tmp_path / "space")
    required = {re.split(r"[=<>!~\[ ]", line, maxsplit=1)[0].lower().replace("_", "-")
                for line in (out / "requirements.txt").read_text().splitlines() if line and not line.startswith("#")}
    distributions = importlib.metadata.packages_distributions()
    optional = {"numba", "rapidfuzz"}  # the NW core's optional accelerators, imported only when installed
    for module in _third_party_imports(out) - optional:
        dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        assert dists & required, f"{module} (from {dists}) is imported but not in requirements.txt"
