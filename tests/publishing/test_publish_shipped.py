"""`make publish-model` with neither RUN nor STAGE, where no runs/stage-N/final exists: the adapter shipped with the
project goes to branch stage-N of its stage, with exactly its folder's files and card; a user's runs come first."""

from __future__ import annotations

import subprocess

import pytest

from model_cards.shipped_adapter import SHIPPED_ADAPTER, load_shipped
from publishing.__main__ import main as publish_main
from publishing.local_hub import LocalHub
from tests.conftest import make_dry_run
from tests.publishing.stage_run import make_stage_run

REPO = "HUB_USER/interleave-grpo-smollm2-135m-instruct"  # the placeholder namespace the committed card names


@pytest.fixture
def local_hub(tmp_path, monkeypatch):
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    monkeypatch.setenv("HUB_USER", "HUB_USER")
    return LocalHub(tmp_path / "hub")


def branch_files(hub: LocalHub, branch: str) -> dict[str, bytes]:
    repo = hub.repo_path(REPO, "model")
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", branch], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.split()
    return {
        name: subprocess.run(["git", "show", f"{branch}:{name}"], cwd=repo, capture_output=True, check=True).stdout
        for name in names
    }


def test_with_no_runs_the_shipped_adapter_is_published_with_its_own_card(local_hub, tmp_path, capsys):
    code = publish_main(["model", "--runs_dir", str(tmp_path / "runs"), "--staging", str(tmp_path / "staging")])
    out = capsys.readouterr().out
    assert code == 0, out
    shipped = load_shipped()
    assert f"the adapter shipped with the project, adapters/shipped/ (curriculum stage {shipped.stage})" in out
    assert sorted(local_hub.branches(REPO, "model")) == ["main", f"stage-{shipped.stage}"]
    published = branch_files(local_hub, f"stage-{shipped.stage}")
    committed = {
        str(p.relative_to(SHIPPED_ADAPTER)): p.read_bytes() for p in sorted(SHIPPED_ADAPTER.rglob("*")) if p.is_file()
    }
    assert published.keys() == committed.keys()
    different = [name for name in committed if published[name] != committed[name]]
    assert not different, f"published files differ from adapters/shipped/: {different}"  # the card too
    assert branch_files(local_hub, "main") == published


def test_the_card_names_the_publishing_namespace(local_hub, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HUB_USER", "alice")
    assert publish_main(["model", "--runs_dir", str(tmp_path / "runs"), "--staging", str(tmp_path / "s")]) == 0
    repo = local_hub.repo_path("alice/interleave-grpo-smollm2-135m-instruct", "model")
    branch = f"stage-{load_shipped().stage}"
    card = subprocess.run(["git", "show", f"{branch}:README.md"], cwd=repo, capture_output=True, text=True).stdout
    assert f'from_pretrained(base, "alice/interleave-grpo-smollm2-135m-instruct", revision="{branch}")' in card
    assert "HUB_USER" not in card and "## How it was made" in card


def test_a_users_runs_come_first(local_hub, tmp_path, capsys, tiny_model_dir):
    shipped = load_shipped().stage
    users = shipped % 6 + 1  # a stage of the user's other than the shipped one
    make_stage_run(tmp_path, tiny_model_dir, stage=users)
    capsys.readouterr()
    args = ["model", "--runs_dir", str(tmp_path / "runs"), "--staging", str(tmp_path / "staging")]
    assert publish_main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: which adapter?") and f"stage {users}" in err and "RUN=adapters/shipped" in err
    assert not local_hub.root.exists()  # nothing published
    assert publish_main([*args, "--run", str(SHIPPED_ADAPTER)]) == 0  # asked for by its folder: published anyway
    assert sorted(local_hub.branches(REPO, "model")) == ["main", f"stage-{shipped}"]
    assert publish_main([*args, "--run", str(SHIPPED_ADAPTER), "--eval_file", str(tmp_path / "e.json")]) == 2
    assert "carries its own scores" in capsys.readouterr().err


def test_nothing_to_publish_says_so(local_hub, tmp_path, capsys, monkeypatch):
    import publishing.__main__

    monkeypatch.setattr(publishing.__main__, "shipped_default", lambda runs_dir: None)  # no adapters/shipped
    assert publish_main(["model", "--runs_dir", str(tmp_path / "runs"), "--staging", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert "nothing to publish: no RUN or STAGE given" in err and "Traceback" not in err


def make_publish_model_command(*variables: str) -> list[str]:
    line = " ".join(make_dry_run("publish-model", *variables, unset=("STAGE", "RUN")).splitlines())
    return line[line.index("-m publishing model") :].split()[3:]


def test_make_publish_model_passes_stage_only_when_given():
    assert make_publish_model_command() == []
    assert make_publish_model_command("STAGE=3") == ["--stage", "3"]
    assert make_publish_model_command("RUN=runs/stage-3-lr") == ["--run", "runs/stage-3-lr"]


def test_publish_all_with_no_runs_publishes_the_shipped_adapter_and_points_the_space_at_it(local_hub, tmp_path, capsys):
    small = ["--train_size", "4", "--validation_size", "2", "--test_size", "2"]
    configs = ["--curriculum_configs", "stage-1", "--arithmetic_configs", "2x2"]
    args = ["all", "--runs_dir", str(tmp_path / "runs"), "--staging", str(tmp_path / "staging"), *small, *configs]
    code = publish_main([*args, "--quiet"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "stages with a final adapter" in out and "publishing the adapter shipped with the project" in out
    assert sorted(local_hub.branches(REPO, "model")) == ["main", f"stage-{load_shipped().stage}"]
    assert local_hub.space_variables("HUB_USER/interleave-demo") == {
        "INTERLEAVE_DEMO_ADAPTERS": REPO,
        "INTERLEAVE_DEMO_BASE_MODEL": "HuggingFaceTB/SmolLM2-135M-Instruct",
    }
    assert "no stage-N branch yet" not in out
