"""scripts/gpu/carry_starts.py: a sweep's `# CARRY NAME COMMIT:FOLDER [bf16]` lines rebuilt into .carry/NAME from
history (a new checkout has none), cast to bfloat16 where asked as setup.sh's bf16 does; bad lines and missing commits
are one clear error."""

import subprocess

import pytest
import torch
from safetensors.torch import load_file, save_file

from scripts.gpu.carry_starts import carried_starts, carried_trees, main


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    """A repository with one float32 adapter committed under adapters/batch-1/a/; its commit id."""
    root = tmp_path / "repo"
    folder = root / "adapters" / "batch-1" / "a"
    folder.mkdir(parents=True)
    save_file(
        {"w": torch.arange(6, dtype=torch.float32) / 3, "steps": torch.tensor([3])},
        folder / "adapter_model.safetensors",
    )
    (folder / "adapter_config.json").write_text('{"r": 4}')
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "adapter")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
    return root, commit.stdout.strip()


def test_the_named_starts_are_written_as_committed_or_cast_to_bf16(repo, tmp_path, capsys):
    root, commit = repo
    sweep = tmp_path / "sweep.sh"
    sweep.write_text(
        f"# a header\n# CARRY a {commit}:adapters/batch-1/a\n# CARRY a-half {commit}:adapters/batch-1/a/ bf16\n"
    )
    assert main([str(sweep), "--root", str(root)]) == 0
    committed = root / "adapters" / "batch-1" / "a" / "adapter_model.safetensors"
    assert (root / ".carry" / "a" / "adapter_model.safetensors").read_bytes() == committed.read_bytes()
    assert (root / ".carry" / "a" / "adapter_config.json").read_text() == '{"r": 4}'
    half = load_file(root / ".carry" / "a-half" / "adapter_model.safetensors")
    assert half["w"].dtype == torch.bfloat16 and half["steps"].dtype == torch.int64  # floats cast, the rest kept
    assert torch.equal(half["w"], (torch.arange(6, dtype=torch.float32) / 3).to(torch.bfloat16))
    assert ".carry/a-half: " in capsys.readouterr().out
    assert main([str(sweep), "--root", str(root)]) == 0  # again: nothing changes


def test_a_bad_line_a_missing_commit_and_a_sweep_without_lines_are_clear_errors(repo, tmp_path, capsys):
    root, commit = repo
    with pytest.raises(ValueError, match="line 2"):
        carried_starts("# CARRY ok abc1234:adapters/x\n# CARRY broken\n")
    sweep = tmp_path / "sweep.sh"
    sweep.write_text("# CARRY a 0000000:adapters/batch-1/a\n")
    assert main([str(sweep), "--root", str(root)]) == 2
    assert "git has no 0000000:adapters/batch-1/a/adapter_config.json" in capsys.readouterr().err
    sweep.write_text("# no carries here\n")
    assert main([str(sweep), "--root", str(root)]) == 2
    assert "no `# CARRY" in capsys.readouterr().err


def test_a_carried_tree_is_written_whole_beside_the_starts(repo, tmp_path, capsys):
    """A chain piece (CARRY-TREE): every file under the folder at the commit, at its relative path, as committed."""
    root, _ = repo
    piece = root / "adapters" / "batch-2" / "chain-a"
    for path, text in (("stage-1/chain-step.json", "{}"), ("stage-2/final/adapter_config.json", '{"r": 4}')):
        (piece / path).parent.mkdir(parents=True, exist_ok=True)
        (piece / path).write_text(text)
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "piece")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    git(root, "rm", "-rq", "adapters/batch-2")  # dropped from the tree, as the pieces are after their commit
    sweep = tmp_path / "sweep.sh"
    sweep.write_text(f"# CARRY-TREE chain {commit[:10]}:adapters/batch-2/chain-a\n")
    assert main([str(sweep), "--root", str(root)]) == 0
    assert (root / ".carry" / "chain" / "stage-2" / "final" / "adapter_config.json").read_text() == '{"r": 4}'
    assert (root / ".carry" / "chain" / "stage-1" / "chain-step.json").read_text() == "{}"
    assert ".carry/chain/: 2 files" in capsys.readouterr().out
    with pytest.raises(ValueError, match="line 1"):
        carried_trees("# CARRY-TREE chain\n")
    sweep.write_text(f"# CARRY-TREE chain {commit[:10]}:adapters/none\n")
    assert main([str(sweep), "--root", str(root)]) == 2
    assert "git has no files under" in capsys.readouterr().err


def test_the_newest_sweeps_carry_lines_parse():
    from tests.scripts.test_gpu_scripts import SWEEPS

    starts = carried_starts(SWEEPS[-1].read_text())
    assert all(s.folder.startswith("adapters/") for s in starts)  # parses; a sweep from scratch may carry none
