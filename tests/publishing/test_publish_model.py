"""Stage checkpoints on branches: stage-N holds the stage's adapter, main follows the latest stage published;
`all` publishes every trained stage; training creates its push branch first."""

import subprocess
from types import SimpleNamespace

import pytest

from publishing.__main__ import main as publish_main
from publishing.local_hub import LocalHub
from tests.publishing.stage_run import make_stage_run

REPO = "alice/interleave-grpo-tiny-random-llama"


@pytest.fixture(scope="module")
def runs(tmp_path_factory, tiny_model_dir):
    root = tmp_path_factory.mktemp("runs")
    for stage in (1, 2):
        make_stage_run(root, tiny_model_dir, stage, seed=stage)
    return root


def publish(runs, hub_dir, stage, monkeypatch, capsys) -> str:
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(hub_dir))
    monkeypatch.setenv("HUB_USER", "alice")
    code = publish_main(
        [
            "model",
            "--stage",
            str(stage),
            "--runs_dir",
            str(runs / "runs"),
            "--results_dir",
            str(runs / "results"),
            "--base_model",
            "alice/tiny-random-llama",
            "--staging",
            str(hub_dir.parent / "staging"),
            "--quiet",
        ]
    )
    assert code == 0
    return capsys.readouterr().out


def adapter_blob(hub_dir, ref: str) -> str:
    repo = LocalHub(hub_dir).repo_path(REPO, "model")
    return subprocess.run(
        ["git", "rev-parse", f"{ref}:adapter_model.safetensors"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_main_follows_the_latest_stage_whatever_the_publishing_order(runs, tmp_path, monkeypatch, capsys):
    hub_dir = tmp_path / "hub"
    out = publish(runs, hub_dir, 2, monkeypatch, capsys)
    assert f"published model {REPO}@stage-2" in out and f"{REPO}@main" in out
    out = publish(runs, hub_dir, 1, monkeypatch, capsys)
    assert f"{REPO}@stage-1" in out and "main stays at stage 2" in out
    assert adapter_blob(hub_dir, "main") == adapter_blob(hub_dir, "stage-2") != adapter_blob(hub_dir, "stage-1")
    assert sorted(LocalHub(hub_dir).branches(REPO, "model")) == ["main", "stage-1", "stage-2"]
    publish(runs, hub_dir, 2, monkeypatch, capsys)  # republishing the latest stage keeps main on it
    assert adapter_blob(hub_dir, "main") == adapter_blob(hub_dir, "stage-2")


def test_training_creates_the_push_branch_before_the_first_save(monkeypatch):
    import publishing.hub
    from training.cli.train import prepare_hub_push
    from training.core.arguments import RecipeError

    calls = []

    class FakeHub:
        def __init__(self, token, private=False):
            calls.append(("token", token))

        def ensure_branch(self, repo_id, repo_type, branch):
            calls.append(("branch", repo_id, repo_type, branch))

        def url(self, repo_id, repo_type):
            return f"https://hub/{repo_id}"

    monkeypatch.setattr(publishing.hub, "RemoteHub", FakeHub)
    monkeypatch.setenv("HF_TOKEN", "hf_test")
    args = SimpleNamespace(
        push_to_hub=True,
        hub_model_id="me/interleave",
        hub_revision=None,
        hub_token=None,
        hub_private_repo=None,
        hub_strategy=SimpleNamespace(value="every_save"),
    )
    prepare_hub_push(args, "stage-3")
    assert args.hub_revision == "stage-3" and calls == [
        ("token", "hf_test"),
        ("branch", "me/interleave", "model", "stage-3"),
    ]
    with pytest.raises(RecipeError, match="OWNER/NAME"):
        prepare_hub_push(SimpleNamespace(**{**vars(args), "hub_model_id": None}), "stage-3")
    calls.clear()
    prepare_hub_push(SimpleNamespace(**{**vars(args), "push_to_hub": False}), "stage-3")
    assert calls == []


def test_recipe_flags_reach_trls_hub_arguments():
    from training.core.arguments import parse_run_arguments

    _, grpo, _ = parse_run_arguments(
        [
            "--config",
            "training/recipes/stage-2.yaml",
            "--push_to_hub",
            "true",
            "--hub_model_id",
            "me/interleave",
            "--hub_strategy",
            "checkpoint",
        ]
    )
    assert grpo.push_to_hub and grpo.hub_model_id == "me/interleave" and grpo.hub_strategy.value == "checkpoint"


def test_publish_all_publishes_datasets_metric_every_trained_stage_and_the_space_pointing_at_them(
    runs, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    monkeypatch.delenv("HUB_USER", raising=False)
    code = publish_main(
        [
            "all",
            "--runs_dir",
            str(runs / "runs"),
            "--results_dir",
            str(runs / "results"),
            "--base_model",
            "local/tiny-random-llama",
            "--staging",
            str(tmp_path / "staging"),
            "--train_size",
            "4",
            "--validation_size",
            "2",
            "--test_size",
            "2",
            "--curriculum_configs",
            "stage-1",
            "--arithmetic_configs",
            "2x2",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    hub = LocalHub(tmp_path / "hub")
    assert hub.branches("local/interleave-curriculum", "dataset") == ["main"]
    assert hub.branches("local/arithmetic", "dataset") == ["main"]
    assert hub.branches("local/needleman_wunsch", "space") == ["main"]
    model_repo = REPO.replace("alice", "local")
    assert sorted(hub.branches(model_repo, "model")) == ["main", "stage-1", "stage-2"]
    assert "stages with a final adapter" in out and "[1, 2]" in out
    assert hub.branches("local/interleave-demo", "space") == ["main"]
    assert hub.space_variables("local/interleave-demo") == {
        "INTERLEAVE_DEMO_ADAPTERS": model_repo,
        "INTERLEAVE_DEMO_BASE_MODEL": "local/tiny-random-llama",
    }
    assert "no stage-N branch yet" not in out


def test_a_missing_space_folder_stops_before_anything_is_published(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    assert publish_main(["all", "--space_folder", str(tmp_path / "no-space"), "--staging", str(tmp_path / "s")]) == 2
    assert f"error: no Space folder {tmp_path / 'no-space'}" in capsys.readouterr().err
    assert not (tmp_path / "hub").exists()


def test_the_metric_space_must_be_named_after_its_script(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    assert publish_main(["metric", "--metric_repo", "nw-metric", "--staging", str(tmp_path / "staging")]) == 2
    assert "runs nw-metric.py of the Space" in capsys.readouterr().err


def test_hub_serve_explains_a_missing_hub_folder(tmp_path):
    from tests.conftest import run_cli

    proc = run_cli("-m", "publishing.olah_server", "--hub_dir", str(tmp_path / "nothing"))
    assert proc.returncode == 2 and "publish something first (make publish HUB=local)" in proc.stderr


def test_publishing_takes_a_run_folder(runs, tmp_path, monkeypatch, capsys):
    """RUN=runs/<run>: any run of a curriculum stage, its summary in the run's own results/ folder."""
    import shutil

    run = tmp_path / "runs" / "stage-1-lower-lr"
    shutil.copytree(runs / "runs" / "stage-1", run)
    shutil.copytree(runs / "results" / "stage-1", run / "results")  # where training writes it by default
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    monkeypatch.setenv("HUB_USER", "alice")
    common = ["--base_model", "alice/tiny-random-llama", "--staging", str(tmp_path / "staging"), "--quiet"]
    assert publish_main(["model", "--run", str(run), *common]) == 0
    assert f"published model {REPO}@stage-1" in capsys.readouterr().out
    assert sorted(LocalHub(tmp_path / "hub").branches(REPO, "model")) == ["main", "stage-1"]

    summary = run / "results" / "summary.json"
    summary.write_text(summary.read_text().replace('"task": "stage-1"', '"task": "interleave"'))
    assert publish_main(["model", "--run", str(run), *common]) == 2
    assert "is not a curriculum stage run" in capsys.readouterr().err
    assert publish_main(["model", "--run", str(tmp_path / "runs" / "nothing"), *common]) == 2
    assert "no final adapter at" in capsys.readouterr().err
