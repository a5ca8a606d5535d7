"""Shared fixtures: the real corpus, the tiny random Llama (real tokenizer) and a runner for CLIs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["tests.clean_tree", "tests.in_process"]  # clean_tree: the suite leaves `git status` as it found it

# Tests never reach the Hub: a Hub id must fail fast with our message, not retry for 20 s.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def corpus():
    from dataset_builders.corpus import load_corpus

    return load_corpus()


@pytest.fixture(scope="session")
def tiny_model_dir() -> Path:
    from base_models.models import tiny_random_model_dir

    return tiny_random_model_dir()


def run_cli(*args: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run ``python -m ...`` (or any command when args[0] is not a module flag) from the repo root."""
    cmd = [sys.executable, *args] if args[0] in ("-m", "-c") else list(args)
    return subprocess.run(
        cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


def make_dry_run(target: str, *variables: str, unset: tuple[str, ...] = ()) -> str:
    """What ``make TARGET VARIABLES`` would run (``make -n``), continued lines joined; the environment's variables
    named in ``unset`` are left out, so only the test's own choose."""
    env = {key: value for key, value in os.environ.items() if key not in unset}
    proc = subprocess.run(
        ["make", "-n", "--no-print-directory", target, *variables],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.replace("\\\n", " ")
