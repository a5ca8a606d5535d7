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
    vendor = (
        "# shared code the Space needs\n"
        "metrics/needleman_wunsch/nw_alignment.py -> nw_alignment.py\n"
        "metrics/needleman_wunsch/nw_kernels.py -> nw_kernels.py   # the kernels\n"
        "\n"
        "dataset_builders/prompts.py\n"
        "dataset_builders/interleave_curriculum -> vendored/curriculum\n"
    )
    staged = stage_space_folder(space(tmp_path, vendor), tmp_path / "staged")
    got = files(staged)
    assert {
        "app.py",
        "README.md",
        "nw_alignment.py",
        "nw_kernels.py",
        "dataset_builders/prompts.py",
        "vendored/curriculum/builder.py",
    } <= got
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


def test_link_card_adds_hub_ids_once_and_keeps_the_header(tmp_path):
    from huggingface_hub import SpaceCard

    from publishing.space_folder import link_card

    folder = space(
        tmp_path, card="---\ntitle: Demo\nsdk: gradio\napp_file: app.py\nmodels:\n- org/base\n---\n\n# Demo\n"
    )
    link_card(folder, models=("me/adapters", "org/base"), datasets=("me/curriculum",))
    card = SpaceCard.load(folder / "README.md")
    assert card.data.models == ["org/base", "me/adapters"] and card.data.datasets == ["me/curriculum"]
    assert (card.data.sdk, card.data.app_file, card.text.strip()) == ("gradio", "app.py", "# Demo")


def publish_space(tmp_path, monkeypatch, capsys, *args: str) -> str:
    from publishing.__main__ import main as publish_main

    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    monkeypatch.setenv("HUB_USER", "alice")
    assert publish_main(["space", "--staging", str(tmp_path / "staging"), "--quiet", *args]) == 0
    return capsys.readouterr().out


def test_publish_space_links_the_adapter_repo_and_sets_the_variables_the_demo_reads(tmp_path, monkeypatch, capsys):
    from huggingface_hub import SpaceCard

    from publishing.local_hub import LocalHub

    out = publish_space(tmp_path, monkeypatch, capsys)
    card = SpaceCard.load(tmp_path / "staging/spaces/interleave-demo/README.md").data
    assert card.models == ["HuggingFaceTB/SmolLM2-135M-Instruct", "alice/interleave-grpo-smollm2-135m-instruct"]
    assert card.datasets == ["alice/interleave-curriculum"]
    hub = LocalHub(tmp_path / "hub")
    assert hub.space_variables("alice/interleave-demo") == {
        "INTERLEAVE_DEMO_BASE_MODEL": "HuggingFaceTB/SmolLM2-135M-Instruct",
        "INTERLEAVE_DEMO_ADAPTERS": "alice/interleave-grpo-smollm2-135m-instruct",
    }
    assert (
        "Space variables of alice/interleave-demo: INTERLEAVE_DEMO_BASE_MODEL=HuggingFaceTB/SmolLM2-135M-Instruct, "
        "INTERLEAVE_DEMO_ADAPTERS=alice/interleave-grpo-smollm2-135m-instruct"
    ) in out
    assert "has no stage-N branch yet" in out

    out = publish_space(tmp_path, monkeypatch, capsys, "--adapter-repo", "bob/adapters", "--base-model", "bob/base")
    assert SpaceCard.load(tmp_path / "staging/spaces/interleave-demo/README.md").data.models == [
        "bob/base",
        "bob/adapters",
    ]
    assert hub.space_variables("alice/interleave-demo") == {
        "INTERLEAVE_DEMO_ADAPTERS": "bob/adapters",
        "INTERLEAVE_DEMO_BASE_MODEL": "bob/base",
    }
