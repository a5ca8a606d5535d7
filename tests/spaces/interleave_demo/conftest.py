"""Fixtures for the demo Space: its folder on sys.path, untrained LoRA stage adapters, and a launched app."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

SPACE_DIR = REPO_ROOT / "spaces" / "interleave_demo"
if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))


def make_adapter(base_model_dir: Path, out: Path, seed: int) -> Path:
    """An untrained LoRA adapter with random (non-zero) weights, so it changes the model's output."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(base_model_dir)
    torch.manual_seed(seed)
    config = LoraConfig(r=8, lora_alpha=64, target_modules=["q_proj", "v_proj", "o_proj", "down_proj"],
                        init_lora_weights=False)
    get_peft_model(model, config).save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def tiny_stage_adapters(tiny_model_dir, tmp_path_factory) -> str:
    """runs/stage-1/final and runs/stage-2/final on the tiny model; returns the folder pattern with {n}."""
    root = tmp_path_factory.mktemp("adapters")
    for stage in (1, 2):
        make_adapter(tiny_model_dir, root / "runs" / f"stage-{stage}" / "final", seed=stage)
    return str(root / "runs" / "stage-{n}" / "final")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LaunchedApp:
    """A demo server started by a test, its URL and everything it printed."""

    process: subprocess.Popen
    url: str = ""
    ready_seconds: float = 0.0  # from the start of the command to the URL line
    lines: list[str] = field(default_factory=list)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        """Stop the process group this test started (make and the app it runs)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def launch(cmd: list[str], cwd: Path, env: dict | None = None, timeout: float = 180) -> LaunchedApp:
    """Start ``cmd`` (in its own process group; ``env`` replaces the environment) and wait for gradio's
    'Running on local URL' line; fail with its output if it never comes."""
    process = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
                               start_new_session=True)
    started = time.monotonic()
    app = LaunchedApp(process)
    ready = threading.Event()

    def read():
        for line in process.stdout:
            app.lines.append(line)
            found = re.search(r"Running on local URL:\s+(http://\S+)", line)
            if found:
                app.url = found.group(1).rstrip("/")
                app.ready_seconds = time.monotonic() - started
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not ready.wait(0.2):
        if time.monotonic() > deadline:
            break
    if not app.url:
        app.stop()
        pytest.fail(f"the demo did not start (exit code {process.poll()}):\n{app.log[-3000:]}")
    return app
