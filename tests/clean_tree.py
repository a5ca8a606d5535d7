"""A pytest plugin: the suite must leave ``git status`` as it found it (tests write under tmp or the ignored runs/).

At session start it records ``git status --porcelain``; at the end, any entry that was not there makes the session
fail and names it. ``INTERLEAVE_GRPO_TREE_CHECK=0`` turns it off (e.g. while editing files during a run).
"""

from __future__ import annotations

import os
import subprocess

import pytest

STATUS_KEY = pytest.StashKey[list]()


def git_status(root) -> list[str] | None:
    """``git status --porcelain`` lines of the checkout at ``root`` (None outside a git checkout)."""
    try:
        proc = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.splitlines() if proc.returncode == 0 else None


def pytest_sessionstart(session):
    if os.environ.get("INTERLEAVE_GRPO_TREE_CHECK", "1") != "0":
        status = git_status(session.config.rootpath)
        if status is not None:
            session.config.stash[STATUS_KEY] = status


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(STATUS_KEY, None)
    if before is None:
        return
    after = git_status(session.config.rootpath) or []
    new = sorted(set(after) - set(before))
    if new:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                "the test suite changed the tracked tree (write under tmp_path or runs/ instead):", red=True
            )
            for line in new:
                reporter.write_line(f"  {line}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
