"""Where the demo finds its models: the default base model, local stage folders, and Hub branches (from the cache,
offline)."""

from pathlib import Path

import pytest
from model_sources import (
    HUB_BASE_MODEL,
    Adapter,
    ModelSourceProblem,
    adapter_folder,
    default_base_model,
    parse_adapter_source,
)


def write_adapter(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "adapter_config.json").write_text("{}")
    return folder


def test_local_stage_folders_are_found_by_number(tmp_path):
    for stage in (2, 10, 1):
        write_adapter(tmp_path / "runs" / f"stage-{stage}" / "final")
    (tmp_path / "runs" / "stage-3" / "final").mkdir(parents=True)  # no adapter_config.json: an unfinished stage
    (tmp_path / "runs" / "stage-x" / "final").mkdir(parents=True)
    source = parse_adapter_source("runs/stage-{n}/final", base_dir=tmp_path)
    assert source.kind == "local"
    assert [(a.stage, a.key, a.location) for a in source.find()] == [
        (n, f"stage-{n}", str(tmp_path / "runs" / f"stage-{n}" / "final")) for n in (1, 2, 10)
    ]


def test_pattern_with_the_stage_in_a_folder_name(tmp_path):
    write_adapter(tmp_path / "3" / "adapter")
    assert [a.stage for a in parse_adapter_source(str(tmp_path / "{n}" / "adapter")).find()] == [3]


def test_no_adapters_found(tmp_path):
    assert parse_adapter_source(str(tmp_path / "nothing" / "stage-{n}")).find() == []
    none = parse_adapter_source("none")
    assert none.kind == "none" and none.find() == []


@pytest.mark.parametrize("spec", ["runs/stage-1/final", "a/b/c", "not a repo"])
def test_unusable_adapter_source_says_what_is_accepted(spec):
    with pytest.raises(ModelSourceProblem, match=r"folder pattern with \{n\}.*Hub model repo id"):
        parse_adapter_source(spec)


def fake_hub_cache(cache: Path, repo_id: str, branches: dict[str, str]) -> Path:
    """A Hub cache as huggingface_hub writes it: refs/<branch> holds a commit, snapshots/<commit>/ the files."""
    repo = cache / f"models--{repo_id.replace('/', '--')}"
    for branch, commit in branches.items():
        (repo / "refs").mkdir(parents=True, exist_ok=True)
        (repo / "refs" / branch).write_text(commit)
        snapshot = repo / "snapshots" / commit
        snapshot.mkdir(parents=True, exist_ok=True)
        (snapshot / "adapter_config.json").write_text(f'{{"branch": "{branch}"}}')
    return repo


def test_hub_branches_offline_come_from_the_hub_cache(tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    commits = {"main": "a" * 40, "stage-1": "b" * 40, "stage-2": "c" * 40, "experiment": "d" * 40}
    repo = fake_hub_cache(tmp_path, "someone/interleave-lora", commits)
    source = parse_adapter_source("someone/interleave-lora")
    assert source.kind == "hub"
    adapters = source.find()
    assert [(a.stage, a.revision) for a in adapters] == [(1, "stage-1"), (2, "stage-2")]
    # the real snapshot_download resolves the branch through refs/ to its snapshot, offline
    assert Path(adapter_folder(adapters[1])) == repo / "snapshots" / commits["stage-2"]


def test_hub_adapter_missing_from_the_cache_offline_says_so(tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(ModelSourceProblem, match=r"could not download stage 4 adapter \(someone/x@stage-4\)"):
        adapter_folder(Adapter(4, "someone/x", "stage-4"))


def test_default_base_model(tmp_path, monkeypatch):
    monkeypatch.delenv("INTERLEAVE_DEMO_BASE_MODEL", raising=False)
    monkeypatch.setenv("INTERLEAVE_GRPO_CACHE", str(tmp_path))
    assert default_base_model() == HUB_BASE_MODEL  # nothing converted in this cache
    converted = tmp_path / "models" / "smollm2-135m-instruct"
    converted.mkdir(parents=True)
    (converted / "config.json").write_text("{}")
    assert default_base_model() == str(converted)
    monkeypatch.setenv("INTERLEAVE_DEMO_BASE_MODEL", "someone/model")
    assert default_base_model() == "someone/model"
