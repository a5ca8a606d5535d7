"""LocalHub (HUB=local): a publish is one git commit whose tree is exactly the folder, on the right branch."""

import subprocess
from pathlib import Path

import pytest

from publishing.hub import HubError
from publishing.local_hub import LocalHub


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def tree_files(repo: Path, ref: str) -> dict[str, str]:
    names = git(repo, "ls-tree", "-r", "--name-only", ref).splitlines()
    return {name: git(repo, "show", f"{ref}:{name}") for name in names}


def make_folder(path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    return path


def test_a_publish_commits_exactly_the_folder_and_a_later_one_removes_what_is_gone(tmp_path):
    hub = LocalHub(tmp_path / "hub")
    folder = make_folder(tmp_path / "v1", {"README.md": "card", "data/a.parquet": "A", ".gitignore": "*.parquet\n"})
    first = hub.publish_folder(folder, "alice/ds", "dataset", message="first")
    repo = tmp_path / "hub" / "datasets" / "alice" / "ds"
    assert tree_files(repo, "main") == {"README.md": "card", "data/a.parquet": "A", ".gitignore": "*.parquet"}
    assert first.commit == git(repo, "rev-parse", "main") and git(repo, "log", "-1", "--format=%s", "main") == "first"
    v2 = make_folder(tmp_path / "v2", {"README.md": "card 2", "data/b.parquet": "B"})
    second = hub.publish_folder(v2, "alice/ds", "dataset")
    assert tree_files(repo, "main") == {"README.md": "card 2", "data/b.parquet": "B"}
    assert git(repo, "rev-parse", "main~1") == first.commit
    again = hub.publish_folder(v2, "alice/ds", "dataset")
    assert again.commit == second.commit  # nothing changed: no empty commit (as upload_folder skips it)


def test_a_new_branch_starts_from_main_and_branches_are_listed(tmp_path):
    hub = LocalHub(tmp_path / "hub")
    assert hub.branches("alice/m", "model") == [] and hub.head("alice/m", "model") is None
    main = hub.publish_folder(make_folder(tmp_path / "a", {"x": "1"}), "alice/m", "model")
    stage = hub.publish_folder(make_folder(tmp_path / "b", {"y": "2"}), "alice/m", "model", branch="stage-1")
    repo = tmp_path / "hub" / "models" / "alice" / "m"
    assert git(repo, "rev-parse", "stage-1~1") == main.commit
    assert tree_files(repo, "stage-1") == {"y": "2"} and tree_files(repo, "main") == {"x": "1"}
    assert sorted(hub.branches("alice/m", "model")) == ["main", "stage-1"]
    assert hub.head("alice/m", "model", "stage-1") == stage.commit


def test_repo_ids_and_types_are_checked(tmp_path):
    hub = LocalHub(tmp_path)
    with pytest.raises(HubError, match="owner/name"):
        hub.repo_path("no-owner", "model")
    with pytest.raises(HubError, match="unknown repo type"):
        hub.repo_path("a/b", "bucket")
    assert hub.repo_path("a/b", "space") == tmp_path / "spaces" / "a" / "b"


def test_space_variables_are_kept_beside_the_repos_and_updated_per_key(tmp_path):
    hub = LocalHub(tmp_path / "hub")
    assert hub.space_variables("alice/demo") == {}
    hub.set_space_variables("alice/demo", {"A": "1", "B": "2"})
    hub.set_space_variables("alice/demo", {"B": "3"})
    assert hub.space_variables("alice/demo") == {"A": "1", "B": "3"}
    assert hub.variables_path("alice/demo") == tmp_path / "hub" / "space-variables" / "alice" / "demo.json"
