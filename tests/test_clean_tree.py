"""The clean-tree check itself: a suite that writes into the tracked tree fails and names the file."""

import subprocess

from tests.conftest import REPO_ROOT

pytest_plugins = ["pytester"]


def _suite(pytester, monkeypatch, body: str):
    monkeypatch.delenv("INTERLEAVE_GRPO_TREE_CHECK", raising=False)
    monkeypatch.setenv("PYTHONPATH", str(REPO_ROOT))  # the plugin, tests.clean_tree
    subprocess.run(["git", "init", "-q"], cwd=pytester.path, check=True)
    pytester.makepyfile(test_one=body)
    (pytester.path / "kept.txt").write_text("committed\n")
    (pytester.path / ".gitignore").write_text("runpytest-*/\n__pycache__/\n")  # pytester's basetemp; bytecode
    subprocess.run(["git", "add", "-A"], cwd=pytester.path, check=True)
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"], cwd=pytester.path, check=True
    )
    return pytester.runpytest_subprocess("-p", "tests.clean_tree", "-p", "no:cacheprovider")


def test_a_suite_that_rewrites_a_tracked_file_fails(pytester, monkeypatch):
    result = _suite(
        pytester,
        monkeypatch,
        "from pathlib import Path\n\ndef test_writes():\n    Path('kept.txt').write_text('changed by a test\\n')\n",
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*the test suite changed the tracked tree*", "*M kept.txt*"])


def test_a_suite_that_writes_under_tmp_passes(pytester, monkeypatch):
    result = _suite(pytester, monkeypatch, "def test_writes(tmp_path):\n    (tmp_path / 'x').write_text('fine')\n")
    assert result.ret == 0
