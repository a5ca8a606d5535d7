"""Staging a Space folder: its files minus caches, plus what vendor.txt names; clear errors for bad manifests."""

from pathlib import Path

import pytest

from publishing.hub import HubError
from publishing.space_folder import read_vendor_manifest, stage_space_folder

CARD = "---\ntitle: Demo\nsdk: gradio\napp_file: app.py\n---\n\n# Demo\n"


def space(tmp_path: Path, vendor: str | None = None, card: str = CARD) -> Path:
    folder = tmp_path / "demo"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "__pycache__" / "app.cpython-311.pyc").write_bytes(b"x")
    (folder / "app.py").write_text("import gradio\n")
    (folder / "README.md").write_text(card)
    if vendor is not None:
        (folder / "vendor.txt").write_text(vendor)
    return folder


def files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_vendor_txt_copies_files_and_folders_from_the_repo(tmp_path):
    vendor = ("# shared code the Space needs\n"
              "metrics/needleman_wunsch/nw_alignment.py -> nw_alignment.py\n"
              "metrics/needleman_wunsch/nw_kernels.py -> nw_kernels.py   # the kernels\n"
              "\n"
              "dataset_builders/prompts.py\n"
              "dataset_builders/interleave_curriculum -> vendored/curriculum\n")
    staged = stage_space_folder(space(tmp_path, vendor), tmp_path / "staged")
    got = files(staged)
    assert {"app.py", "README.md", "nw_alignment.py", "nw_kernels.py", "dataset_builders/prompts.py",
            "vendored/curriculum/builder.py"} <= got
    assert "vendor.txt" not in got and not any("__pycache__" in f or f.endswith(".pyc") for f in got)
    repo = Path(__file__).resolve().parents[2]
    assert (staged / "nw_kernels.py").read_text() == (repo / "metrics/needleman_wunsch/nw_kernels.py").read_text()


def test_bad_manifests_and_cards_are_explained(tmp_path):
    with pytest.raises(HubError, match="does not exist in the repo"):
        stage_space_folder(space(tmp_path / "a", "metrics/nope.py\n"), tmp_path / "s1")
    with pytest.raises(HubError, match="would overwrite"):
        stage_space_folder(space(tmp_path / "b", "dataset_builders/prompts.py -> app.py\n"), tmp_path / "s2")
    with pytest.raises(HubError, match="must be relative"):
        read_vendor_manifest(Path(space(tmp_path / "c", "../secrets.txt\n")) / "vendor.txt")
    with pytest.raises(HubError, match="names no sdk"):
        stage_space_folder(space(tmp_path / "d", card="---\ntitle: x\n---\n"), tmp_path / "s3")
    with pytest.raises(HubError, match="no Space folder"):
        stage_space_folder(tmp_path / "missing", tmp_path / "s4")
