"""A demo server started by a test (`make space`, or app.py of a Space copy), on a free loopback port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from publishing.olah_server import free_port

__all__ = ["LaunchedApp", "free_port", "launch"]


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
    """Start ``cmd`` (in its own process group; ``env`` replaces the environment) and wait for the app's
    'demo Space: URL' line (printed once the server answers); fail with its output if it never comes."""
    process = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    started = time.monotonic()
    app = LaunchedApp(process)
    ready = threading.Event()

    def read():
        for line in process.stdout:
            app.lines.append(line)
            found = re.match(r"demo Space: (http://\S+)", line)  # printed once the server answers
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
